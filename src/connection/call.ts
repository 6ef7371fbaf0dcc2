/**
 * One inbound call (request or notification) and the context its handler
 * receives. A single object per message: the AbortController behind
 * `signal` is created only if a handler reads it.
 */
import type { HandlerContext, RequestId } from "../context.ts";
import type { AgentCapabilities, ClientCapabilities } from "../generated/types.ts";
import type { Row } from "../row.ts";

/** What a call needs from its connection. */
export interface CallHost<Peer> {
  readonly peer: Peer;
  readonly isClosed: boolean;
  readonly agentCapabilities: AgentCapabilities | undefined;
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** Notification calls that handed out a signal, so close can abort it. */
  readonly liveNotifications: Set<InboundCall<Peer>>;
}

/** Collects the answers of one accepted batch. */
export interface BatchSink {
  add(answer: string): void;
  done(): void;
}

export class InboundCall<Peer> implements HandlerContext<Peer> {
  /** The wire method, as received (`_` included for extensions). */
  readonly wire: string;
  readonly requestId: RequestId | undefined;
  readonly sessionId: string | undefined;
  readonly row: Row<unknown, unknown> | undefined;
  readonly batch: BatchSink | undefined;
  /** Lane key for notifications; undefined for requests. */
  readonly lane: string | undefined;
  /** Set when `$/cancel_request` or `session/cancel` targeted this call. */
  cancelled = false;
  /** Set when the cancel came from `session/cancel` (the turn is over, whatever the handler answers). */
  sessionCancelled = false;
  answered = false;
  private controller: AbortController | undefined;
  private readonly host: CallHost<Peer>;

  constructor(host: CallHost<Peer>, wire: string, requestId: RequestId | undefined, sessionId: string | undefined, row: Row<unknown, unknown> | undefined, batch: BatchSink | undefined, lane: string | undefined) {
    this.host = host;
    this.wire = wire;
    this.requestId = requestId;
    this.sessionId = sessionId;
    this.row = row;
    this.batch = batch;
    this.lane = lane;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.lane !== undefined && !this.answered) this.host.liveNotifications.add(this);
      if (this.cancelled) this.controller.abort(cancelReason);
      else if (this.host.isClosed) this.controller.abort(closeReason);
    }
    return this.controller.signal;
  }

  get peer(): Peer {
    return this.host.peer;
  }

  get agentCapabilities(): AgentCapabilities | undefined {
    return this.host.agentCapabilities;
  }

  get clientCapabilities(): ClientCapabilities | undefined {
    return this.host.clientCapabilities;
  }

  /** Marks the call cancelled and aborts its signal (if one was handed out). */
  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.controller?.abort(cancelReason);
  }

  /** Aborts the signal because the connection closed. */
  abortForClose(): void {
    this.controller?.abort(closeReason);
  }
}

const cancelReason = new DOMException("The request was cancelled", "AbortError");
const closeReason = new DOMException("The connection closed", "AbortError");
