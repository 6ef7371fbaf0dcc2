/**
 * The requests the SDK-style HTTP client makes of its endpoint: each with the stream's own headers
 * under the request's, the stored affinity cookies applied and the answer's cookies stored (unless
 * cookies are `"omit"`), `credentials` set to the cookie policy; and the DELETE that ends a
 * connection.
 */
import { MemoryAcpCookieStore, type AcpCookieStore } from "../cookie-store.ts";
import { HEADER_CONNECTION_ID } from "../serve/wire.ts";
import { httpError } from "./http-errors.ts";

/** What a request is made of. */
export interface EndpointRequest {
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly signal?: AbortSignal;
}

/** See the module comment. */
export class EndpointRequests {
  readonly #url: string;
  readonly #fetch: typeof globalThis.fetch;
  readonly #headers: Record<string, string>;
  readonly #policy: "include" | "omit";
  readonly #cookies: AcpCookieStore;
  readonly #ownsCookies: boolean;
  readonly #maxBytes: number;

  /** Throws when there is no `fetch` to use. */
  constructor(url: string, options: { fetch?: typeof globalThis.fetch; headers?: Record<string, string>; cookies?: "include" | "omit"; cookieStore?: AcpCookieStore }, maxBytes: number) {
    const platform = globalThis.fetch as typeof globalThis.fetch | undefined;
    if (options.fetch === undefined && typeof platform !== "function") throw new Error("createHttpStream requires globalThis.fetch or options.fetch");
    this.#url = url;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#headers = options.headers ?? {};
    this.#policy = options.cookies ?? "include";
    this.#cookies = options.cookieStore ?? new MemoryAcpCookieStore();
    this.#ownsCookies = options.cookieStore === undefined;
    this.#maxBytes = maxBytes;
  }

  /** Makes one request (see the module comment). */
  async send(init: EndpointRequest): Promise<Response> {
    const headers = new Headers(this.#headers);
    new Headers(init.headers).forEach((value, name) => headers.set(name, value));
    if (this.#policy === "include") this.#cookies.apply(headers);
    const response = await this.#fetch(this.#url, { ...init, credentials: this.#policy, headers });
    if (this.#policy === "include") this.#cookies.store(response.headers);
    return response;
  }

  /** DELETEs the connection `connectionId` (nothing when undefined); a refusal rejects. */
  async deleteConnection(connectionId: string | undefined): Promise<void> {
    if (connectionId === undefined) return;
    const response = await this.send({ method: "DELETE", headers: { [HEADER_CONNECTION_ID]: connectionId } });
    if (!response.ok) throw await httpError("ACP DELETE failed", response, this.#maxBytes);
    void response.body?.cancel().catch(() => {});
  }

  /** Forgets the cookies of a store the stream made itself (a caller's store keeps them, for its next stream). */
  clearOwnCookies(): void {
    if (this.#ownsCookies) this.#cookies.clear();
  }
}
