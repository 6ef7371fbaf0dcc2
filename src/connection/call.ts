/**
 * One inbound call (request or notification) and the context its handler
 * receives. A single object per message: the AbortController behind
 * `signal` is created only if a handler reads it.
 */
import type { HandlerContext, RequestId } from "../context.ts";
import type { ExtensionNotification, ExtensionRequest, ParamsInput, ResultOutput } from "../extensions/define.ts";
import type { RequestOptions } from "../peer-caller.ts";
import type { Row } from "../row.ts";
import type { TraceContext } from "../tracing/hook.ts";
import { cancelReasons, type CancelCause } from "./cancel-cause.ts";

import type { Capabilities } from "./state.ts";

export type { Capabilities };

/** What a call needs from its connection. */
export interface CallHost<Peer> {
  readonly peer: Peer;
  readonly isClosed: boolean;
  /** The capabilities each side advertised in `initialize`, as sent (the protocol's types are the handler's view of them). */
  readonly agentCapabilities: Capabilities | undefined;
  readonly clientCapabilities: Capabilities | undefined;
  /** Notification calls that handed out a signal, so close can abort it. */
  readonly liveNotifications: Set<InboundCall<Peer>>;
  /** What `ctx.request` / `ctx.notify` send through: the connection's own extension sender, given to the pipeline when it is built. */
  readonly extensionSender: ExtensionSender;
}

/** The connection's sender of extension methods (a definition, gated and validated, or a raw `_` wire), as `conn.request` / `conn.notify` send them. */
export interface ExtensionSender {
  request(wire: string | ExtensionRequest<unknown, unknown>, params: unknown, options?: RequestOptions): Promise<unknown>;
  notify(wire: string | ExtensionNotification<unknown>, params: unknown): Promise<void>;
}

/** Collects the answers of one accepted batch. */
export interface BatchSink {
  /** One more element of the batch will be answered (called before its answer can arrive). */
  expect(): void;
  add(answer: string): void;
  done(): void;
}

export class InboundCall<Peer> implements HandlerContext<Peer, Capabilities, Capabilities> {
  // One per inbound message: the fields are `declare`d and set in the constructor, since
  // initialised class fields are defined one by one (slower than plain assignments).
  /** The wire method, as received (`_` included for extensions). */
  declare readonly wire: string;
  declare readonly requestId: RequestId | undefined;
  declare readonly sessionId: string | undefined;
  declare readonly row: Row<unknown, unknown> | undefined;
  declare readonly batch: BatchSink | undefined;
  /** Lane key for notifications; undefined for requests. */
  declare readonly lane: string | undefined;
  /** Why it was cancelled (`$/cancel_request`, `session/cancel`, `session/close`; the first cause wins); undefined while not cancelled. */
  declare cancelCause: CancelCause | undefined;
  /** Set when the cancel came from `session/cancel` (the turn is over, whatever the handler answers). */
  declare sessionCancelled: boolean;
  declare answered: boolean;
  /** Set before the handler runs, only with the `tracing` option. */
  declare traceContext: TraceContext | undefined;
  declare private controller: AbortController | undefined;
  declare private readonly host: CallHost<Peer>;

  constructor(host: CallHost<Peer>, wire: string, requestId: RequestId | undefined, sessionId: string | undefined, row: Row<unknown, unknown> | undefined, batch: BatchSink | undefined, lane: string | undefined) {
    this.host = host;
    this.wire = wire;
    this.requestId = requestId;
    this.sessionId = sessionId;
    this.row = row;
    this.batch = batch;
    this.lane = lane;
    this.cancelCause = undefined;
    this.sessionCancelled = false;
    this.answered = false;
    this.traceContext = undefined;
    this.controller = undefined;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.lane !== undefined && !this.answered) this.host.liveNotifications.add(this);
      if (this.cancelCause !== undefined) this.controller.abort(cancelReasons[this.cancelCause]);
      else if (this.host.isClosed) this.controller.abort(cancelReasons.connection_closed);
    }
    return this.controller.signal;
  }

  get peer(): Peer {
    return this.host.peer;
  }

  request<E extends ExtensionRequest<unknown, unknown>>(extension: E, params: ParamsInput<E>, options?: RequestOptions): Promise<ResultOutput<E>>;
  request<R = unknown>(wire: `_${string}`, params: object, options?: RequestOptions): Promise<R>;
  request(wire: `_${string}` | ExtensionRequest<unknown, unknown>, params: unknown, options?: RequestOptions): Promise<unknown> {
    return this.host.extensionSender.request(wire, params, options);
  }

  notify<E extends ExtensionNotification<unknown>>(extension: E, params: ParamsInput<E>): Promise<void>;
  notify(wire: `_${string}`, params: object): Promise<void>;
  notify(wire: `_${string}` | ExtensionNotification<unknown>, params: unknown): Promise<void> {
    return this.host.extensionSender.notify(wire, params);
  }

  get agentCapabilities(): Capabilities | undefined {
    return this.host.agentCapabilities;
  }

  get clientCapabilities(): Capabilities | undefined {
    return this.host.clientCapabilities;
  }

  /** True once `signal` was read: only then may the call sit in the host's `liveNotifications`. */
  get signalled(): boolean {
    return this.controller !== undefined;
  }

  /** Whether a cancel targeted this call (derived from {@link cancelCause}). */
  get cancelled(): boolean {
    return this.cancelCause !== undefined;
  }

  /** Marks the call cancelled for `cause` and aborts its signal (if one was handed out) with that cause's reason. */
  cancel(cause: CancelCause): void {
    if (this.cancelCause !== undefined) return;
    this.cancelCause = cause;
    this.controller?.abort(cancelReasons[cause]);
  }

  /** Aborts the signal because the connection closed. */
  abortForClose(): void {
    this.controller?.abort(cancelReasons.connection_closed);
  }
}
