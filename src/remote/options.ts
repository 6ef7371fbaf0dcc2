/** Options of the remote ACP server, their defaults, and the reasons for them. */
import type { AgentConnection } from "../bind.ts";
import type { CloseInfo } from "../connection/core.ts";
import type { ConnectionOptions } from "../connection/options.ts";
import type { Protocol, ProtocolTypes } from "../protocol.ts";

/** What the server knows about a new connection when it asks for its handler. */
export interface ConnectionInfo {
  /** The `Acp-Connection-Id` the server assigned. */
  readonly connectionId: string;
  /** `http` (Streamable HTTP + SSE) or `websocket`. */
  readonly transport: "http" | "websocket";
  /** Reads a header of the request that created the connection (lower-case names). */
  header(name: string): string | undefined;
}

/** The one thing the server needs from an opened connection. */
export interface ServedConnection {
  /** Settles once the connection has closed, for whatever reason. */
  readonly closed: Promise<unknown>;
  /** Closes the connection; `reason` goes to its diagnostics. */
  close(reason?: string): void;
  /** The connection's current counts, summed by the server's `stats()`. */
  stats(): { readonly inFlightInbound: number; readonly pendingOutbound: number; readonly busyLanes: number; readonly timers: number; readonly abortListeners: number };
}

/**
 * The per-connection hook of {@link RemoteServerOptions.onConnection}: told
 * of each connection as it opens, with the agent side's `AgentConnection`
 * (`connection.request(ext, …)`, `connection.notify(…)`, `connection.client`
 * call the client from outside any handler). Returns nothing, or a cleanup
 * called once with the connection's {@link CloseInfo} when it closes.
 */
export type OnConnection<T extends ProtocolTypes = ProtocolTypes> = (connection: AgentConnection<T>, info: ConnectionInfo) => void | ((closed: CloseInfo) => void);

/** Decides whether a request may go on, from its headers only (run before the body is read or parsed). */
export type Authorize = (header: (name: string) => string | undefined) => boolean | Promise<boolean>;

/** Options of {@link createRemoteServer}. Every bound has a default; each is stated with its reason. */
export interface RemoteServerOptions<T extends ProtocolTypes = ProtocolTypes> {
  /** The table every connection speaks: `protocol` from `acp-router` (v1), `acp-router/v2`, … */
  readonly protocol: Protocol<T>;
  /** The agent: one handler shared by every connection, or a factory called once per connection. */
  readonly agent: T["agentHandler"] | ((info: ConnectionInfo) => T["agentHandler"]);
  /** Options of every connection (leniency, maxInFlight, …), as for stdio. */
  readonly connection?: ConnectionOptions;
  /**
   * Called once per connection (Streamable HTTP or WebSocket) right after it
   * opened, with its `AgentConnection` and {@link ConnectionInfo}; the
   * function it may return is called once when that connection closed
   * (DELETE, the socket closing, idle or stalled readers, shutdown), with
   * the reason. The connection is opened before its `initialize` is handled,
   * so call the client once it is initialized (`connection.clientCapabilities`
   * is set then), as an agent does. A hook that throws refuses the connection
   * (HTTP: `initialize` answered 500; WebSocket: the socket is closed). A
   * handler calls its own connection's client through `ctx.peer`,
   * `ctx.request` and `ctx.notify`; this hook is for work outside handlers
   * (a push on an outside event, per-connection bookkeeping). Default: none.
   *
   * ```ts
   * const open = new Set<AgentConnection>();
   * createRemoteServer({
   *   protocol,
   *   agent,
   *   onConnection(connection, info) {
   *     open.add(connection);
   *     return ({ reason }) => open.delete(connection);
   *   },
   * });
   * // later, on some outside event: for (const c of open) await c.notify(reloaded, { at: Date.now() });
   * ```
   */
  readonly onConnection?: OnConnection<T>;
  /**
   * Auth hook, run on every request before its body is read or parsed; false
   * answers 401 with `id: null`. Default: none (every request passes).
   */
  readonly authorize?: Authorize;
  /**
   * A `Set-Cookie` value sent with every new connection's answer (the 200 of
   * `initialize`, the 101 of a WebSocket upgrade), for balancers that route
   * by a cookie the backend sets, such as open-source nginx
   * (docs/deploying.md). Default none: HAProxy inserts its own.
   */
  readonly affinityCookie?: string;
  /**
   * Largest POST body. Default 32 MiB, the same as `maxMessageBytes` over
   * stdio (and the WebSocket adapter's frame limit): a message that stdio
   * carries, HTTP carries too. Over it: 413.
   */
  readonly maxBodyBytes?: number;
  /**
   * Most bytes held for one reader beyond the largest single message its
   * stream carried: an SSE stream, a WebSocket, or the backlog of a stream
   * that is not open (yet, or again). Default 8 MiB, several seconds of a
   * fast turn; beyond it the connection closes. One message, however large
   * (up to `maxMessageBytes`), goes to a reader that keeps up.
   */
  readonly maxStreamBytes?: number;
  /**
   * Bytes of already written events each SSE stream keeps, so a client that
   * reconnects with `Last-Event-ID` gets what it missed. Default 1 MiB: far
   * more than the socket buffers lost in a drop plus a few seconds of a
   * turn's updates, at most 1 MiB per open stream. A client that asks for
   * more gets 410, never a gap. 0: no resumption.
   */
  readonly replayBytes?: number;
  /**
   * How long a connection whose event stream dropped waits for the client to
   * open it again (resuming with `Last-Event-ID`) before it closes, cancelling
   * its turns. Default 10 s: our client's reconnect retries take about 3 s;
   * a client that went away does not hold its turns much longer.
   */
  readonly resumeMs?: number;
  /**
   * How long a session event stream opened before that session's
   * `session/load`, `session/resume` or `session/delete` on the connection
   * (the SDK's HTTP client does this on reconnect) waits for that request.
   * Without one in time, the stream ends. Default 10 s: the client sends the
   * request right after the stream's head arrives.
   */
  readonly earlySessionStreamMs?: number;
  /** A reader that takes no bytes for this long while some wait is dropped, and its connection closed. Default 30 s. */
  readonly stallMs?: number;
  /** An HTTP connection with no event stream open and no request for this long is closed. Default 60 s. */
  readonly idleMs?: number;
  /** Interval of SSE keep-alive comments (and WebSocket pings). Default 15 s, under the usual 30–60 s proxy read timeouts. */
  readonly keepAliveMs?: number;
  /** Open connections (HTTP and WebSocket) per server. Default 10,000. Beyond it: 503 (HTTP) or a refused upgrade. */
  readonly maxConnections?: number;
  /** Open sessions per server (all connections). Default 100,000. A request opening one more is refused (HTTP 503, or a JSON-RPC error over WebSocket). */
  readonly maxSessions?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
export const DEFAULT_MAX_STREAM_BYTES = 8 * 1024 * 1024;
export const DEFAULT_REPLAY_BYTES = 1024 * 1024;
export const DEFAULT_RESUME_MS = 10_000;
export const DEFAULT_EARLY_SESSION_STREAM_MS = 10_000;
export const DEFAULT_STALL_MS = 30_000;
export const DEFAULT_IDLE_MS = 60_000;
export const DEFAULT_KEEPALIVE_MS = 15_000;
export const DEFAULT_MAX_CONNECTIONS = 10_000;
export const DEFAULT_MAX_SESSIONS = 100_000;

/** The resolved limits. */
export interface Limits {
  readonly maxBodyBytes: number;
  readonly maxStreamBytes: number;
  readonly replayBytes: number;
  readonly resumeMs: number;
  readonly earlySessionStreamMs: number;
  readonly stallMs: number;
  readonly idleMs: number;
  readonly keepAliveMs: number;
  readonly maxConnections: number;
  readonly maxSessions: number;
}

export function resolveLimits(o: Omit<RemoteServerOptions, "agent" | "protocol" | "onConnection">): Limits {
  return {
    maxBodyBytes: o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxStreamBytes: o.maxStreamBytes ?? DEFAULT_MAX_STREAM_BYTES,
    replayBytes: o.replayBytes ?? DEFAULT_REPLAY_BYTES,
    resumeMs: o.resumeMs ?? DEFAULT_RESUME_MS,
    earlySessionStreamMs: o.earlySessionStreamMs ?? DEFAULT_EARLY_SESSION_STREAM_MS,
    stallMs: o.stallMs ?? DEFAULT_STALL_MS,
    idleMs: o.idleMs ?? DEFAULT_IDLE_MS,
    keepAliveMs: o.keepAliveMs ?? DEFAULT_KEEPALIVE_MS,
    maxConnections: o.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    maxSessions: o.maxSessions ?? DEFAULT_MAX_SESSIONS,
  };
}

/** Bearer-token check for {@link RemoteServerOptions.authorize}: `Authorization: Bearer <token>`, compared in constant time. */
export function bearer(token: string): Authorize {
  const expected = `Bearer ${token}`;
  return (header) => {
    const got = header("authorization") ?? "";
    let diff = got.length ^ expected.length;
    for (let i = 0; i < expected.length; i++) diff |= (got.charCodeAt(i) | 0) ^ expected.charCodeAt(i);
    return diff === 0;
  };
}
