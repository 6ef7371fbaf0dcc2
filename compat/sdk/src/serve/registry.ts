/**
 * The connections of one `AcpServer`, by id: open ones, and WebSocket connections prepared for an
 * upgrade but not initialized yet. A connection leaves when it closes.
 *
 * `AcpServer.registry` is this object, as SDK 2.4.0 exposes its own: `get(id)` answers what a
 * program may read of a connection (`isClosed`, `closed`, `hasOutboundBacklog`, its streams and
 * routes), `closeAll()` is what `AcpServer.close()` waits for.
 */
import { ConnectionState, type Medium, type ServedAgent } from "./connection-state.ts";
import { resolveLimits, type ConnectionLimits, type ResolvedLimits } from "./limits.ts";

/** See the module comment. */
export class ConnectionRegistry {
  /** The limits every connection of this server gets. */
  readonly limits: ResolvedLimits;
  readonly #open = new Map<string, ConnectionState>();
  readonly #pending = new Map<string, ConnectionState>();

  /** Throws a `RangeError` for a limit that is not a positive safe integer. */
  constructor(options: ConnectionLimits = {}) {
    this.limits = resolveLimits(options);
  }

  /** Connects `agent` and registers the connection as open. */
  createConnection(agent: ServedAgent, medium: Medium = "http"): ConnectionState {
    const connection = new ConnectionState(agent, medium, this.limits);
    this.#open.set(connection.connectionId, connection);
    this.#forgetWhenClosed(connection);
    return connection;
  }

  /** Connects `agent` for a WebSocket upgrade not initialized yet. */
  createPendingConnection(agent: ServedAgent, medium: Medium = "websocket"): ConnectionState {
    const connection = new ConnectionState(agent, medium, this.limits);
    this.#pending.set(connection.connectionId, connection);
    this.#forgetWhenClosed(connection);
    return connection;
  }

  /** Moves a prepared connection to the open ones (its `initialize` was answered). */
  register(connection: ConnectionState): void {
    this.#pending.delete(connection.connectionId);
    this.#open.set(connection.connectionId, connection);
  }

  /** The open connection `connectionId`, unless it is shutting down. */
  get(connectionId: string): ConnectionState | undefined {
    const connection = this.#open.get(connectionId);
    return connection?.isClosed ? undefined : connection;
  }

  /** Removes and shuts down the open connection `connectionId` (one shutting down too, so a DELETE still finds it); returns it, or undefined when there is none. */
  remove(connectionId: string): ConnectionState | undefined {
    const connection = this.#open.get(connectionId);
    if (connection === undefined) return undefined;
    this.#open.delete(connectionId);
    void connection.shutdown();
    return connection;
  }

  /** Removes and shuts down the connection `connectionId`, open or prepared. */
  discard(connectionId: string): ConnectionState | undefined {
    const connection = this.#open.get(connectionId) ?? this.#pending.get(connectionId);
    if (connection === undefined) return undefined;
    this.#open.delete(connectionId);
    this.#pending.delete(connectionId);
    void connection.shutdown();
    return connection;
  }

  /** Shuts every connection down; resolves once they all have. */
  async closeAll(): Promise<void> {
    const all = new Set([...this.#open.values(), ...this.#pending.values()]);
    this.#open.clear();
    this.#pending.clear();
    await Promise.all([...all].map((connection) => connection.shutdown()));
  }

  #forgetWhenClosed(connection: ConnectionState): void {
    void connection.closed.then(() => {
      const id = connection.connectionId;
      if (this.#open.get(id) === connection) this.#open.delete(id);
      if (this.#pending.get(id) === connection) this.#pending.delete(id);
    });
  }
}
