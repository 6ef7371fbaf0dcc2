/**
 * The outbound side of a connection: requests and notifications we send,
 * the peer capability gate, per-call cancellation and timeouts, and the
 * answers (validated with the result marker chosen at send time).
 */
import { ConnectionClosedError, ErrorCode, RequestCancelledError, RequestTimeoutError, RpcError } from "../errors.ts";
import type { CancelCause } from "./cancel-cause.ts";
import { isRequestId } from "../jsonrpc/classify.ts";
import { encodeNotification, encodeRequest, encodeWithPrefix, notificationPrefix } from "../jsonrpc/messages.ts";
import type { RequestOptions } from "../peer-caller.ts";
import { isExtensionWire, type Row } from "../row.ts";
import { check } from "../validation/check.ts";
import { capabilityName, hasCapability } from "./capabilities.ts";
import { callerAllowed, capabilitiesIn, endTurn, objectRefusal } from "./columns.ts";
import { reportUnhandled } from "./advertised.ts";
import type { ConnectionCore } from "./core.ts";
import { PendingMap, type PendingCall } from "./pending.ts";

export class Outbound<Peer> {
  readonly pending = new PendingMap();
  /** Ids we stopped waiting for (timeout, stopWaitingOnCancel): their late answers are dropped quietly. */
  private readonly abandoned = new Set<number>();
  private readonly core: ConnectionCore<Peer>;

  constructor(core: ConnectionCore<Peer>) {
    this.core = core;
  }

  /** `$/cancel_request` for every pending call of a session (inbound `session/cancel`). */
  cancelSession(sessionId: string, cause: "session_cancel" | "session_close"): void {
    for (const call of this.pending.values()) if (call.sessionId === sessionId) this.sendCancel(call, cause);
  }


  /**
   * Sends a notification. Never rejects for a closed connection: the
   * notification is dropped with a diagnostic, so `void peer.sessionUpdate(...)`
   * after the peer left is not an unhandled rejection (handlers learn of the
   * close from `ctx.signal`). It rejects only when `params` cannot be encoded.
   */
  notify(wire: string, params: unknown): Promise<void> {
    if (this.core.closeInfo) {
      this.core.report("closed", `notification "${wire}" dropped: the connection is closed (${this.core.closeInfo.reason})`);
      return Promise.resolve();
    }
    // Sending the peer's session-control notification (session/cancel) answers our own
    // pending calls of that session that have an onCancel result (permission requests).
    const row = this.core.router.inboundRow(this.core.peerSide, "notification", wire);
    if (row?.layer === "session_control") {
      const sessionId = (params as { sessionId?: unknown } | null)?.sessionId;
      if (typeof sessionId === "string") this.core.cancelOwnSession(sessionId);
    }
    const refusal = this.columnRefusal(row, params);
    if (refusal !== undefined) return Promise.reject(RpcError.methodNotFound(wire, `${refusal}; not sent`));
    if (this.core.hasTurnEnd && this.core.side === "agent") endTurn(this.core, wire, params);
    try {
      // A row's line starts with its precomputed prefix: no envelope object, the method encoded once.
      this.core.transport.write(row === undefined || params === undefined ? encodeNotification(wire, params) : encodeWithPrefix(prefixOf(row, wire), params));
    } catch (error) {
      return Promise.reject(error);
    }
    return SENT;
  }

  /**
   * Sends a request. The notification handlers running now (whatever object
   * the call goes through) are recorded with it, so its answer never waits
   * for one of them that may be awaiting it (the rule is in `lanes.ts`).
   */
  request(wire: string, params: unknown, options?: RequestOptions): Promise<unknown> {
    if (this.core.closeInfo) return Promise.reject(new ConnectionClosedError(this.core.closeInfo.reason));
    const row = this.core.router.resultMarker(this.core.peerSide, wire);
    if (row?.capability !== undefined && !hasCapability(this.core.side === "agent" ? this.core.clientCapabilities : this.core.agentCapabilities, row.capability)) {
      return Promise.reject(RpcError.methodNotFound(wire, `${capabilityName(this.core.peerSide, row.capability)} was not advertised by the ${this.core.peerSide}; not sent`));
    }
    const refusal = this.columnRefusal(row, params);
    if (refusal !== undefined) return Promise.reject(RpcError.methodNotFound(wire, `${refusal}; not sent`));
    if (this.pending.size >= this.core.maxPending) {
      return Promise.reject(RpcError.internal(`Too many pending requests (maxPending ${this.core.maxPending}); not sent`, { maxPending: this.core.maxPending }));
    }
    if (row === undefined && !isExtensionWire(wire)) this.core.report("unknown_message", `sending "${wire}", which the ${this.core.peerSide} does not handle in the method table`);
    let line: string;
    const id = this.pending.allocate();
    try {
      line = encodeRequest(id, wire, params);
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.core.side === "client" && row?.lifecycle === "initialize") {
      this.core.clientCapabilities = capabilitiesIn(row, "params", params);
      reportUnhandled(this.core, "client", this.core.clientCapabilities);
    }
    const sessionId = (params as { sessionId?: unknown } | null)?.sessionId;
    return new Promise((resolve, reject) => {
      const call: PendingCall = {
        id,
        wire,
        row,
        sessionId: typeof sessionId === "string" ? sessionId : undefined,
        sentDuring: this.core.lanes.sent(),
        resolve,
        reject,
        timer: undefined,
        signal: undefined,
        onAbort: undefined,
        cancelSent: false,
        cancelCause: undefined,
      };
      this.pending.add(call);
      this.core.transport.write(line);
      const timeoutMs = options?.timeoutMs ?? (row?.onCancel === undefined ? this.core.requestTimeoutMs : undefined);
      if (options !== undefined || timeoutMs !== undefined) this.watch(call, options, timeoutMs);
    });
  }

  private watch(call: PendingCall, options: RequestOptions | undefined, timeoutMs: number | undefined): void {
    const signal = options?.signal;
    if (signal) {
      if (signal.aborted) {
        if (options?.stopWaitingOnCancel) return this.abandon(call, new RequestCancelledError("cancel_request"));
        this.sendCancel(call, "cancel_request");
      }
      else {
        call.signal = signal;
        call.onAbort = options?.stopWaitingOnCancel ? () => this.abandon(call, new RequestCancelledError("cancel_request")) : () => this.sendCancel(call, "cancel_request");
        signal.addEventListener("abort", call.onAbort, { once: true });
      }
    }
    // Infinity (or anything a timer cannot hold, over 2^31-1 ms) means no timeout.
    if (timeoutMs !== undefined && timeoutMs <= MAX_TIMER_MS) {
      call.timer = setTimeout(() => {
        call.timer = undefined;
        this.abandon(call, new RequestTimeoutError(call.wire, timeoutMs));
      }, Math.max(0, timeoutMs));
    }
  }

  /** Sends `$/cancel_request`, stops waiting and rejects the call with `error`. */
  private abandon(call: PendingCall, error: RequestCancelledError): void {
    this.sendCancel(call, error.cause);
    if (!this.pending.take(call.id)) return;
    if (this.abandoned.size < this.core.maxPending) this.abandoned.add(call.id);
    call.reject(error);
  }

  /** Forgets abandoned ids (connection closed). */
  clearAbandoned(): void {
    this.abandoned.clear();
  }

  /** Sends `$/cancel_request` for a pending call (once); the call keeps waiting for the peer's answer. */
  private sendCancel(call: PendingCall, cause: CancelCause): void {
    if (call.cancelSent || this.core.closeInfo) return;
    call.cancelSent = true;
    call.cancelCause = cause;
    this.core.transport.write(encodeNotification("$/cancel_request", { requestId: call.id }));
  }

  /** Settles the pending call a response answers; unknown ids are dropped with a diagnostic. */
  answerPending(body: Record<string, unknown>): boolean {
    const call = this.pending.take(body.id);
    if (!call) {
      if (typeof body.id === "number" && this.abandoned.delete(body.id)) return false;
      this.core.report("unknown_response", `response for unknown request id ${JSON.stringify(body.id)} dropped`);
      return false;
    }
    this.core.settledResponse = true;
    const error = body.error;
    if (error !== undefined) {
      const e = error as { code?: unknown; message?: unknown; data?: unknown } | null;
      const rpc = e !== null && typeof e === "object" && Number.isInteger(e.code) && typeof e.message === "string" ? peerError(call, e.code as number, e.message, e.data) : RpcError.internal("Malformed error response from peer", { error });
      this.settle(call, false, rpc);
      return true;
    }
    const result = body.result;
    const row = call.row;
    if (row?.result !== undefined) {
      // Results keep unknown enum values (a newer peer's stopReason) in repair mode: forward compatibility.
      const outcome = check(row.result, result, row.resultType as string, this.core.router.leniency, this.core.leniency, "keep");
      if (outcome !== undefined) {
        if (!outcome.ok) {
          this.core.report("invalid_result", `invalid result for "${call.wire}"`, { errors: outcome.errors });
          this.settle(call, false, RpcError.invalidResult(call.wire, this.core.peerSide, outcome.errors));
          return true;
        }
        this.core.report("repaired", `repaired the result of "${call.wire}"`, { repairs: outcome.repairs });
      }
    }
    if (this.core.side === "client") this.afterResult(call, result);
    this.settle(call, true, result);
    return true;
  }

  /** Why the table's newer columns forbid sending `row` now (`callerCapability`, `objectCapability`), or undefined. */
  private columnRefusal(row: Row<never, never> | undefined, params: unknown): string | undefined {
    if (row === undefined) return undefined;
    if (!callerAllowed(row, this.core.ownCapabilities())) return `${capabilityName(this.core.side, row.callerCapability ?? [])} was not advertised by this ${this.core.side}`;
    return this.core.side === "client" ? objectRefusal(this.core, row, params) : undefined;
  }

  /** Client side: records what an answered request's `lifecycle` changes (capabilities, known sessions). */
  private afterResult(call: PendingCall, result: unknown): void {
    const lifecycle = call.row?.lifecycle;
    if (lifecycle === "initialize") {
      this.core.initialized = true;
      this.core.agentCapabilities = capabilitiesIn(call.row, "result", result);
    } else if (lifecycle === "opens_session" || lifecycle === "closes_session") {
      const fromResult = (result as { sessionId?: unknown } | null)?.sessionId;
      const id = typeof fromResult === "string" ? fromResult : call.sessionId;
      if (id === undefined) return;
      if (lifecycle === "opens_session") this.core.knownSessions.add(id);
      else this.core.knownSessions.delete(id);
    }
  }

  /**
   * A response-shaped body with both `result` and `error` (JSON-RPC 2.0 §5
   * allows exactly one): rejects the pending call its id names with an
   * error saying so, rather than leaving it waiting. Returns false when the
   * id names no call (the caller reports it as an unknown response).
   */
  rejectInvalidResponse(body: Record<string, unknown>): boolean {
    if (!isRequestId(body.id) || !Object.prototype.hasOwnProperty.call(body, "result") || body.error === undefined) return false;
    const call = this.pending.take(body.id);
    if (!call) return typeof body.id === "number" && this.abandoned.delete(body.id);
    this.core.settledResponse = true;
    const message = `Invalid response to "${call.wire}" from the ${this.core.peerSide}: it has both "result" and "error" (JSON-RPC 2.0 §5 allows exactly one)`;
    this.core.report("invalid_result", message, { id: call.id });
    this.settle(call, false, RpcError.internal(message, { result: body.result, error: body.error }));
    return true;
  }

  /**
   * Settles after that session's earlier notifications were handled, except
   * those the call may be awaited by (the rule is in `lanes.ts`).
   */
  private settle(call: PendingCall, ok: boolean, value: unknown): void {
    const s = call.sessionId;
    // No busy lane: nothing of the session is waiting, settle now (no closure, no lookup).
    if (s === undefined || this.core.lanes.size === 0) return ok ? call.resolve(value) : call.reject(value);
    this.core.lanes.answer(s, call.sentDuring, ok ? () => call.resolve(value) : () => call.reject(value));
  }
}

/**
 * What `notify` returns once the line was handed to the transport: one
 * settled promise shared by every call, since nothing is awaited (no
 * allocation per notification; awaiting it costs the caller one microtask).
 */
const SENT: Promise<void> = Promise.resolve();

/** Each row's notification prefix, computed on first send and shared by every connection (rows are immutable). */
const prefixes = new WeakMap<object, string>();

function prefixOf(row: object, wire: string): string {
  let prefix = prefixes.get(row);
  if (prefix === undefined) prefixes.set(row, (prefix = notificationPrefix(wire)));
  return prefix;
}

/** The peer's error answer; a `-32800` to a call we cancelled names our cause ({@link RequestCancelledError}). */
function peerError(call: PendingCall, code: number, message: string, data: unknown): RpcError {
  if (code === ErrorCode.RequestCancelled && call.cancelCause !== undefined) return new RequestCancelledError(call.cancelCause, message, data);
  return new RpcError(code, message, data);
}

/** The longest delay `setTimeout` honours (2^31-1 ms, about 24.8 days); longer ones would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;
