/**
 * The SDK's `createNodeHttpHandler(server, { maxRequestBodyBytes? })`: a `node:http` request handler
 * that turns each request into a Fetch `Request` and answers it with `server.handleRequest`, on
 * whatever path the handler is mounted (the caller routes). The body is read up to
 * `maxRequestBodyBytes` (default 16 MiB; more is answered 413); the request's signal aborts when
 * the Node response closes before it finished; the answer's body is streamed with the socket's
 * backpressure, and cancelled when the response closes. A handler failure is answered 500, or ends
 * the socket when the answer had started.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AcpServer } from "./server.ts";

/** Default of `maxRequestBodyBytes`: 16 MiB, the SDK's. */
export const DEFAULT_MAX_REQUEST_BODY_BYTES = 16 * 1024 * 1024;

/** Options of {@link createNodeHttpHandler}. */
export interface NodeHttpHandlerOptions {
  /** Largest request body read, in bytes; a longer one is answered 413. Default {@link DEFAULT_MAX_REQUEST_BODY_BYTES}. */
  readonly maxRequestBodyBytes?: number;
}

/** A body over the limit. */
class BodyTooLargeError extends Error {
  constructor(limit: number) {
    super(`Request body exceeds ${limit} bytes`);
  }
}

/** The `node:http` request handler of `server`, on the path it is mounted at. */
export function createNodeHttpHandler(server: AcpServer, options: NodeHttpHandlerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const limit = options.maxRequestBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_BYTES;
  if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError("maxRequestBodyBytes must be a non-negative safe integer");
  return (req, res) => void serve(server, req, res, limit);
}

async function serve(server: AcpServer, req: IncomingMessage, res: ServerResponse, limit: number): Promise<void> {
  const aborter = new AbortController();
  let finished = false;
  const onFinish = () => (finished = true);
  const onClose = () => {
    if (!finished) aborter.abort(new Error("Node HTTP response closed"));
  };
  res.once("finish", onFinish);
  res.once("close", onClose);
  try {
    const init: RequestInit = { method: req.method ?? "GET", headers: headersOf(req), signal: aborter.signal };
    if (req.method !== "GET" && req.method !== "HEAD") init.body = await readBody(req, limit);
    const request = new Request(`http://${hostOf(req)}${req.url ?? "/"}`, init);
    await writeResponse(res, await server.handleRequest(request));
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      plainText(res, 413, error.message);
      req.resume();
    } else if (res.headersSent) res.destroy();
    else plainText(res, 500, error instanceof Error ? error.message : "Internal Server Error");
  } finally {
    res.off("finish", onFinish);
    res.off("close", onClose);
  }
}

function plainText(res: ServerResponse, status: number, text: string): void {
  if (!res.headersSent) {
    res.statusCode = status;
    res.setHeader("Content-Type", "text/plain");
  }
  res.end(text);
}

/** The body of `req` as bytes, refusing more than `limit` (by `Content-Length` at once, else as it arrives). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer<ArrayBuffer>> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += bytes.byteLength;
      if (size > limit) {
        req.off("data", onData);
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(bytes);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
  });
}

/** The request's `Host`, or `localhost` when it is missing or not a plain host[:port]. */
function hostOf(req: IncomingMessage): string {
  const raw = req.headers.host;
  const host = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (host === undefined || host === "" || /[\s/?#@\\\u0000-\u001f\u007f]/.test(host)) return "localhost";
  try {
    const url = new URL(`http://${host}`);
    return url.username === "" && url.password === "" && url.pathname === "/" && url.search === "" && url.hash === "" ? host : "localhost";
  } catch {
    return "localhost";
  }
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** Writes `response` to `res`: status, headers (each `Set-Cookie` apart), then the body as it comes, waiting for the socket to drain. */
async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  const cookies = response.headers.getSetCookie();
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value);
  });
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  res.flushHeaders();
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  let closed = false;
  const onClose = () => {
    closed = true;
    void reader.cancel(new Error("Node HTTP response closed")).catch(() => {});
  };
  res.once("close", onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || closed) break;
      if (!res.write(value)) await drained(res);
    }
    if (!closed && !res.writableEnded) res.end();
  } finally {
    res.off("close", onClose);
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done);
    res.once("close", done);
  });
}
