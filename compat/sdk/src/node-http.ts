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
      watchRefused(req, true);
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

/**
 * Keeps a refused request's late `error` from being unhandled, until it ends or closes (its
 * listener leaves then); `drain` also reads the rest of it away.
 */
function watchRefused(req: IncomingMessage, drain: boolean): void {
  if (req.destroyed || req.readableEnded) return;
  const stop = () => {
    req.off("error", stop);
    req.off("end", stop);
    req.off("close", stop);
    req.off("aborted", stop);
  };
  req.once("error", stop);
  req.once("end", stop);
  req.once("close", stop);
  req.once("aborted", stop);
  if (drain) req.resume();
}

/** The body of `req` as bytes, refusing more than `limit` (by `Content-Length` at once, else as it arrives: reading pauses there). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer<ArrayBuffer>> {
  const header = req.headers["content-length"];
  const declared = (Array.isArray(header) ? header[0] : header)?.trim();
  if (declared !== undefined && /^\d+$/.test(declared) && (Number.isSafeInteger(Number(declared)) ? Number(declared) : Infinity) > limit) {
    watchRefused(req, false);
    return Promise.reject(new BodyTooLargeError(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const stop = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onAborted);
      req.off("close", onClosed);
    };
    const fail = (error: Error, stopNow = true) => {
      if (stopNow) stop();
      if (settled) return;
      settled = true;
      reject(error);
    };
    const onData = (chunk: Buffer | string) => {
      if (settled) return;
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += bytes.byteLength;
      if (size > limit) {
        req.pause();
        return fail(new BodyTooLargeError(limit), false);
      }
      chunks.push(bytes);
    };
    const onEnd = () => {
      stop();
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error) => fail(error);
    const onAborted = () => fail(new Error("Request aborted"));
    const onClosed = () => fail(new Error("Request closed"));
    req.once("end", onEnd);
    req.once("error", onError);
    req.once("aborted", onAborted);
    req.once("close", onClosed);
    req.on("data", onData);
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

/** The Node response closed before the body was written. */
class ResponseClosedError extends Error {
  constructor() {
    super("Node HTTP response closed");
  }
}

/** Whether `res` can take no more writes. */
const isDone = (res: ServerResponse): boolean => res.destroyed || res.writableEnded;

/**
 * Writes `response` to `res`: status, headers (each `Set-Cookie` apart), then the body as it
 * comes, waiting for the socket to drain. The body is cancelled when the response closes or fails;
 * a body that fails while a write waits for the socket fails that write (the caller then destroys
 * the response rather than end it as if complete).
 */
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
  const bodyFailed = new AbortController();
  reader.closed.catch((error: unknown) => bodyFailed.abort(error));
  let cancelled: Promise<void> | undefined;
  let complete = false;
  const cancel = () => void (cancelled ??= reader.cancel(new ResponseClosedError()).catch(() => undefined));
  res.once("close", cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        complete = true;
        if (!isDone(res)) res.end();
        return;
      }
      await writeChunk(res, value, bodyFailed.signal);
    }
  } catch (error) {
    if (!(error instanceof ResponseClosedError)) throw error;
  } finally {
    res.off("close", cancel);
    // However the response ended (a socket error need not close it first), the body stops.
    if (!complete) cancel();
    await cancelled;
    reader.releaseLock();
  }
}

/** Writes one chunk, resolving once the socket took it (at once, or on `drain`); rejects when the response closes or fails, or the body fails, first. */
function writeChunk(res: ServerResponse, chunk: Uint8Array, bodyFailed: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (isDone(res)) return reject(new ResponseClosedError());
    if (bodyFailed.aborted) return reject(bodyFailed.reason as Error);
    const settle = (then: () => void) => {
      res.off("close", onClose);
      res.off("drain", onDrain);
      res.off("error", onError);
      bodyFailed.removeEventListener("abort", onBodyFailed);
      then();
    };
    const onClose = () => settle(() => reject(new ResponseClosedError()));
    const onDrain = () => settle(resolve);
    const onError = (error: Error) => settle(() => reject(error));
    const onBodyFailed = () => settle(() => reject(bodyFailed.reason as Error));
    res.once("close", onClose);
    res.once("error", onError);
    bodyFailed.addEventListener("abort", onBodyFailed, { once: true });
    if (res.write(chunk)) settle(resolve);
    else res.once("drain", onDrain);
  });
}
