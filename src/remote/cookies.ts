/**
 * A small cookie jar for the client transports. The RFD makes cookies
 * mandatory on HTTP transports ("Clients MUST accept, store, and return
 * cookies … for the duration of the connection") so that servers can pin a
 * connection to one backend behind a load balancer. Portable: no `node:`.
 *
 * Implemented from RFC 6265 for what affinity needs: host-only and `Domain`
 * cookies, `Path`, `Max-Age`/`Expires` (a cookie in the past is removed),
 * `Secure` (only sent over https/wss). Other attributes are ignored.
 */

/** Stores `Set-Cookie` answers and produces the `Cookie` header for a URL. */
export interface CookieJar {
  /** Stores the `Set-Cookie` header values of an answer to a request for `url`. */
  store(url: string, setCookies: readonly string[]): void;
  /** The `Cookie` header for a request to `url`, or undefined when no cookie applies. */
  header(url: string): string | undefined;
  /** Forgets every cookie (a client may when its connection ends). */
  clear(): void;
}

interface Cookie {
  readonly name: string;
  readonly value: string;
  readonly domain: string;
  readonly hostOnly: boolean;
  readonly path: string;
  readonly secure: boolean;
  readonly expires: number | undefined;
}

/** Creates an empty in-memory cookie jar. */
export function createCookieJar(): CookieJar {
  let cookies: Cookie[] = [];
  return {
    store(url, setCookies) {
      const target = new URL(url);
      for (const line of setCookies) {
        const cookie = parseSetCookie(line, target);
        if (!cookie) continue;
        cookies = cookies.filter((c) => !(c.name === cookie.name && c.domain === cookie.domain && c.path === cookie.path));
        if (cookie.expires === undefined || cookie.expires > Date.now()) cookies.push(cookie);
      }
    },
    header(url) {
      const target = new URL(url);
      const host = target.hostname.toLowerCase();
      const secure = target.protocol === "https:" || target.protocol === "wss:";
      const now = Date.now();
      cookies = cookies.filter((c) => c.expires === undefined || c.expires > now);
      const matching = cookies.filter((c) => (c.hostOnly ? host === c.domain : domainMatch(host, c.domain)) && pathMatch(target.pathname, c.path) && (secure || !c.secure));
      // RFC 6265 §5.4: longer paths first.
      matching.sort((a, b) => b.path.length - a.path.length);
      return matching.length === 0 ? undefined : matching.map((c) => `${c.name}=${c.value}`).join("; ");
    },
    clear() {
      cookies = [];
    },
  };
}

function parseSetCookie(line: string, url: URL): Cookie | undefined {
  const [pair = "", ...attributes] = line.split(";");
  const eq = pair.indexOf("=");
  if (eq <= 0) return undefined;
  const name = pair.slice(0, eq).trim();
  const value = pair.slice(eq + 1).trim();
  if (name === "") return undefined;
  const host = url.hostname.toLowerCase();
  let domain = host;
  let hostOnly = true;
  let path = defaultPath(url.pathname);
  let secure = false;
  let expires: number | undefined;
  let maxAge: number | undefined;
  for (const attribute of attributes) {
    const i = attribute.indexOf("=");
    const key = (i === -1 ? attribute : attribute.slice(0, i)).trim().toLowerCase();
    const val = i === -1 ? "" : attribute.slice(i + 1).trim();
    if (key === "domain" && val !== "") {
      const d = val.replace(/^\./, "").toLowerCase();
      if (!domainMatch(host, d)) return undefined;
      domain = d;
      hostOnly = false;
    } else if (key === "path" && val.startsWith("/")) path = val;
    else if (key === "secure") secure = true;
    else if (key === "max-age" && /^-?\d+$/.test(val)) maxAge = Number(val);
    else if (key === "expires") {
      const t = Date.parse(val);
      if (!Number.isNaN(t)) expires = t;
    }
  }
  if (maxAge !== undefined) expires = maxAge <= 0 ? 0 : Date.now() + maxAge * 1000;
  return { name, value, domain, hostOnly, path, secure, expires };
}

function domainMatch(host: string, domain: string): boolean {
  return host === domain || (host.endsWith(`.${domain}`) && !/^[\d.]+$/.test(host));
}

function pathMatch(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath.charAt(cookiePath.length) === "/";
}

function defaultPath(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash <= 0 ? "/" : path.slice(0, slash);
}
