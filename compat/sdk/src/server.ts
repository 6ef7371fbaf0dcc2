/**
 * `@agentclientprotocol/sdk/experimental/server`: `AcpServer`, an agent app
 * served over Streamable HTTP and WebSocket, on acp-router's remote server
 * (`createRemoteServer`): each remote connection gets the app's handlers, and
 * the app's connect handlers run before that connection's first message.
 *
 * @module
 */
import { createRemoteServer, type RemoteServer } from "../../../src/remote/server.ts";
import type { AgentApp } from "./sides.ts";

/** A WebSocket as the SDK's prepared upgrades take it: `ws`'s server socket or a Web `WebSocket`. */
export interface WebSocketServerSocket {
  readonly readyState?: number;
  readonly bufferedAmount?: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener?(type: string, listener: (event: unknown) => void): void;
  removeEventListener?(type: string, listener: (event: unknown) => void): void;
  on?(type: string, listener: (...args: unknown[]) => void): unknown;
  off?(type: string, listener: (...args: unknown[]) => void): unknown;
  removeListener?(type: string, listener: (...args: unknown[]) => void): unknown;
}

/** The agent for one prepared upgrade (default the server's). */
export type PrepareWebSocketUpgradeOptions = { readonly agent?: AgentApp; readonly createAgent?: never } | { readonly agent?: never; readonly createAgent?: () => AgentApp };

/** A WebSocket upgrade the server agreed to: send `connectionId` as `Acp-Connection-Id` in the 101 answer, then `accept` the socket (or `reject`). */
export interface PreparedWebSocketUpgrade {
  readonly connectionId: string;
  accept(socket: WebSocketServerSocket): void;
  reject(): void;
}

const OPEN = 1;

/** Listens to `type` on a `ws` socket (`on`) or a Web one (`addEventListener`). */
function listen(socket: WebSocketServerSocket, type: "message" | "close" | "error", listener: (...args: unknown[]) => void): void {
  if (typeof socket.on === "function") socket.on(type, listener);
  else socket.addEventListener?.(type, (event) => listener(event));
}

/** A message event's text: `ws` hands `(data, isBinary)`, a Web socket a `MessageEvent`; binary frames are not ACP. */
function textOf(args: unknown[]): string | undefined {
  const [first, isBinary] = args;
  if (isBinary === true) return undefined;
  const data = typeof first === "object" && first !== null && "data" in first ? (first as { data: unknown }).data : first;
  if (typeof data === "string") return data;
  if (data instanceof Uint8Array) return Buffer.from(data).toString("utf8");
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString("utf8");
  return undefined;
}

/** The agent to serve: one app for every connection, or a factory called per connection. */
export type AcpServerOptions = { readonly agent: AgentApp; readonly createAgent?: never } | { readonly agent?: never; readonly createAgent: () => AgentApp };

const remotes = new WeakMap<AcpServer, RemoteServer>();

/** The remote server behind an `AcpServer` (for the Node adapters). @internal */
export function remoteOf(server: AcpServer): RemoteServer {
  const remote = remotes.get(server);
  if (remote === undefined) throw new TypeError("expected an AcpServer");
  return remote;
}

/** Serves an agent app to remote clients; hand it requests with `handleRequest` or the Node adapters. */
export class AcpServer {
  /** Prepared upgrades that named their own agent, by connection id. */
  readonly #chosen = new Map<string, () => AgentApp>();
  constructor(options: AcpServerOptions) {
    // The protocol comes from the first app; a factory's first app then serves the first connection.
    let spare: AgentApp | undefined = options.agent ?? (options.createAgent as () => AgentApp)();
    const protocol = spare.protocol;
    const next = (): AgentApp => {
      const app = options.agent ?? spare ?? (options.createAgent as () => AgentApp)();
      spare = undefined;
      return app;
    };
    const pending = new Map<string, ReturnType<AgentApp["routed"]>>();
    const remote = createRemoteServer({
      protocol,
      agent: (info) => {
        const chosen = this.#chosen.get(info.connectionId);
        this.#chosen.delete(info.connectionId);
        const routed = (chosen?.() ?? next()).routed();
        pending.set(info.connectionId, routed);
        return routed.handler as never;
      },
      onConnection: (connection, info) => {
        pending.get(info.connectionId)?.bind(connection);
        pending.delete(info.connectionId);
      },
    });
    remotes.set(this, remote);
  }
  /** Answers one Fetch API request to the ACP endpoint (POST, GET, DELETE). */
  handleRequest(request: Request): Promise<Response> {
    return remoteOf(this).handleRequest(request);
  }
  /**
   * Reserves a connection id for a WebSocket upgrade (send it as
   * `Acp-Connection-Id` in the 101 answer), then `accept(socket)` serves the
   * upgraded socket, or `reject()` gives the reservation up. Throws when the
   * server takes no new connection (closing, or at its limit).
   */
  prepareWebSocketUpgrade(options: PrepareWebSocketUpgradeOptions = {}): PreparedWebSocketUpgrade {
    const remote = remoteOf(this);
    const ids = remote.prepareSocket();
    if ("refusal" in ids) throw new Error(`WebSocket upgrade refused: ${ids.refusal}`);
    const { connectionId } = ids;
    const agent = options.agent;
    const create = options.createAgent;
    const chosen = agent !== undefined ? () => agent : create;
    let settled = false;
    return {
      connectionId,
      accept: (socket) => {
        if (settled) throw new Error("this prepared WebSocket upgrade was already accepted or rejected");
        settled = true;
        if (chosen !== undefined) this.#chosen.set(connectionId, chosen);
        const closers: (() => void)[] = [];
        const sink = {
          write: (line: string) => {
            if ((socket.readyState ?? OPEN) === OPEN) socket.send(line);
          },
          end: () => socket.close(1000),
          buffered: () => socket.bufferedAmount ?? 0,
          blockedSince: () => undefined,
          onClose: (callback: () => void) => void closers.push(callback),
        };
        const accepted = remote.acceptSocket(connectionId, sink, () => undefined);
        this.#chosen.delete(connectionId);
        let closed = false;
        const close = () => {
          if (closed) return;
          closed = true;
          for (const run of closers) run();
          accepted.closed();
        };
        listen(socket, "message", (...args) => {
          const text = textOf(args);
          if (text !== undefined) accepted.message(text);
        });
        listen(socket, "close", close);
        listen(socket, "error", close);
      },
      reject: () => {
        settled = true;
      },
    };
  }
  /** Closes every connection and stops accepting new ones. */
  close(): Promise<void> {
    return remoteOf(this).close();
  }
}
