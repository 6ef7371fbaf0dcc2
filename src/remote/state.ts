/**
 * The server's shared state: open connections (HTTP and WebSocket), the
 * session count, limits, the sweep timer, and how a connection's agent side
 * is opened. One per {@link createRemoteServer}.
 */
import type { ConnectionOptions } from "../connection/options.ts";
import { createAgentConnection } from "../bind.ts";
import type { Protocol } from "../protocol.ts";
import { readerLimits, type ReaderLimits } from "../transport/reader.ts";
import type { Transport } from "../transport/transport.ts";
import type { Authorize, ConnectionInfo, Limits, OnConnection, RemoteServerOptions, ServedConnection } from "./options.ts";
import { resolveLimits } from "./options.ts";
import type { SessionCounter } from "./sessions.ts";

/** Something the sweep visits and shutdown closes. */
export interface Swept {
  readonly id: string;
  served: ServedConnection | undefined;
  sweep(now: number): void;
  fail(reason: string): void;
  readonly streamCount: number;
}

export class ServerState {
  readonly limits: Limits;
  /** The table every connection speaks (its row lookups route the HTTP layer's peeks too). */
  readonly router: Protocol;
  readonly authorize: Authorize | undefined;
  readonly connectionOptions: ConnectionOptions;
  /** The connections' reading limits (`maxMessageBytes`, `maxDepth`), resolved once: what the endpoint and the WebSocket legs parse with. */
  readonly reader: ReaderLimits;
  readonly affinityCookie: string | undefined;
  readonly counter: SessionCounter;
  /** Streamable HTTP connections by `Acp-Connection-Id`. */
  readonly http = new Map<string, Swept>();
  /** WebSocket connections. */
  readonly sockets = new Set<Swept>();
  /** Set by shutdown: new connections are refused (503). */
  closing = false;
  private readonly agent: RemoteServerOptions["agent"];
  private readonly onConnection: OnConnection | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly sweepMs: number;

  constructor(options: RemoteServerOptions) {
    this.limits = resolveLimits(options);
    this.router = options.protocol;
    this.authorize = options.authorize;
    this.connectionOptions = options.connection ?? {};
    this.reader = readerLimits({ maxMessageBytes: this.connectionOptions.maxMessageBytes, maxDepth: this.connectionOptions.maxDepth });
    this.affinityCookie = options.affinityCookie;
    this.counter = { count: 0, max: this.limits.maxSessions };
    this.agent = options.agent;
    this.onConnection = options.onConnection;
    // Often enough to hold each time bound to about a quarter of itself; at most once a second.
    this.sweepMs = Math.max(5, Math.min(1000, this.limits.stallMs / 4, this.limits.idleMs / 4, this.limits.resumeMs / 4, this.limits.earlySessionStreamMs / 4, this.limits.keepAliveMs));
  }

  get connectionCount(): number {
    return this.http.size + this.sockets.size;
  }

  /** Why a new connection is refused now, or undefined. */
  refusal(): string | undefined {
    if (this.closing) return "the server is shutting down";
    if (this.connectionCount >= this.limits.maxConnections) return `the server holds its maximum of ${this.limits.maxConnections} connections`;
    return undefined;
  }

  /**
   * Opens the agent side of a new connection over `transport` and tells the
   * `onConnection` hook. Throws when the agent factory or the hook throws
   * (the connection is then closed; callers refuse it).
   */
  open(info: ConnectionInfo, transport: Transport): ServedConnection {
    const handler = typeof this.agent === "function" ? (this.agent as (info: ConnectionInfo) => object)(info) : this.agent;
    const connection = createAgentConnection(this.router, handler, transport, this.connectionOptions);
    if (this.onConnection === undefined) return connection;
    let cleanup: ReturnType<OnConnection>;
    try {
      cleanup = this.onConnection(connection, info);
    } catch (error) {
      connection.close(`the onConnection hook threw: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
    if (typeof cleanup === "function") {
      const done = cleanup;
      void connection.closed.then((closed) => {
        try {
          done(closed);
        } catch (error) {
          this.report("the cleanup returned by onConnection threw", error);
        }
      });
    }
    return connection;
  }

  /** A `handler_error` diagnostic to the connections' `onDiagnostic` (a failing hook breaks nothing). */
  private report(message: string, error: unknown): void {
    try {
      this.connectionOptions.onDiagnostic?.({ kind: "handler_error", message, data: error instanceof Error ? `${error.name}: ${error.message}` : String(error), error });
    } catch {
      // A failing diagnostics hook must not break the server.
    }
  }

  /** Registers a connection; starts the sweep with the first one. */
  add(connection: Swept, kind: "http" | "websocket"): void {
    if (kind === "http") this.http.set(connection.id, connection);
    else this.sockets.add(connection);
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.sweep(), this.sweepMs);
      (this.timer as { unref?: () => void }).unref?.();
    }
  }

  /** Unregisters a closed connection; stops the sweep with the last one. */
  remove(connection: Swept): void {
    if (this.http.get(connection.id) === connection) this.http.delete(connection.id);
    this.sockets.delete(connection);
    if (this.connectionCount === 0 && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  all(): Swept[] {
    return [...this.http.values(), ...this.sockets];
  }

  private sweep(): void {
    const now = Date.now();
    for (const connection of this.all()) connection.sweep(now);
  }
}

/** Fresh connection ids: random UUIDs (Web Crypto, present in Node 20, browsers, Deno and Bun). */
export function newConnectionId(): string {
  return globalThis.crypto.randomUUID();
}
