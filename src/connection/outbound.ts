/**
 * The outbound side of a connection: requests and notifications we send,
 * the peer capability gate, per-call cancellation and timeouts. The answers
 * to our requests are settled by `responses.ts` (validated with the result
 * marker chosen at send time).
 */
import { ConnectionClosedError, RequestCancelledError, RequestTimeoutError, RpcError } from "../errors.ts";
import type { CancelCause } from "./cancel-cause.ts";
import { encodeNotification, encodeRequest, encodeWithPrefix, notificationPrefix } from "../jsonrpc/messages.ts";
import type { RequestOptions } from "../peer-caller.ts";
import type { Protocol } from "../protocol.ts";
import { isExtensionWire, type Row } from "../row.ts";
import { withTraceContext, type OutboundTrace, type Tracing } from "../tracing/hook.ts";
import type { Transport } from "../transport/transport.ts";
import { reportUnhandled } from "./advertised.ts";
import { gate } from "./gate.ts";
import type { Inbound } from "./pipeline.ts";
import { DEFAULT_MAX_PENDING, type ConnectionOptions, type Diagnostic } from "./options.ts";
import { PendingMap, type PendingCall } from "./pending.ts";
import type { ConnectionState } from "./state.ts";
import type { Watchdog } from "./watchdog.ts";
import { sessionIdOf } from "../jsonrpc/session-id.ts";

/** What the outbound side needs from its connection (it imports no module that imports it back). */
export interface OutboundHost {
  readonly side: "agent" | "client";
  readonly peerSide: "agent" | "client";
  readonly protocol: Protocol;
  readonly transport: Transport;
  /** Writes one encoded message (its line and newline): `transport.writeMessage` when there is one, else `write`. */
  send(text: string): void;
  /** Why the connection closed; undefined while open. */
  readonly closeInfo: { readonly reason: string } | undefined;
  report(kind: Diagnostic["kind"], message: string, data?: unknown): void;
  /** The connection's watchdog (watchdog.ts), told of each request sent; undefined: none, and nothing is timed. */
  readonly watchdog: Watchdog | undefined;
}

export class Outbound<Peer> {
  readonly pending = new PendingMap();
  /** Ids we stopped waiting for (timeout, stopWaitingOnCancel): their late answers are dropped quietly (responses.ts). */
  readonly abandoned = new Set<number>();
  /** Each row's notification line prefix, computed on first send (per connection: no module-level cache). */
  private readonly prefixes = new Map<object, string>();
  // The connection's parts; responses.ts reads them too when it settles a call.
  readonly core: OutboundHost;
  readonly state: ConnectionState;
  readonly inbound: Inbound<Peer>;
  private readonly maxPending: number;
  private readonly requestTimeoutMs: number | undefined;
  /** How a result that does not match its schema is handled (responses.ts). */
  readonly leniency: NonNullable<ConnectionOptions["leniency"]>;
  /** The agent handles a row with `turnEnd`: sending a notification then checks whether it ends a turn; others skip that. */
  private readonly hasTurnEnd: boolean;
  /** The `tracing` hook; undefined: nothing is added to what is sent. */
  private readonly tracing: Tracing | undefined;

  constructor(core: OutboundHost, state: ConnectionState, inbound: Inbound<Peer>, options: ConnectionOptions) {
    this.core = core;
    this.state = state;
    this.inbound = inbound;
    this.maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
    this.requestTimeoutMs = options.requestTimeoutMs;
    this.leniency = options.leniency ?? "repair";
    this.hasTurnEnd = core.side === "agent" && core.protocol.rows.agent.some((r) => r.turnEnd !== undefined);
    this.tracing = options.tracing;
  }

  /**
   * What the `tracing` hook says of a message about to be sent, and its params
   * with the context in `_meta`. An envelope row (the proxy chain's
   * `proxy/successor`: the row's `envelope` column) carries another message:
   * that message is what is traced, and the context goes in its params, since
   * it is what travels on (the envelope's own `_meta` belongs to one hop).
   */
  private trace(wire: string, row: { readonly envelope?: boolean } | undefined, kind: "request" | "notification", params: unknown, id: number | undefined): { readonly params: unknown; readonly trace: OutboundTrace | undefined } {
    const envelope = row?.envelope === true ? (params as { method?: unknown; params?: unknown } | null | undefined) : undefined;
    const inner = typeof envelope?.method === "string" ? envelope : undefined;
    const carried = inner === undefined ? params : inner.params;
    const trace = this.tracing?.outbound({ method: inner === undefined ? wire : (inner.method as string), kind, side: this.core.side, sessionId: sessionIdOf(carried), requestId: id });
    if (trace?.context === undefined) return { params, trace };
    return { params: inner === undefined ? withTraceContext(params, trace.context) : { ...inner, params: withTraceContext(inner.params, trace.context) }, trace };
  }

  /** A request's line with the hook's context in `_meta`, and the hook's handle on it. */
  private traced(wire: string, row: { readonly envelope?: boolean } | undefined, params: unknown, id: number): { readonly line: string; readonly trace: OutboundTrace | undefined } {
    const { params: sent, trace } = this.trace(wire, row, "request", params, id);
    return { line: encodeRequest(id, wire, sent), trace };
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
    const row = this.core.protocol.inboundRow(this.core.peerSide, "notification", wire);
    if (row !== undefined) {
      const refused = this.refuse(row, wire, params);
      if (refused !== undefined) return refused;
      if (row.layer === "session_control") {
        const sessionId = sessionIdOf(params);
        if (sessionId !== undefined) this.inbound.cancelOwnSession(sessionId);
      }
    }
    if (this.hasTurnEnd) this.state.notificationSent(wire, params);
    if (this.tracing !== undefined) params = this.trace(wire, row, "notification", params, undefined).params;
    try {
      // A row's line starts with its precomputed prefix: no envelope object, the method encoded once.
      this.core.send(row === undefined || params === undefined ? encodeNotification(wire, params) : encodeWithPrefix(this.prefixOf(row, wire), params));
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
    const row = this.core.protocol.resultMarker(this.core.peerSide, wire);
    if (row !== undefined) {
      const refused = this.refuse(row, wire, params);
      if (refused !== undefined) return refused;
    }
    if (this.pending.size >= this.maxPending) {
      return Promise.reject(RpcError.internal(`Too many pending requests (maxPending ${this.maxPending}); not sent`, { maxPending: this.maxPending }));
    }
    if (row === undefined && !isExtensionWire(wire)) this.core.report("unknown_message", `sending "${wire}", which the ${this.core.peerSide} does not handle in the method table`);
    let line: string;
    const id = this.pending.allocate();
    let trace: OutboundTrace | undefined;
    try {
      if (this.tracing !== undefined) ({ line, trace } = this.traced(wire, row, params, id));
      else line = encodeRequest(id, wire, params);
    } catch (error) {
      trace?.end?.({ ok: false, error });
      return Promise.reject(error);
    }
    if (this.core.side === "client" && row?.lifecycle === "initialize") reportUnhandled(this.core, this.inbound.handler, "client", this.state.initializeSent(row, params));
    const sessionId = sessionIdOf(params);
    const sent = new Promise((resolve, reject) => {
      const call: PendingCall = {
        id,
        wire,
        row,
        sessionId,
        sentDuring: this.inbound.lanesSent(),
        resolve,
        reject,
        timer: undefined,
        signal: undefined,
        onAbort: undefined,
        cancelSent: false,
        cancelCause: undefined,
        sentAt: 0,
      };
      this.pending.add(call);
      this.core.send(line);
      this.core.watchdog?.sent(call);
      const timeoutMs = options?.timeoutMs ?? (row?.onCancel === undefined ? this.requestTimeoutMs : undefined);
      if (options !== undefined || timeoutMs !== undefined) this.watch(call, options, timeoutMs);
    });
    const end = trace?.end;
    if (end === undefined) return sent;
    return sent.then(
      (value) => {
        end({ ok: true, value });
        return value;
      },
      (error: unknown) => {
        end({ ok: false, error });
        throw error;
      },
    );
  }

  private watch(call: PendingCall, options: RequestOptions | undefined, timeoutMs: number | undefined): void {
    const signal = options?.signal;
    if (signal) {
      if (signal.aborted) {
        if (options?.stopWaitingOnCancel) return this.abandon(call, new RequestCancelledError("cancel_request"));
        this.sendCancel(call, "cancel_request");
      } else {
        call.signal = signal;
        call.onAbort = options?.stopWaitingOnCancel ? () => this.abandon(call, new RequestCancelledError("cancel_request")) : () => this.sendCancel(call, "cancel_request");
        signal.addEventListener("abort", call.onAbort, { once: true });
      }
    }
    // Infinity (or anything a timer cannot hold, over 2^31-1 ms) means no timeout.
    if (timeoutMs !== undefined && timeoutMs <= MAX_TIMER_MS) {
      call.timer = setTimeout(
        () => {
          call.timer = undefined;
          this.abandon(call, new RequestTimeoutError(call.wire, timeoutMs));
        },
        Math.max(0, timeoutMs),
      );
    }
  }

  /** The watchdog gave up on `call`: as a timeout, `$/cancel_request`, then the rejection with `error`. */
  giveUp(call: PendingCall, error: RequestCancelledError): void {
    this.abandon(call, error);
  }

  /** Sends `$/cancel_request`, stops waiting and rejects the call with `error`. */
  private abandon(call: PendingCall, error: RequestCancelledError): void {
    this.sendCancel(call, error.cause);
    if (!this.pending.take(call.id)) return;
    if (this.abandoned.size < this.maxPending) this.abandoned.add(call.id);
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
    this.core.send(encodeNotification("$/cancel_request", { requestId: call.id }));
  }

  /** The one gate, outbound: the rejection to return without sending, or undefined to send. */
  private refuse(row: Row<never, never>, wire: string, params: unknown): Promise<never> | undefined {
    const refusal = gate(this.core.protocol, this.state, row, this.core.peerSide, params);
    return refusal === undefined ? undefined : Promise.reject(RpcError.methodNotFound(wire, `${refusal.message}; not sent`));
  }

  /** Each row's notification prefix, computed on first send. */
  private prefixOf(row: object, wire: string): string {
    let prefix = this.prefixes.get(row);
    if (prefix === undefined) this.prefixes.set(row, (prefix = notificationPrefix(wire)));
    return prefix;
  }
}

/**
 * What `notify` returns once the line was handed to the transport: one
 * settled promise shared by every call, since nothing is awaited (no
 * allocation per notification; awaiting it costs the caller one microtask).
 */
const SENT: Promise<void> = Promise.resolve();

/** The longest delay `setTimeout` honours (2^31-1 ms, about 24.8 days); longer ones would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;
