/**
 * Serves a remote ACP server on Node: `node:http` (HTTP/1.1), `node:http2`
 * cleartext (h2c, prior knowledge) and `node:http2` over TLS with ALPN
 * (HTTP/2, HTTP/1.1 allowed). WebSocket upgrades on the same endpoint come
 * from `./node-ws.ts`, loaded only when the optional `ws` package is there.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import { createSecureServer, createServer as createH2Server, type Http2SecureServer, type Http2Server, type Http2ServerRequest, type Http2ServerResponse } from "node:http2";
import type { AddressInfo, Socket } from "node:net";
import { createCoalescer } from "../transport/transport.ts";
import { checkOptions, checkRemoteServer } from "../arguments.ts";
import { DEFAULT_PATH } from "./protocol.ts";
import { BodyTooLargeError, type RemoteRequest, type RemoteResponse } from "./request.ts";
import type { RemoteServer } from "./server.ts";
import type { EventSink } from "./sink.ts";

/** A request as `node:http` or `node:http2` hands it to a handler. */
export type NodeRequest = IncomingMessage | Http2ServerRequest;
/** The response `node:http` or `node:http2` hands to a handler with the request. */
export type NodeResponse = ServerResponse | Http2ServerResponse;
/** Any of the Node servers `listen` creates. */
export type NodeServer = HttpServer | Http2Server | Http2SecureServer;

/** Returns a `(req, res)` listener that serves `server` at `path` (default `/acp`); other paths answer 404. */
export function nodeHandler(server: RemoteServer, path = DEFAULT_PATH): (req: NodeRequest, res: NodeResponse) => void {
  checkRemoteServer("nodeHandler(server, path?)", "server", server);
  return (req, res) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    if ((q === -1 ? url : url.slice(0, q)) !== path) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
      return;
    }
    void server.handle(fromNode(req, res)).then((answer) => answerNode(res, answer));
  };
}

function fromNode(req: NodeRequest, res: NodeResponse): RemoteRequest {
  const headers = req.headers;
  return {
    method: req.method ?? "GET",
    header(name) {
      const value = headers[name];
      return Array.isArray(value) ? value.join(", ") : value;
    },
    text: (limit) => readBody(req, limit),
    onAbort(callback) {
      res.once("close", () => {
        if (!res.writableFinished) callback();
      });
    },
  };
}

function readBody(req: NodeRequest, limit: number): Promise<string> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(new BodyTooLargeError(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners("data");
        req.resume();
        reject(new BodyTooLargeError(limit));
      } else chunks.push(chunk);
    });
    req.once("end", () => resolve(chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks).toString("utf8")));
    req.once("error", reject);
  });
}

function answerNode(res: NodeResponse, answer: RemoteResponse): void {
  if (res.writableEnded || res.destroyed) return;
  const open = answer.open;
  if (open === undefined) {
    (res as ServerResponse).writeHead(answer.status, answer.headers).end(answer.body);
    return;
  }
  (res as ServerResponse).writeHead(answer.status, answer.headers);
  (res as ServerResponse).flushHeaders();
  open(nodeSink(res as ServerResponse));
}

/**
 * An event sink over a Node response: the writes of one event-loop turn leave
 * as one chunk (a turn's `session/update`s and the answer after them: one
 * write, not one per message); `drain` marks progress.
 */
function nodeSink(res: ServerResponse): EventSink {
  let since: number | undefined;
  let waiting = false;
  const onDrain = () => {
    waiting = false;
    since = undefined;
  };
  const out = createCoalescer((text) => {
    if (res.writableEnded || res.destroyed) return;
    if (!res.write(text) && !waiting) {
      waiting = true;
      since ??= Date.now();
      res.once("drain", onDrain);
    }
  }, setImmediate);
  return {
    write: (text) => out.write(text),
    end() {
      out.flushNow();
      if (!res.writableEnded) res.end();
    },
    buffered: () => res.writableLength,
    blockedSince: () => since,
    onClose(callback) {
      if (res.destroyed || res.writableFinished) callback();
      else res.once("close", callback);
    },
  };
}

/** Options of {@link listen}. */
export interface ListenOptions {
  /** Interface to bind. Default `127.0.0.1`: nothing is exposed unless asked. */
  readonly host?: string;
  /** Port; 0 (default) picks a free one. */
  readonly port?: number;
  /** Endpoint path. Default `/acp` (RFD). */
  readonly path?: string;
  /** `http1` (default: HTTP/1.1 and WebSocket), `h2c` (HTTP/2 cleartext, prior knowledge), or `tls` (HTTP/2 with ALPN, HTTP/1.1 and WebSocket allowed). */
  readonly protocol?: "http1" | "h2c" | "tls";
  /** Certificate and key (PEM) for `tls`. */
  readonly tls?: { readonly cert: string | Buffer; readonly key: string | Buffer };
  /** WebSocket upgrades on the endpoint: `auto` (default) when the optional `ws` package can be loaded, or `off`. */
  readonly webSocket?: "auto" | "off";
  /** Slow-loris bound: a client must finish sending its request headers within this time (HTTP/1.1). Default 10 s. */
  readonly headersTimeoutMs?: number;
  /** HTTP/2: a session with no open stream and no frame for this long is closed. Default 120 s. */
  readonly h2IdleMs?: number;
}

/** A listening Node server. */
export interface Listening {
  /** `http://host:port/acp` (or `https://`). */
  readonly url: string;
  readonly port: number;
  readonly server: NodeServer;
  /** Stops accepting sockets, drains the remote server (see `RemoteServer.close`), then closes every socket. */
  close(options?: { readonly graceMs?: number }): Promise<void>;
}

/** Creates a Node server for `remote`, listens, and resolves once it is bound. */
export async function listen(remote: RemoteServer, options: ListenOptions = {}): Promise<Listening> {
  checkRemoteServer("listen(remote, options?)", "remote", remote);
  checkOptions("listen(remote, options?)", "options", options);
  const path = options.path ?? DEFAULT_PATH;
  const handler = nodeHandler(remote, path) as (req: IncomingMessage, res: ServerResponse) => void;
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const protocol = options.protocol ?? "http1";
  let server: NodeServer;
  if (protocol === "h2c") server = createH2Server({}, handler as never);
  else if (protocol === "tls") {
    if (!options.tls) throw new Error("listen: protocol tls needs options.tls (cert and key)");
    server = createSecureServer({ ...options.tls, allowHTTP1: true }, handler as never);
  } else {
    server = createHttpServer({ headersTimeout, requestTimeout: Math.max(headersTimeout, 30_000), connectionsCheckingInterval: Math.min(1000, headersTimeout / 2), noDelay: true }, handler);
  }
  if (protocol !== "http1") (server as Http2Server).setTimeout(options.h2IdleMs ?? 120_000);
  // Every socket, so that close() can end keep-alive and HTTP/2 sessions too.
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  let detachWs: (() => void) | undefined;
  if (protocol !== "h2c" && options.webSocket !== "off") {
    const ws = await import("./node-ws.ts").catch(() => undefined);
    detachWs = ws?.attachWebSocket(server as HttpServer, remote, { path });
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `${protocol === "tls" ? "https" : "http"}://${host}:${address.port}${path}`;
  return {
    url,
    port: address.port,
    server,
    async close(closeOptions) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await remote.close(closeOptions);
      detachWs?.();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
export * from "./index.ts";
export { createH2Fetch, type H2Fetch, type H2FetchOptions } from "./node-h2.ts";
export { createHttp1Fetch, type Http1Fetch, type Http1FetchOptions } from "./node-h1.ts";
