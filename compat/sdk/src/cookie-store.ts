/**
 * The SDK's affinity cookie store (`AcpCookieStore`, `MemoryAcpCookieStore`)
 * and its `cookies` / `cookieStore` options, as the cookie jar acp-router's
 * client transports take (`src/remote/cookies.ts`'s `CookieJar`).
 */
import type { CookieJar } from "../../../src/remote/cookies.ts";

/** Keeps affinity cookies from `Set-Cookie` answers and puts them on later requests (names and values only). */
export interface AcpCookieStore {
  /** Stores the cookies of an answer's headers. */
  store(headers: Headers): void;
  /** Adds the stored cookies to a request's headers. */
  apply(headers: Headers): void;
  /** Forgets every cookie. */
  clear(): void;
}

/** An in-memory {@link AcpCookieStore}: name → value, no domain, path or expiry rules (routing affinity, not a browser jar). */
export class MemoryAcpCookieStore implements AcpCookieStore {
  readonly #cookies = new Map<string, string>();
  store(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const pair = line.split(";", 1)[0] ?? "";
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      if (name !== "") this.#cookies.set(name, pair.slice(eq + 1).trim());
    }
  }
  apply(headers: Headers): void {
    if (this.#cookies.size === 0) return;
    const ours = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const given = headers.get("cookie");
    headers.set("cookie", given ? `${given}; ${ours}` : ours);
  }
  clear(): void {
    this.#cookies.clear();
  }
}

/** A jar that keeps nothing and sends nothing (`cookies: "omit"`). */
const omitted: CookieJar = { store() {}, header: () => undefined, clear() {} };

/** A caller's {@link AcpCookieStore} as the transports' jar. */
function storeJar(store: AcpCookieStore): CookieJar {
  return {
    store(_url, setCookies) {
      const headers = new Headers();
      for (const line of setCookies) headers.append("set-cookie", line);
      store.store(headers);
    },
    header() {
      const headers = new Headers();
      store.apply(headers);
      return headers.get("cookie") ?? undefined;
    },
    clear: () => store.clear(),
  };
}

/**
 * The jar for the SDK's options: none (the transport's own, cleared when it
 * closes), none at all for `"omit"`, or the caller's store (kept across
 * streams, never cleared by the transport).
 */
export function cookieJarOf(options: { readonly cookies?: "include" | "omit"; readonly cookieStore?: AcpCookieStore }): CookieJar | undefined {
  if (options.cookies === "omit") return omitted;
  return options.cookieStore === undefined ? undefined : storeJar(options.cookieStore);
}
