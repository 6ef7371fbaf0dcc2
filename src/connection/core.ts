/**
 * The connection's state and the steps that touch it: answering inbound
 * calls exactly once, cancellation, close and stats. The inbound pipeline
 * that decides what to do with each line is in `inbound.ts`, the outbound
 * side in `outbound.ts`; `connect.ts` wires them to a transport.
 */
import type { RequestId } from "../context.ts";
import { ConnectionClosedError, ErrorCode, RpcError, type ErrorObject } from "../errors.ts";
import { dispatch } from "../decode.ts";
import { encodeResult, errorMessage, encodeLine } from "../jsonrpc/messages.ts";
import type { PeerCaller } from "../peer-caller.ts";
import type { Row, Router } from "../row.ts";
import type { Transport } from "../transport/transport.ts";
import type { Leniency } from "../validation/check.ts";
import type { BatchSink, CallHost, Capabilities, InboundCall } from "./call.ts";
import { capabilitiesIn, cancelTurn, closeTurns, openTurn } from "./columns.ts";
import { Lanes, isThenable } from "./lanes.ts";
import { DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_PENDING, DEFAULT_MAX_QUEUED_NOTIFICATIONS, type ConnectionOptions, type Diagnostic } from "./options.ts";
import { Outbound } from "./outbound.ts";
import { reportUnhandled } from "./advertised.ts";

/** One side of a connection: the agent or the client. */
export type Side = "agent" | "client";

/** Why and how a connection ended. */
export interface CloseInfo {
  readonly reason: string;
  readonly error: Error | undefined;
}

/** Internal counts, for tests and soak runs: all zero on an idle or closed connection. */
export interface ConnectionStats {
  readonly pendingOutbound: number;
  readonly inFlightInbound: number;
  readonly busyLanes: number;
  readonly timers: number;
  readonly abortListeners: number;
}

export class ConnectionCore<Peer> implements CallHost<Peer> {
  readonly side: Side;
  readonly peerSide: Side;
  readonly router: Router;
  readonly handler: object;
  readonly transport: Transport;
  readonly leniency: Leniency;
  readonly exposeErrors: boolean;
  readonly authRequired: boolean;
  readonly acceptBatches: boolean;
  readonly maxInFlight: number;
  readonly maxPending: number;
  readonly diagnostic: ((d: Diagnostic) => void) | undefined;

  /** Inbound requests whose handler has not answered yet, by request id (type-exact). */
  readonly inFlight = new Map<RequestId, InboundCall<Peer>>();
  /** Outbound side: requests and notifications we send, and the answers to them. */
  readonly outbound: Outbound<Peer>;
  readonly lanes: Lanes;
  readonly peer: Peer;
  /** Default timeout of outbound requests (`requestTimeoutMs`); undefined: none. */
  readonly requestTimeoutMs: number | undefined;
  /** The table has rows with an `objectCapability`: the client records what updates announce (columns.ts). */
  readonly tracksObjects: boolean;
  /** The table has a `repeatable` row: requests are then tracked for it (columns.ts); others skip that per message. */
  readonly hasRepeatable: boolean;
  /** The agent handles a row with `turnEnd`: sending a notification then checks whether it ends a turn (columns.ts); others skip that lookup. */
  readonly hasTurnEnd: boolean;

  initialized = false;
  authenticated = false;
  /** Agent side: the client capabilities of the `initialize` being answered, recorded once it succeeds. */
  offeredClientCapabilities: Capabilities | undefined;
  /** Notification calls whose handler read `ctx.signal` and has not finished: aborted on close. */
  readonly liveNotifications = new Set<InboundCall<Peer>>();
  /** Client side: sessions introduced by session/new, load or resume (updates for others are delivered with a diagnostic). */
  readonly knownSessions = new Set<string>();
  /** Set when a response settled a call: the next line waits one microtask so the caller's continuation runs first. */
  settledResponse = false;
  agentCapabilities: Capabilities | undefined;
  clientCapabilities: Capabilities | undefined;
  closeInfo: CloseInfo | undefined;
  readonly closed: Promise<CloseInfo>;
  private resolveClosed!: (info: CloseInfo) => void;

  constructor(router: Router, side: Side, handler: object, transport: Transport, makePeer: (caller: PeerCaller) => Peer, options: ConnectionOptions) {
    this.router = router;
    this.side = side;
    this.peerSide = side === "agent" ? "client" : "agent";
    this.handler = handler;
    this.transport = transport;
    this.leniency = options.leniency ?? "repair";
    this.exposeErrors = options.exposeErrors === true;
    this.authRequired = options.authRequired === true;
    // A table that keeps rows out of batches (`unbatched`: ACP v2) follows JSON-RPC 2.0 batches by default.
    this.acceptBatches = (options.batches ?? (router.rows.agent.some((r) => r.unbatched) ? "accept" : "reject")) === "accept";
    this.maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
    this.maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
    this.diagnostic = options.onDiagnostic;
    this.lanes = new Lanes(
      (error) => this.report("handler_error", "a notification handler failed", describe(error)),
      options.maxQueuedNotifications ?? DEFAULT_MAX_QUEUED_NOTIFICATIONS,
      (high, queued) => {
        if (this.closeInfo) return;
        this.report("backpressure", high ? `reading paused: ${queued} notifications wait for their handlers` : `reading resumed: ${queued} notifications wait`);
        if (high) transport.pause?.();
        else transport.resume?.();
      },
    );
    this.requestTimeoutMs = options.requestTimeoutMs;
    this.tracksObjects = router.rows.agent.some((r) => r.objectCapability !== undefined);
    this.hasRepeatable = [...router.rows.agent, ...router.rows.client].some((r) => r.repeatable !== undefined);
    this.hasTurnEnd = router.rows.agent.some((r) => r.turnEnd !== undefined);
    this.outbound = new Outbound(this);
    this.peer = makePeer({
      request: (wire, params, opts) => this.outbound.request(wire, params, opts),
      notify: (wire, params) => this.outbound.notify(wire, params),
    });
    this.closed = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
  }

  get isClosed(): boolean {
    return this.closeInfo !== undefined;
  }

  report(kind: Diagnostic["kind"], message: string, data?: unknown): void {
    if (!this.diagnostic) return;
    try {
      this.diagnostic(data === undefined ? { kind, message } : { kind, message, data });
    } catch {
      // A failing diagnostics hook must not break the connection.
    }
  }

  /** The capabilities this side advertised (the inbound gate checks these). */
  ownCapabilities(): unknown {
    return this.side === "agent" ? this.agentCapabilities : this.clientCapabilities;
  }

  // ── answering inbound requests ──────────────────────────────────────

  /** Writes an answer line, or hands it to the batch it belongs to. */
  writeAnswer(line: string, batch: BatchSink | undefined): void {
    if (this.closeInfo) return;
    if (batch) batch.add(line.slice(0, -1));
    else this.transport.write(line);
  }

  /** Answers a rejected message; `id` was chosen by the rejection-id rule. */
  reject(id: RequestId | null, error: ErrorObject, batch: BatchSink | undefined): void {
    this.writeAnswer(encodeLine(errorMessage(id, error)), batch);
  }

  /**
   * Runs a decoded request's handler and answers it exactly once. A request
   * of a session starts only after that session's earlier notifications were
   * handled (DESIGN §7; the no-deadlock exception is in `lanes.ts`); while it
   * waits it is in flight: `$/cancel_request`, `session/cancel` and close reach it.
   */
  invoke(call: InboundCall<Peer>, params: unknown): void {
    // No busy lane means nothing to wait for: the common case allocates no closure.
    if (call.sessionId !== undefined && this.lanes.size > 0 && this.lanes.request(call.sessionId, () => this.begin(call, params))) {
      this.inFlight.set(call.requestId as RequestId, call);
      return;
    }
    this.run(call, params);
  }

  /** Starts a request that waited in its session's lane, unless it was answered or cancelled meanwhile. */
  private begin(call: InboundCall<Peer>, params: unknown): void {
    if (call.answered) return;
    if (call.cancelled) return this.fail(call, RpcError.requestCancelled());
    this.run(call, params);
  }

  /** Dispatches the decoded request (its row's `invoke`, or `extMethod` for an unregistered `_` method). */
  private run(call: InboundCall<Peer>, params: unknown): void {
    let result: unknown;
    try {
      result = dispatch(call.row, this.handler, call.wire, params, call);
    } catch (error) {
      this.fail(call, error);
      return;
    }
    if (isThenable(result)) {
      this.inFlight.set(call.requestId as RequestId, call);
      result.then(
        (value) => this.succeed(call, value),
        (error: unknown) => this.fail(call, error),
      );
    } else this.succeed(call, result);
  }

  succeed(call: InboundCall<Peer>, value: unknown): void {
    if (call.answered) return;
    // After session/cancel the turn answers as cancelled (ACP prompt-turn: the agent MUST
    // respond with the cancelled stop reason), keeping the handler's other fields.
    if (call.sessionCancelled) value = withOnCancel(value, call.row?.onCancel);
    call.answered = true;
    this.inFlight.delete(call.requestId as RequestId);
    const lifecycle = call.row?.lifecycle;
    if (lifecycle !== undefined) this.afterAnswer(lifecycle, value, call.row);
    openTurn(this, call.row, call.sessionId, call);
    let line: string;
    try {
      line = encodeResult(call.requestId as RequestId, value);
    } catch (error) {
      this.report("handler_error", `the result of "${call.wire}" cannot be encoded as JSON`, describe(error));
      line = encodeLine(errorMessage(call.requestId as RequestId, RpcError.internalError().toJSON()));
    }
    this.writeAnswer(line, call.batch);
  }

  fail(call: InboundCall<Peer>, error: unknown): void {
    if (call.answered) return;
    if (call.cancelled && (!(error instanceof RpcError) || error.code === ErrorCode.RequestCancelled)) {
      const onCancel = call.row?.onCancel;
      if (onCancel !== undefined) {
        this.succeed(call, onCancel);
        return;
      }
      error = RpcError.requestCancelled();
    }
    call.answered = true;
    this.inFlight.delete(call.requestId as RequestId);
    if (!(error instanceof RpcError)) this.report("handler_error", `handler of "${call.wire}" threw`, describe(error));
    this.reject(call.requestId as RequestId, RpcError.from(error, this.exposeErrors).toJSON(), call.batch);
  }

  /** Agent side: records what a row's `lifecycle` changes, once its answer succeeded. */
  private afterAnswer(lifecycle: NonNullable<Row["lifecycle"]>, value: unknown, row: Row | undefined): void {
    if (this.side !== "agent") return;
    if (lifecycle === "initialize") {
      this.initialized = true;
      this.agentCapabilities = capabilitiesIn(row, "result", value);
      this.clientCapabilities = this.offeredClientCapabilities ?? {};
      reportUnhandled(this, "agent", this.agentCapabilities);
    } else if (lifecycle === "authenticate") this.authenticated = true;
    else if (lifecycle === "logout") this.authenticated = false;
  }

  /** `$/cancel_request` for an inbound request: aborts it; unknown or finished ids are ignored. */
  cancelInbound(requestId: unknown): void {
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    this.inFlight.get(requestId)?.cancel("cancel_request");
  }

  /**
   * Inbound `session/cancel` (agent side): cancels that session's running
   * handlers and the agent's own outstanding requests for it. Only calls in
   * flight now are touched, so a late cancel never reaches the next turn.
   */
  cancelSession(sessionId: string, cause: "session_cancel" | "session_close" = "session_cancel"): void {
    cancelTurn(this, sessionId, cause);
    for (const call of this.inFlight.values()) {
      if (call.sessionId !== sessionId) continue;
      call.sessionCancelled = true;
      call.cancel(cause);
    }
    this.outbound.cancelSession(sessionId, cause);
  }

  /**
   * Outbound `session/cancel` (client side): every pending inbound call of
   * that session whose row has an `onCancel` result (permission requests) is
   * answered with it now, and its signal aborted.
   */
  cancelOwnSession(sessionId: string): void {
    for (const call of [...this.inFlight.values()]) {
      if (call.sessionId !== sessionId || call.row?.onCancel === undefined) continue;
      call.cancel("session_cancel");
      this.succeed(call, call.row.onCancel);
    }
  }

  // ── close ──────────────────────────────────────────────────────────

  /** Closes once: rejects pending calls, aborts inbound signals, releases timers and listeners. */
  close(reason: string, error?: Error): void {
    if (this.closeInfo) return;
    const info: CloseInfo = { reason, error };
    this.closeInfo = info;
    const closedError = new ConnectionClosedError(reason, error ? { cause: error } : undefined);
    for (const call of this.outbound.pending.drain()) call.reject(closedError);
    this.outbound.clearAbandoned();
    for (const call of this.inFlight.values()) {
      call.answered = true;
      call.abortForClose();
    }
    this.inFlight.clear();
    for (const call of this.liveNotifications) call.abortForClose();
    this.liveNotifications.clear();
    closeTurns(this);
    this.lanes.clear();
    this.report("closed", `connection closed: ${reason}`, error ? describe(error) : undefined);
    try {
      this.transport.close();
    } catch {
      // Closing a broken stream may throw; the connection is closed either way.
    }
    this.resolveClosed(info);
  }

  stats(): ConnectionStats {
    const { timers, listeners } = this.outbound.pending.resources();
    return { pendingOutbound: this.outbound.pending.size, inFlightInbound: this.inFlight.size, busyLanes: this.lanes.size, timers, abortListeners: listeners };
  }
}

/** `value` with the row's `onCancel` fields laid over it (both objects), else `onCancel` itself when there is one. */
function withOnCancel(value: unknown, onCancel: unknown): unknown {
  if (onCancel === undefined || typeof onCancel !== "object" || onCancel === null) return value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return onCancel;
  return { ...value, ...onCancel };
}

/** A one-line description of anything thrown, for diagnostics. */
export function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

