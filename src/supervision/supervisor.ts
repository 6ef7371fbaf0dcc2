/**
 * A supervised client: a client connection to an agent that is started
 * again when it ends without the app asking (opt-in, by using this), the way
 * an Erlang/OTP supervisor restarts a permanent child:
 *
 * - at most `restart.intensity` restarts within `restart.periodMs`, with a
 *   doubling backoff between them; one more and it gives up with a
 *   {@link RestartLimitError} (restart-policy.ts);
 * - the new agent is initialized again with the app's own `initialize`
 *   params (and `authenticate`, if the app had authenticated);
 * - each session open at the crash comes back by `session/resume` where the
 *   agent advertises it, else `session/load` (its replay reaches the handler
 *   marked, `isReplay(ctx)`), else is reported lost (session-recovery.ts);
 * - a call in flight at the crash is rejected (the connection's own
 *   `ConnectionClosedError`, naming the exit) and never sent again: a prompt
 *   may have had effects;
 * - calls made while the agent restarts wait for it (or for the give-up);
 *   a call naming a lost session rejects with {@link SessionLostError};
 *   notifications sent meanwhile are dropped (the turn they were about ended
 *   with the crash);
 * - the app hears of every exit, restart, session and watchdog decision
 *   through `onEvent` (events.ts).
 *
 * `start` makes the transport: `() => spawnAgent(cmd, args)` for a local
 * agent (its `AgentProcess` is taken as it is), or any transport factory (a
 * WebSocket to a remote agent). No `node:` imports.
 */
import { createClientConnection, type ClientConnection } from "../bind.ts";
import type { ConnectionOptions } from "../connection/options.ts";
import type { UnresponsiveEvent, WatchdogDecision, WatchdogOptions } from "../connection/watchdog-options.ts";
import { ConnectionClosedError } from "../errors.ts";
import type { PeerCaller, RequestOptions } from "../peer-caller.ts";
import type { Protocol, ProtocolTypes } from "../protocol.ts";
import type { Transport } from "../transport/transport.ts";
import { RestartLimitError, SessionLostError, type SupervisionEvent } from "./events.ts";
import { markingReplay } from "./replay.ts";
import { RestartBudget, resolveRestartPolicy, type RestartPolicy } from "./restart-policy.ts";
import { recoverSession, type OpenSession } from "./session-recovery.ts";

const SUPERVISE = "superviseClient(protocol, handler, start, options?)";

/** Starts the agent and returns its transport (or anything with one, such as `spawnAgent`'s result); `attempt` is 0, then the restart's number. */
export type AgentStart = (attempt: number) => Transport | { readonly transport: Transport };

/** Options of {@link superviseClient}. */
export interface SupervisorOptions {
  /** The restart policy; `false`: never restart (the events and the watchdog still work). Default: {@link RestartPolicy}'s defaults. */
  readonly restart?: RestartPolicy | false;
  /** A watchdog on every connection (src/connection/watchdog.ts); here `onUnresponsive` may answer `"restart"`. Default: the transport's, else none. */
  readonly watchdog?: WatchdogOptions;
  /** Options of every client connection the supervisor opens (its `watchdog` is the option above). */
  readonly connection?: ConnectionOptions;
  /** Told of every exit, restart, session and watchdog decision. A throw is ignored. */
  readonly onEvent?: (event: SupervisionEvent) => void;
}

/** How supervision ended: `close()` was called, restarting was off, or the restart limit was passed (`error`). */
export interface SupervisorEnd {
  readonly reason: string;
  readonly error: Error | undefined;
}

/** The supervised client: calls go to whichever agent is current. */
export interface SupervisedClient<T extends ProtocolTypes = ProtocolTypes> {
  /** The typed agent calls, as on a connection. */
  readonly agent: T["agentPeer"];
  /** Sends a request by wire name to the current agent (waiting through a restart). */
  request(wire: string, params: unknown, options?: RequestOptions): Promise<unknown>;
  /** Sends a notification to the current agent; dropped while it restarts. */
  notify(wire: string, params: unknown): Promise<void>;
  /** The current connection; undefined while the agent restarts or after the end. */
  readonly connection: ClientConnection<T> | undefined;
  /** The current agent's capabilities. */
  readonly agentCapabilities: T["agentCapabilities"] | undefined;
  /** The sessions that will be brought back after a crash (open now), by id. */
  sessions(): string[];
  /** Ends the current agent and starts it again now (counted by the restart policy); resolves once its sessions were tried. */
  restart(): Promise<void>;
  /** Ends supervision: the connection closes, no restart follows. */
  close(reason?: string): void;
  /** Settles once supervision ended. Never rejects. */
  readonly closed: Promise<SupervisorEnd>;
}

interface Gate {
  readonly promise: Promise<ClientConnection>;
  resolve(c: ClientConnection): void;
  reject(e: Error): void;
}

function gate(): Gate {
  let resolve!: (c: ClientConnection) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<ClientConnection>((res, rej) => ((resolve = res), (reject = rej)));
  promise.catch(() => undefined); // rejected when supervision ends; callers see it through their own await
  return { promise, resolve, reject };
}

/**
 * Starts the agent with `start(0)`, connects `handler` as a client of
 * `protocol`'s table, and supervises it (see the module comment).
 */
export function superviseClient<T extends ProtocolTypes>(protocol: Protocol<T>, handler: T["clientHandler"], start: AgentStart, options: SupervisorOptions = {}): SupervisedClient<T> {
  if (typeof start !== "function") throw new TypeError(`${SUPERVISE}: start must be a function returning a Transport or { transport } (e.g. () => spawnAgent("my-agent")); got ${typeof start}.`);
  const policy = options.restart === false ? undefined : resolveRestartPolicy(SUPERVISE, options.restart);
  const budget = policy === undefined ? undefined : new RestartBudget(policy);
  const replaying = new Set<string>();
  const marked = markingReplay(protocol as Protocol, handler as object, replaying) as T["clientHandler"];
  const open = new Map<string, OpenSession>();
  const lost = new Set<string>();
  let initialize: { wire: string; params: unknown } | undefined;
  let authenticate: { wire: string; params: unknown } | undefined;
  let conn: ClientConnection<T> | undefined;
  let transport: Transport | undefined;
  let ready = gate();
  /** The app ended supervision from the watchdog (its "kill"): the connection's end is not a crash. */
  let stopping = false;
  /** True from a crash until the restarted agent's sessions were tried: calls wait for `ready`. */
  let recovering = false;
  let end: SupervisorEnd | undefined;
  let resolveClosed!: (e: SupervisorEnd) => void;
  const closed = new Promise<SupervisorEnd>((resolve) => (resolveClosed = resolve));

  const emit = (event: SupervisionEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // The app's listener failing must not stop supervision.
    }
  };
  const finish = (reason: string, error: Error | undefined) => {
    if (end !== undefined) return;
    end = { reason, error };
    conn = undefined;
    ready.reject(error ?? new ConnectionClosedError(reason));
    resolveClosed(end);
  };
  const watchdog: WatchdogOptions | undefined = options.watchdog && {
    silenceMs: options.watchdog.silenceMs,
    onUnresponsive: (event: UnresponsiveEvent): WatchdogDecision => {
      let decision: WatchdogDecision | undefined | void;
      try {
        decision = options.watchdog?.onUnresponsive?.(event);
      } catch {
        decision = undefined;
      }
      const chosen = decision === "wait" || decision === "kill" || decision === "restart" ? decision : "reject";
      emit({ type: "unresponsive", event, decision: chosen });
      // "restart": the connection is killed and, not being the app's end, counts as a crash.
      if (chosen === "kill") stopping = true;
      return chosen === "restart" ? "kill" : chosen;
    },
  };

  const connect = (attempt: number): ClientConnection<T> => {
    const started = start(attempt);
    transport = "transport" in started ? started.transport : started;
    const c = createClientConnection(protocol, marked, transport, watchdog === undefined ? options.connection : { ...options.connection, watchdog });
    conn = c;
    void c.closed.then((info) => onClosed(c, info.reason, info.error));
    return c;
  };

  const onClosed = (c: ClientConnection<T>, reason: string, error: Error | undefined) => {
    if (c === conn && end === undefined) crashed(reason, error);
  };

  /** The agent's connection ended without the app ending supervision: restart it, or give up. */
  const crashed = (reason: string, error: Error | undefined) => {
    conn = undefined;
    if (stopping) return finish(reason, error);
    if (!recovering) {
      recovering = true;
      ready = gate();
    }
    const verdict = budget?.ask();
    emit({ type: "exited", reason, error, willRestart: verdict?.allowed === true });
    if (verdict === undefined) return finish(reason, error);
    if (!verdict.allowed) {
      const limit = new RestartLimitError(verdict.count, (policy as { periodMs: number }).periodMs, error ?? new Error(reason));
      emit({ type: "gave-up", error: limit });
      return finish(limit.message, limit);
    }
    emit({ type: "restarting", attempt: verdict.attempt, delayMs: verdict.delayMs });
    setTimeout(() => void restartNow(verdict.attempt), verdict.delayMs);
  };

  const restartNow = async (attempt: number) => {
    if (end !== undefined) return;
    let c: ClientConnection<T>;
    try {
      c = connect(attempt);
    } catch (error) {
      // `start` threw: as good as an exit at once.
      return crashed(`start(${attempt}) threw: ${error instanceof Error ? error.message : String(error)}`, error instanceof Error ? error : undefined);
    }
    const request = c.request as unknown as (wire: string, params: unknown) => Promise<unknown>;
    try {
      if (initialize !== undefined) await request(initialize.wire, initialize.params);
      if (authenticate !== undefined) await request(authenticate.wire, authenticate.params);
    } catch (error) {
      // The new agent failed its start: its connection is ended, which counts as one more exit.
      if (conn === c) c.close(`the restarted agent refused its initialization: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (conn !== c) return;
    emit({ type: "restarted", attempt });
    const host = { agentCapabilities: c.agentCapabilities, request, replaying: (id: string, on: boolean) => void (on ? replaying.add(id) : replaying.delete(id)) };
    const outcomes = await Promise.all([...open.values()].map((s) => recoverSession(protocol as Protocol, host, s)));
    if (conn !== c) return; // it ended again while its sessions were tried: the next restart tries them again
    for (const o of outcomes) {
      if (o.outcome === "lost") {
        open.delete(o.sessionId);
        lost.add(o.sessionId);
      }
      emit(o.error === undefined ? { type: "session", sessionId: o.sessionId, outcome: o.outcome } : { type: "session", sessionId: o.sessionId, outcome: o.outcome, error: o.error });
    }
    recovering = false;
    emit({ type: "recovered", attempt });
    ready.resolve(c);
  };

  /** Notes what a call the app made changes: the params to start again with, the sessions to bring back. */
  const record = (wire: string, params: unknown, result: unknown) => {
    const row = protocol.lookup.agent.request(wire);
    const lifecycle = row?.lifecycle;
    if (lifecycle === undefined) return;
    const p = (params ?? {}) as Record<string, unknown>;
    if (lifecycle === "initialize") initialize = { wire, params };
    else if (lifecycle === "authenticate") authenticate = { wire, params };
    else if (lifecycle === "logout") authenticate = undefined;
    else if (lifecycle === "closes_session" && typeof p.sessionId === "string") open.delete(p.sessionId);
    else if (lifecycle === "opens_session") {
      const id = (result as { sessionId?: unknown } | null | undefined)?.sessionId ?? p.sessionId;
      if (typeof id !== "string") return;
      const { sessionId: _parent, ...opening } = p;
      open.set(id, { sessionId: id, params: opening });
      lost.delete(id);
    }
  };

  const call = async (wire: string, params: unknown, opts?: RequestOptions): Promise<unknown> => {
    if (end !== undefined) throw end.error ?? new ConnectionClosedError(end.reason);
    const c = conn !== undefined && !recovering ? conn : await ready.promise;
    const sessionId = (params as { sessionId?: unknown } | null | undefined)?.sessionId;
    if (typeof sessionId === "string" && lost.has(sessionId) && protocol.lookup.agent.request(wire)?.lifecycle !== "opens_session") throw new SessionLostError(sessionId);
    const result = await (c.request as unknown as (w: string, p: unknown, o?: RequestOptions) => Promise<unknown>)(wire, params, opts);
    record(wire, params, result);
    return result;
  };
  const caller: PeerCaller = {
    request: (wire, params, opts) => call(wire, params, opts),
    notify: async (wire, params) => {
      if (conn === undefined || recovering || end !== undefined) return;
      await (conn.notify as unknown as (w: string, p: unknown) => Promise<void>)(wire, params);
    },
  };
  const makePeer = protocol.peers.agent;
  if (makePeer === undefined) throw new TypeError(`${SUPERVISE}: protocol must be a table's whole protocol or its clientProtocol; got its agentProtocol.`);

  const first = connect(0);
  ready.resolve(first);
  return {
    agent: makePeer(caller),
    request: call,
    notify: caller.notify,
    get connection() {
      return recovering ? undefined : conn;
    },
    get agentCapabilities() {
      return conn?.agentCapabilities as T["agentCapabilities"] | undefined;
    },
    sessions: () => [...open.keys()],
    async restart() {
      if (end !== undefined) throw end.error ?? new ConnectionClosedError(end.reason);
      const c = conn;
      if (c === undefined || recovering) return void (await ready.promise);
      c.close("restart requested by the app");
      transport?.kill?.();
      await c.closed;
      await ready.promise;
    },
    close(reason = "closed by the app") {
      if (end !== undefined) return;
      const c = conn;
      finish(reason, undefined);
      c?.close(reason);
    },
    closed,
  };
}
