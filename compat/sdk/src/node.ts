/**
 * `@agentclientprotocol/sdk/experimental/node`: an `AcpServer` on `node:http`
 * — the request handler, and the WebSocket upgrade handler over the
 * caller's `ws` server (so this package needs no `ws` of its own).
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { HEADER_CONNECTION_ID } from "../../../src/remote/protocol.ts";
import { remoteOf, type AcpServer } from "./server.ts";

export { createNodeHttpHandler, DEFAULT_MAX_REQUEST_BODY_BYTES, type NodeHttpHandlerOptions } from "./node-http.ts";

/** What the upgrade handler needs of a `ws` `WebSocketServer` (created with `noServer: true`). */
export interface NodeWebSocketUpgradeServer {
  on(event: "headers", listener: (headers: string[], request: IncomingMessage) => void): void;
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, callback: (webSocket: NodeWebSocket) => void): void;
}

/** What the upgrade handler needs of an accepted `ws` socket. */
export interface NodeWebSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number): void;
  on(event: "message", listener: (data: unknown, isBinary: boolean) => void): void;
  once(event: "close", listener: () => void): void;
  pause?(): void;
  resume?(): void;
}

const OPEN = 1;

/** The `upgrade` handler of a `node:http` server: WebSocket connections to `server` through `webSocketServer`. */
export function createNodeWebSocketUpgradeHandler(server: AcpServer, webSocketServer: NodeWebSocketUpgradeServer): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  // The remote server is made on the first upgrade (an AcpServer calls its agent factory per connection).
  const remote = () => remoteOf(server);
  const prepared = new WeakMap<IncomingMessage, { readonly connectionId: string; readonly setCookie: string | undefined }>();
  webSocketServer.on("headers", (headers, req) => {
    const ids = prepared.get(req);
    if (ids === undefined) return;
    headers.push(`${HEADER_CONNECTION_ID}: ${ids.connectionId}`);
    if (ids.setCookie !== undefined) headers.push(`Set-Cookie: ${ids.setCookie}`);
  });
  const refuse = (socket: Duplex, status: number, text: string) => socket.end(`HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
  return (req, socket, head) => {
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(", ") : value;
    };
    // A failure to make the agent (the factory threw) destroys the upgrade socket, as the SDK's handler does.
    void Promise.resolve()
      .then(() => remote().authorize(header))
      .then((ok) => {
        if (!ok) return refuse(socket, 401, "Unauthorized");
        const ids = remote().prepareSocket();
        if ("refusal" in ids) return refuse(socket, 503, "Service Unavailable");
        prepared.set(req, ids);
        webSocketServer.handleUpgrade(req, socket, head, (ws) => {
          const closers: (() => void)[] = [];
          const sink = {
            write: (line: string) => {
              if (ws.readyState === OPEN) ws.send(line);
            },
            end: () => ws.close(1000),
            buffered: () => 0,
            blockedSince: () => undefined,
            onClose: (callback: () => void) => void closers.push(callback),
          };
          const flow = { pause: () => ws.pause?.(), resume: () => ws.resume?.() };
          const accepted = remote().acceptSocket(ids.connectionId, sink, header, flow);
          ws.on("message", (data, isBinary) => {
            if (!isBinary) accepted.message(String(data));
          });
          ws.once("close", () => {
            for (const close of closers) close();
            accepted.closed();
          });
        });
      })
      .catch((error: unknown) => socket.destroy(error instanceof Error ? error : undefined));
  };
}
