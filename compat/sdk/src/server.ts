/**
 * `@agentclientprotocol/sdk/experimental/server`: `AcpServer`, an agent served to remote clients
 * over Streamable HTTP (`handleRequest`, for any Fetch-style server, on whatever path it is
 * mounted) and WebSocket (`prepareWebSocketUpgrade`), behaving as SDK 2.4.0's server does: the
 * same statuses, SSE streams, session routing, limits and close codes (./serve/). The agent is
 * anything with the SDK's `connect(stream, options)`: an `agent()` app (whose handlers run on
 * acp-router's connection core), a protocol router, or a connector of the program's own.
 *
 * acp-router's own remote server (`acp-router/remote`) follows the remote-transport RFD where the
 * SDK's does not; this one follows the SDK, for programs written against it.
 *
 * @module
 */
import type { AgentConnector } from "./by-method.ts";
import type { ConnectionState, ServedAgent } from "./serve/connection-state.ts";
import { answerHttp } from "./serve/http-requests.ts";
import type { ConnectionLimits } from "./serve/limits.ts";
import { ConnectionRegistry } from "./serve/registry.ts";
import type { ServerWebSocket } from "./serve/websocket-events.ts";
import { WebSocketSession } from "./serve/websocket-session.ts";

export { DEFAULT_MAX_BUFFERED_BYTES, DEFAULT_MAX_BUFFERED_SESSION_STREAMS, DEFAULT_MAX_ID_LENGTH, DEFAULT_MAX_OUTPUT_STALL_MS, type ConnectionLimits } from "./serve/limits.ts";

/** A WebSocket as prepared upgrades take it: `ws`'s server socket or a Web `WebSocket`. */
export type WebSocketServerSocket = ServerWebSocket;

/** Makes the agent of one connection. */
export type AgentFactory = () => AgentConnector;

/** The server's agent: one for every connection, or a factory called per connection. */
type AgentOption = { readonly agent: AgentConnector; readonly createAgent?: never } | { readonly agent?: never; readonly createAgent: AgentFactory };

/** The agent of one request's or upgrade's connection (default the server's). */
type OptionalAgentOption = { readonly agent?: AgentConnector; readonly createAgent?: never } | { readonly agent?: never; readonly createAgent?: AgentFactory };

/** Options of {@link AcpServer}: the agent, and the connection limits. */
export type AcpServerOptions = AgentOption & ConnectionLimits;
/** Options of {@link AcpServer.handleRequest}: the agent of the connection an `initialize` opens. */
export type HandleRequestOptions = OptionalAgentOption;
/** Options of {@link AcpServer.prepareWebSocketUpgrade}: the agent of the upgraded connection. */
export type PrepareWebSocketUpgradeOptions = OptionalAgentOption;

/** A WebSocket upgrade the server agreed to: send `connectionId` as `Acp-Connection-Id` in the 101 answer, then `accept` the socket (or `reject`). */
export interface PreparedWebSocketUpgrade {
  readonly connectionId: string;
  accept(socket: WebSocketServerSocket): void;
  reject(): void;
}

/** What a program may read of the server's connections (see {@link AcpServer.registry}). */
export interface ConnectionRegistryView {
  /** The open connection `connectionId`, unless it is closing. */
  get(connectionId: string): Readonly<ConnectionState> | undefined;
  /** Closes every connection; `AcpServer.close()` waits for it. */
  closeAll(): Promise<void>;
}

/** The one agent source of a set of options, checked as the SDK checks it; undefined when there is none and `required` is false. */
function agentOf(options: object, required: boolean): ServedAgent | undefined {
  if ("createLegacyAgent" in options) throw new Error("createLegacyAgent has been removed. Use agent or createAgent with an app.");
  const { agent, createAgent } = options as { agent?: AgentConnector; createAgent?: AgentFactory };
  if (!required && !agent && !createAgent) return undefined;
  if ((agent ? 1 : 0) + (createAgent ? 1 : 0) !== 1) throw new Error("AcpServer requires exactly one of agent or createAgent");
  if (agent) return agent as ServedAgent;
  const factory = createAgent as AgentFactory;
  return { connect: (stream, connectOptions) => (factory() as ServedAgent).connect(stream, connectOptions ?? {}) };
}

/**
 * Serves an agent to remote clients: hand it requests with `handleRequest` (or
 * `createNodeHttpHandler`) and WebSocket upgrades with `prepareWebSocketUpgrade` (or
 * `createNodeWebSocketUpgradeHandler`). A `createAgent` factory is called once per connection.
 */
export class AcpServer {
  /**
   * A read-only view of the connection registry, as SDK 2.4.0 exposes it: `registry.get(id)` is
   * the open connection `id` (its `isClosed`, `closed`, `hasOutboundBacklog`, `sessionStreams`,
   * `pendingRoutes`, … for a program to read, not to change), and `close()` waits for
   * `registry.closeAll()`.
   */
  readonly registry: ConnectionRegistryView;
  readonly #registry: ConnectionRegistry;
  readonly #agent: ServedAgent;
  readonly #sessions = new Set<WebSocketSession>();
  #closed = false;

  /** Throws when the options name no agent or two, and a `RangeError` for a limit that is not a positive safe integer. */
  constructor(options: AcpServerOptions) {
    this.#agent = agentOf(options, true) as ServedAgent;
    this.#registry = new ConnectionRegistry(options);
    this.registry = this.#registry;
  }

  /** Answers one Streamable HTTP request (POST, GET, DELETE); `options` picks the agent of the connection an `initialize` opens. */
  handleRequest(request: Request, options: HandleRequestOptions = {}): Promise<Response> {
    return answerHttp(this.#registry, request, () => agentOf(options, false) ?? this.#agent);
  }

  /**
   * Makes the connection of a WebSocket upgrade before the upgrade is answered (send its id as
   * `Acp-Connection-Id` in the 101). Throws once `close()` was called: a closed server takes no
   * new sockets (SDK 2.4.0 still prepares one; docs/sdk-drop-in.md).
   */
  prepareWebSocketUpgrade(options: PrepareWebSocketUpgradeOptions = {}): PreparedWebSocketUpgrade {
    if (this.#closed) throw new Error("WebSocket upgrade refused: the server is closed");
    const agent = agentOf(options, false) ?? this.#agent;
    const connection = this.#registry.createPendingConnection(agent);
    let settled = false;
    return {
      connectionId: connection.connectionId,
      accept: (socket) => {
        if (settled) throw new Error("ACP WebSocket upgrade has already been settled");
        settled = true;
        const session = new WebSocketSession(socket, this.#registry, agent, connection);
        this.#sessions.add(session);
        void session.closed.finally(() => this.#sessions.delete(session));
      },
      reject: () => {
        if (settled) return;
        settled = true;
        this.#registry.discard(connection.connectionId);
      },
    };
  }

  /** Closes every connection (WebSockets with 1001 "Server shutting down"); resolves once they are closed. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([this.registry.closeAll(), Promise.all([...this.#sessions].map((session) => session.close()))]);
  }
}
