/**
 * A `fetch` over `node:http` / `node:https` for the HTTP client transport on
 * Node: the same Request/Response surface as the global `fetch`, sent
 * through one keep-alive `Agent` per fetch. Node's built-in `fetch` (undici)
 * costs about three times as much per small request as `node:http`
 * (measured: a bare DELETE ≈ 3 ms vs ≈ 1 ms), which bounds an HTTP/1.1
 * client's round trips. Covers what the transport uses: methods with a
 * string or byte body, headers (cookies included; `set-cookie` answers keep
 * one entry per cookie), streamed bodies (event streams) read with
 * backpressure, and `AbortSignal`. No redirects, no decompression, no cache.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest, type AgentOptions as HttpsAgentOptions } from "node:https";

/** Options of {@link createHttp1Fetch}: agent options for both schemes, and TLS options (such as `ca`) for `https://`. */
export type Http1FetchOptions = HttpsAgentOptions;

/** A fetch function over HTTP/1.1, with `close()` to end its kept-alive sockets. */
export interface Http1Fetch {
  /** Fetches `input` as the global `fetch` does, over this function's kept-alive sockets. */
  (input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /** Destroys every kept-alive socket this function holds. */
  close(): void;
}

/** Bytes a response body holds before its socket stops being read: 64 KiB, the stream default. */
const BODY_HIGH_WATER = 64 * 1024;

/**
 * Creates a fetch over `node:http` and `node:https`. Sockets are kept alive
 * (`keepAlive: true`, default) and Nagle is off (`noDelay: true`, default):
 * ACP messages are small and latency-bound. No socket limit per origin, as
 * Node's default: an event stream holds its socket for its whole life.
 */
export function createHttp1Fetch(options: Http1FetchOptions = {}): Http1Fetch {
  const agentOptions = { keepAlive: true, noDelay: true, ...options };
  const http = new HttpAgent(agentOptions);
  const https = new HttpsAgent(agentOptions);
  const h1fetch = ((input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === "string" || input instanceof URL ? new URL(input) : new URL(input.url);
    const headers: OutgoingHttpHeaders = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body = bodyBytes(init.body);
    if (body !== undefined) headers["content-length"] = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
    const secure = url.protocol === "https:";
    if (!secure && url.protocol !== "http:") return Promise.reject(new TypeError(`createHttp1Fetch: unsupported scheme ${url.protocol}`));
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<Response>((resolve, reject) => {
      const send = secure ? httpsRequest : httpRequest;
      const req = send(url, { method: init.method ?? "GET", headers, agent: secure ? https : http });
      let settled = false;
      let fail: (error: Error) => void = (error) => {
        settled = true;
        reject(error);
      };
      const onAbort = () => {
        const error = abortError(signal as AbortSignal);
        fail(error);
        req.destroy(error);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      req.once("error", (error) => {
        if (!settled) fail(error);
      });
      req.once("close", () => signal?.removeEventListener("abort", onAbort));
      req.once("response", (res) => {
        settled = true;
        const { response, error } = toResponse(res, init.method === "HEAD");
        fail = error;
        resolve(response);
      });
      req.end(body);
    });
  }) as Http1Fetch;
  h1fetch.close = () => {
    http.destroy();
    https.destroy();
  };
  return h1fetch;
}

/** A string or bytes for `req.end`; streams and forms are not supported (the transport sends strings). */
function bodyBytes(body: BodyInit | null | undefined): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError("createHttp1Fetch: only string and byte bodies are supported");
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException("This operation was aborted", "AbortError");
}

/**
 * Wraps a Node response: headers copied (one `set-cookie` entry per cookie),
 * the body as a byte stream that pauses the socket while its queue is full
 * and resumes when the reader pulls, so a reader that stops reading stops
 * the socket too. `error` fails the body (an abort after the head arrived).
 */
function toResponse(res: IncomingMessage, head: boolean): { response: Response; error: (error: Error) => void } {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  const status = res.statusCode ?? 0;
  const init = { status, statusText: res.statusMessage ?? "", headers };
  if (head || status === 204 || status === 304 || res.headers["content-length"] === "0") {
    res.resume();
    return { response: new Response(null, init), error: () => {} };
  }
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let done = false;
  const finish = (error?: Error) => {
    if (done) return;
    done = true;
    if (error) controller.error(error);
    else controller.close();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        res.on("data", (chunk: Buffer) => {
          if (done) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) res.pause();
        });
        res.once("end", () => finish());
        res.once("error", (error) => finish(error));
        // A socket closed before the end of the body (the server or the network dropped it).
        res.once("close", () => finish(res.complete ? undefined : new Error("terminated: the connection closed before the end of the body")));
      },
      pull() {
        res.resume();
      },
      cancel() {
        done = true;
        res.destroy();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: BODY_HIGH_WATER }),
  );
  return {
    response: new Response(body, init),
    error: (error) => {
      finish(error);
      res.destroy();
    },
  };
}
