/**
 * A `fetch` over `node:http2` for the HTTP client transport: Node's own
 * `fetch` speaks HTTP/1.1 only, while the RFD asks for HTTP/2 (one TCP
 * connection multiplexing the event stream and every POST). Cleartext
 * (`http://`, prior knowledge, h2c) or TLS (`https://`, ALPN `h2`). One
 * session per origin, opened on first use; `close()` ends them.
 */
import { connect, constants, type ClientHttp2Session, type SecureClientSessionOptions } from "node:http2";
import { Readable } from "node:stream";

/** Options of {@link createH2Fetch}: TLS options for `https://` origins (for example `ca` for a private certificate). */
export type H2FetchOptions = SecureClientSessionOptions;

/** A fetch function over HTTP/2, with `close()` to end its sessions. */
export interface H2Fetch {
  /** Fetches `input` as the global `fetch` does, over this function's HTTP/2 sessions. */
  (input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /** Ends every HTTP/2 session this function opened. */
  close(): void;
}

/** Creates a fetch that sends every request over one HTTP/2 session per origin. */
export function createH2Fetch(options: H2FetchOptions = {}): H2Fetch {
  const sessions = new Map<string, ClientHttp2Session>();
  const session = (origin: string): ClientHttp2Session => {
    const existing = sessions.get(origin);
    if (existing && !existing.closed && !existing.destroyed) return existing;
    const created = connect(origin, options);
    created.on("error", () => sessions.delete(origin));
    created.on("close", () => sessions.delete(origin));
    sessions.set(origin, created);
    return created;
  };
  const h2fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
    const headers: Record<string, string> = { ":method": init.method ?? "GET", ":path": `${url.pathname}${url.search}` };
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body = init.body;
    const stream = session(url.origin).request(headers, { endStream: body === undefined || body === null });
    if (body !== undefined && body !== null) stream.end(typeof body === "string" ? body : Buffer.from(body as ArrayBuffer));
    const signal = init.signal;
    if (signal) {
      if (signal.aborted) stream.close(constants.NGHTTP2_CANCEL);
      else signal.addEventListener("abort", () => stream.close(constants.NGHTTP2_CANCEL), { once: true });
    }
    const head = await new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
      stream.once("response", resolve);
      stream.once("error", reject);
      stream.once("close", () => reject(new Error(`the HTTP/2 stream closed before its answer (code ${stream.rstCode})`)));
    });
    const answer = new Headers();
    for (const [name, value] of Object.entries(head)) {
      if (name.startsWith(":") || value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) answer.append(name, v);
    }
    const status = Number(head[":status"]);
    const empty = status === 204 || status === 304 || init.method === "HEAD";
    if (empty) stream.resume();
    stream.on("error", () => {});
    return new Response(empty ? null : (Readable.toWeb(stream) as ReadableStream<Uint8Array>), { status, headers: answer });
  }) as H2Fetch;
  h2fetch.close = () => {
    for (const s of sessions.values()) s.close();
    sessions.clear();
  };
  return h2fetch;
}
