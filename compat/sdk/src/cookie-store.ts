/**
 * The SDK's affinity cookie store (`AcpCookieStore`, `MemoryAcpCookieStore`)
 * that the client streams (remote-client/) keep and send with each request.
 */

/** Keeps affinity cookies from `Set-Cookie` answers and puts them on later requests (names and values only). */
export interface AcpCookieStore {
  /** Stores the cookies of an answer's headers. */
  store(headers: Headers): void;
  /** Adds the stored cookies to a request's headers. */
  apply(headers: Headers): void;
  /** Forgets every cookie. */
  clear(): void;
}

/** The `name=value` pair at the start of a cookie string, or undefined when it has no name. */
function cookiePair(text: string): [string, string] | undefined {
  const eq = text.indexOf("=");
  if (eq <= 0) return undefined;
  const name = text.slice(0, eq).trim();
  return name === "" ? undefined : [name, text.slice(eq + 1).trim()];
}

/**
 * The `Set-Cookie` lines of `headers`, one per cookie: a header that joins several with commas
 * (a proxy's, or `Headers.get`'s) is split at each comma that starts a new `name=`, so an
 * `Expires=Wed, 21 Oct …` date stays whole.
 */
function setCookieLines(headers: Headers): string[] {
  const lines = typeof headers.getSetCookie === "function" ? headers.getSetCookie() : [headers.get("set-cookie") ?? ""];
  return lines
    .flatMap((line) => line.split(/,(?=\s*[^;,\s]+=)/))
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/**
 * An in-memory {@link AcpCookieStore}: name → value, no domain, path or expiry rules (routing
 * affinity, not a browser jar). `apply` puts the stored cookies first and the request's own
 * `Cookie` values after them; a name the request sets itself keeps the request's value.
 */
export class MemoryAcpCookieStore implements AcpCookieStore {
  readonly #cookies = new Map<string, string>();
  store(headers: Headers): void {
    for (const line of setCookieLines(headers)) {
      const pair = cookiePair(line.split(";", 1)[0] ?? "");
      if (pair !== undefined) this.#cookies.set(pair[0], pair[1]);
    }
  }
  apply(headers: Headers): void {
    const merged = new Map(this.#cookies);
    for (const part of (headers.get("cookie") ?? "").split(";")) {
      const pair = cookiePair(part);
      if (pair !== undefined) merged.set(pair[0], pair[1]);
    }
    if (merged.size > 0) headers.set("cookie", [...merged].map(([name, value]) => `${name}=${value}`).join("; "));
  }
  clear(): void {
    this.#cookies.clear();
  }
}
