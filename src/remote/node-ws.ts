/**
 * WebSocket on the ACP endpoint, on Node, with the `ws` package (an optional
 * peer dependency; the only module here that imports it). The upgrade is
 * checked (path, auth hook, connection limit), answered 101 with
 * `Acp-Connection-Id`, and the socket becomes an ordinary agent connection
 * whose backpressure pauses the socket (`ws.pause()`).
 * Also: `nodeWebSocket`, the `ws` client constructor for
 * `webSocketClientTransport` on Node 20 (no global WebSocket).
 */
import type { IncomingMessage, Server as HttpServer } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import { checkRemoteServer } from "../arguments.ts";
import { DEFAULT_PATH, HEADER_CONNECTION_ID } from "./protocol.ts";
import type { RemoteServer } from "./server.ts";
import type { EventSink } from "./sink.ts";
import type { WebSocketConstructor } from "./ws-client.ts";

/** The `ws` client constructor, for `webSocketClientTransport({ WebSocket: nodeWebSocket })`. */
export const nodeWebSocket = WebSocket as unknown as WebSocketConstructor;

/** Options of {@link attachWebSocket}. */
export interface AttachWebSocketOptions {
  /** Endpoint path. Default `/acp`. */
  readonly path?: string;
  /** Largest frame accepted. Default 32 MiB, the connection's default `maxMessageBytes`. */
  readonly maxPayload?: number;
  /** Ping interval; a socket that has not answered the previous ping is dropped. Default 15 s. */
  readonly pingMs?: number;
}

/** Accepts WebSocket upgrades for `remote` on `server`; returns a function that detaches and closes them. */
export function attachWebSocket(server: HttpServer, remote: RemoteServer, options: AttachWebSocketOptions = {}): () => void {
  checkRemoteServer("attachWebSocket(server, remote, options?)", "remote", remote);
  const path = options.path ?? DEFAULT_PATH;
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload ?? 32 * 1024 * 1024, perMessageDeflate: false });
  const ids = new WeakMap<IncomingMessage, { readonly connectionId: string; readonly setCookie: string | undefined }>();
  const alive = new Map<WebSocket, boolean>();
  wss.on("headers", (headers, req) => {
    const prepared = ids.get(req);
    if (prepared === undefined) return;
    headers.push(`${HEADER_CONNECTION_ID}: ${prepared.connectionId}`);
    if (prepared.setCookie !== undefined) headers.push(`Set-Cookie: ${prepared.setCookie}`);
  });
  const refuse = (socket: Duplex, status: number, text: string) => {
    socket.end(`HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
  };
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    if ((q === -1 ? url : url.slice(0, q)) !== path || req.headers.upgrade?.toLowerCase() !== "websocket") return refuse(socket, 404, "Not Found");
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(", ") : value;
    };
    void remote.authorize(header).then((ok) => {
      if (!ok) return refuse(socket, 401, "Unauthorized");
      const prepared = remote.prepareSocket();
      if ("refusal" in prepared) return refuse(socket, 503, "Service Unavailable");
      ids.set(req, prepared);
      wss.handleUpgrade(req, socket, head, (ws) => {
        alive.set(ws, true);
        ws.on("pong", () => alive.set(ws, true));
        const accepted = remote.acceptSocket(prepared.connectionId, socketSink(ws, socket), header, { pause: () => ws.pause(), resume: () => ws.resume() });
        ws.on("message", (data, isBinary) => {
          // RFD: binary frames are ignored.
          if (!isBinary) accepted.message(String(data));
        });
        ws.once("close", () => {
          alive.delete(ws);
          accepted.closed();
        });
        ws.on("error", () => ws.terminate());
      });
    });
  };
  server.on("upgrade", onUpgrade);
  const ping = setInterval(() => {
    for (const [ws, ok] of alive) {
      if (!ok) ws.terminate();
      else {
        alive.set(ws, false);
        ws.ping();
      }
    }
  }, options.pingMs ?? 15_000);
  ping.unref();
  return () => {
    clearInterval(ping);
    server.off("upgrade", onUpgrade);
    for (const ws of alive.keys()) ws.terminate();
    wss.close();
  };
}

/**
 * An event sink over a `ws` socket: one text frame per line; progress is each
 * frame handed to the socket. The frames of one event-loop turn (a turn's
 * `session/update`s and the answer after them) leave in one socket write: the
 * TCP socket is corked at the turn's first frame and uncorked after the turn
 * (`setImmediate`); each frame stays its own WebSocket message.
 */
function socketSink(ws: WebSocket, socket: Duplex): EventSink {
  let outstanding = 0;
  let since: number | undefined;
  let corked = false;
  const sent = () => {
    outstanding--;
    since = outstanding > 0 ? Date.now() : undefined;
  };
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  return {
    write(line) {
      if (ws.readyState !== WebSocket.OPEN) return;
      if (outstanding++ === 0) since = Date.now();
      if (!corked) {
        corked = true;
        socket.cork();
        setImmediate(uncork);
      }
      ws.send(line, sent);
    },
    end() {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(1000);
    },
    buffered: () => ws.bufferedAmount,
    blockedSince: () => since,
    onClose(callback) {
      if (ws.readyState === WebSocket.CLOSED) callback();
      else ws.once("close", callback);
    },
  };
}
