/**
 * `@agentclientprotocol/sdk/experimental/node`: an `AcpServer` on `node:http`
 * — the request handler, and the WebSocket upgrade handler over the
 * caller's `ws` server (so this package needs no `ws` of its own).
 *
 * @module
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { AcpServer, PreparedWebSocketUpgrade, WebSocketServerSocket } from "./server.ts";
import { HEADER_CONNECTION_ID } from "./serve/wire.ts";

export { createNodeHttpHandler, DEFAULT_MAX_REQUEST_BODY_BYTES, type NodeHttpHandlerOptions } from "./node-http.ts";

/** What the upgrade handler needs of a `ws` `WebSocketServer` (created with `noServer: true`). */
export interface NodeWebSocketUpgradeServer {
  on(event: "headers", listener: (headers: string[], request: IncomingMessage) => void): unknown;
  off(event: "headers", listener: (headers: string[], request: IncomingMessage) => void): unknown;
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, callback: (webSocket: WebSocketServerSocket) => void): void;
}

/**
 * The `upgrade` handler of a `node:http` server: each upgrade gets a connection prepared by
 * `server` (its agent made then), `Acp-Connection-Id` in the 101 answer, and the accepted socket.
 * An upgrade that fails before it is accepted (the socket closes or errors) gives the connection
 * up; one that cannot be prepared (the agent factory threw) destroys the socket with the error.
 */
export function createNodeWebSocketUpgradeHandler(server: AcpServer, webSocketServer: NodeWebSocketUpgradeServer): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    let upgrade: PreparedWebSocketUpgrade | undefined;
    let accepted = false;
    const onHeaders = (headers: string[], request: IncomingMessage) => {
      if (request === req && upgrade !== undefined) headers.push(`${HEADER_CONNECTION_ID}: ${upgrade.connectionId}`);
    };
    const onFailed = () => {
      if (accepted) return;
      stop();
      upgrade?.reject();
    };
    const stop = () => {
      webSocketServer.off("headers", onHeaders);
      socket.off("close", onFailed);
      socket.off("error", onFailed);
    };
    try {
      upgrade = server.prepareWebSocketUpgrade();
      webSocketServer.on("headers", onHeaders);
      socket.once("close", onFailed);
      socket.once("error", onFailed);
      webSocketServer.handleUpgrade(req, socket, head, (webSocket) => {
        accepted = true;
        stop();
        upgrade?.accept(webSocket);
      });
    } catch (error) {
      stop();
      upgrade?.reject();
      socket.destroy(error instanceof Error ? error : undefined);
    }
  };
}
