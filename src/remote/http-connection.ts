/**
 * One Streamable HTTP connection: the `Transport` its agent connection
 * writes to, and the streams its lines go out on. Inbound POST bodies are
 * handed to the connection as NDJSON lines, so they pass through the same
 * pipeline as stdio (classification, gates, validation, cancellation,
 * ordering). Outbound lines go to the session's SSE stream when the client
 * opened one, else to the connection's stream, else to a bounded backlog
 * until the client's GET arrives. Flow control: while the connection is
 * paused (handlers behind), inbound messages wait in arrival order and their
 * POSTs are not answered, so a client that waits for each 202 (ours does)
 * stops sending.
 */
import type { RequestId } from "../context.ts";
import type { Transport, TransportReceiver } from "../transport/transport.ts";
import type { Limits, ServedConnection } from "./options.ts";
import { peekLine, sessionOfLine } from "./peek.ts";
import { SSE_KEEPALIVE, sseEvent } from "./protocol.ts";
import type { ConnectionSessions } from "./sessions.ts";
import { readerFault, type EventSink } from "./sink.ts";

/** The answer to the POST that created the connection: the `initialize` answer line and whether it succeeded. */
export interface InitializeAnswer {
  readonly line: string;
  readonly ok: boolean;
}

export class HttpConnection implements Transport {
  readonly id: string;
  readonly sessions: ConnectionSessions;
  served: ServedConnection | undefined;
  /** Our requests to the client, by id: the session their answer must name (null: none). Removed when answered. */
  readonly clientRoutes = new Map<RequestId, string | null>();
  /** `Date.now()` of the last request of the client. */
  lastSeen = Date.now();
  private readonly limits: Limits;
  private readonly onClosed: (connection: HttpConnection) => void;
  private receiver: TransportReceiver | undefined;
  private stream: EventSink | undefined;
  private readonly sessionStreams = new Map<string, EventSink>();
  private backlog: string[] = [];
  private backlogBytes = 0;
  /** Inbound requests that named a session, by id: their answer goes to that session's stream. */
  private readonly answerRoutes = new Map<RequestId, string>();
  private init: { readonly id: RequestId; resolve(answer: InitializeAnswer): void; reject(error: Error): void } | undefined;
  private lastKeepAlive = Date.now();
  private paused = false;
  /** Messages that arrived while paused, in arrival order, with their POSTs' resolvers (true: delivered). */
  private held: { readonly line: string; readonly requestId: RequestId | undefined; readonly session: string | undefined; resolve(delivered: boolean): void }[] = [];
  private closed = false;

  constructor(id: string, sessions: ConnectionSessions, limits: Limits, onClosed: (connection: HttpConnection) => void) {
    this.id = id;
    this.sessions = sessions;
    this.limits = limits;
    this.onClosed = onClosed;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  get hasStream(): boolean {
    return this.stream !== undefined;
  }

  /** True when `sessionId` has its own event stream open. */
  hasSessionStream(sessionId: string): boolean {
    return this.sessionStreams.has(sessionId);
  }

  /** Open SSE streams (connection and session scoped). */
  get streamCount(): number {
    return (this.stream ? 1 : 0) + this.sessionStreams.size;
  }

  start(receiver: TransportReceiver): void {
    this.receiver = receiver;
  }

  /**
   * Hands one inbound message (one line, no newline) to the connection's
   * pipeline; `session` routes its answer. Returns undefined once delivered,
   * or while paused a promise that settles when it is (true) or the
   * connection closed first (false): its POST is answered then.
   */
  deliver(line: string, requestId: RequestId | undefined, session: string | undefined): Promise<boolean> | undefined {
    this.lastSeen = Date.now();
    if (this.paused || this.held.length > 0) return new Promise((resolve) => this.held.push({ line, requestId, session, resolve }));
    this.push(line, requestId, session);
    return undefined;
  }

  private push(line: string, requestId: RequestId | undefined, session: string | undefined): void {
    if (requestId !== undefined && session !== undefined) this.answerRoutes.set(requestId, session);
    this.receiver?.data(`${line}\n`);
  }

  /** Holds further inbound messages (backpressure from slow handlers) until `resume`. */
  pause(): void {
    this.paused = true;
  }

  /** Delivers the held messages in order (until paused again), then lets new ones through. */
  resume(): void {
    this.paused = false;
    while (!this.paused && !this.closed && this.held.length > 0) {
      const next = this.held.shift() as (typeof this.held)[number];
      this.push(next.line, next.requestId, next.session);
      next.resolve(true);
    }
  }

  /** Delivers the `initialize` request and resolves with its answer, which goes in the POST's body instead of a stream. */
  initialize(line: string, id: RequestId): Promise<InitializeAnswer> {
    return new Promise((resolve, reject) => {
      this.init = { id, resolve, reject };
      // Held while paused, the line is delivered later (true) or dropped by close (false), and
      // close rejects `init`: the answer arrives through `init` either way, so the result is not needed.
      void this.deliver(line, undefined, undefined);
    });
  }

  /** Attaches the connection-scoped stream (false when one is open already) and sends the backlog down it. */
  attach(sink: EventSink): boolean {
    if (this.stream || this.closed) return false;
    this.stream = sink;
    sink.onClose(() => {
      if (this.stream !== sink) return;
      this.stream = undefined;
      // No resumability (RFD): what would be sent while nobody reads is lost, so the connection ends.
      this.fail("the client closed the event stream");
    });
    if (this.backlog.length > 0) {
      sink.write(this.backlog.join(""));
      this.backlog = [];
      this.backlogBytes = 0;
    }
    return true;
  }

  /** Attaches a session-scoped stream (false when that session has one open already). */
  attachSession(sessionId: string, sink: EventSink): boolean {
    if (this.sessionStreams.has(sessionId) || this.closed) return false;
    this.sessionStreams.set(sessionId, sink);
    sink.onClose(() => {
      if (this.sessionStreams.get(sessionId) === sink) this.sessionStreams.delete(sessionId);
    });
    return true;
  }

  write(text: string): void {
    if (this.closed) return;
    let start = 0;
    for (let end = text.indexOf("\n"); end !== -1; start = end + 1, end = text.indexOf("\n", start)) if (end > start) this.route(text.slice(start, end));
    if (start < text.length) this.route(text.slice(start));
  }

  private route(line: string): void {
    const peeked = peekLine(line);
    if (this.sessions.waiting) this.sessions.answer(peeked, line);
    let session: string | undefined;
    if (peeked.kind === "result" || peeked.kind === "error") {
      const init = this.init;
      if (init && peeked.id === init.id) {
        this.init = undefined;
        init.resolve({ line, ok: peeked.kind === "result" });
        return;
      }
      if (peeked.id !== undefined && peeked.id !== null && this.answerRoutes.size > 0) {
        session = this.answerRoutes.get(peeked.id);
        if (session !== undefined) this.answerRoutes.delete(peeked.id);
      }
    } else if (peeked.kind === "request") {
      session = sessionOfLine(line);
      if (peeked.id !== undefined && peeked.id !== null) this.clientRoutes.set(peeked.id, session ?? null);
    } else if (peeked.kind === "notification" && this.sessionStreams.size > 0) session = sessionOfLine(line);
    const sink = (session !== undefined ? this.sessionStreams.get(session) : undefined) ?? this.stream;
    const event = sseEvent(line);
    if (sink) {
      sink.write(event);
      const fault = readerFault(sink, this.limits, Date.now());
      if (fault) this.fail(fault);
      return;
    }
    this.backlog.push(event);
    this.backlogBytes += event.length;
    if (this.backlogBytes > this.limits.maxStreamBytes) this.fail(`${this.backlogBytes} bytes wait for an event stream that was never opened (maxStreamBytes ${this.limits.maxStreamBytes})`);
  }

  /** Periodic checks: stalled or overfull readers, idle connections without a stream, keep-alive comments. */
  sweep(now: number): void {
    if (this.closed) return;
    for (const sink of this.sinks()) {
      const fault = readerFault(sink, this.limits, now);
      if (fault) return this.fail(fault);
    }
    if (!this.stream && now - this.lastSeen > this.limits.idleMs) return this.fail(`idle for ${now - this.lastSeen} ms without an event stream (idleMs ${this.limits.idleMs})`);
    if (now - this.lastKeepAlive >= this.limits.keepAliveMs) {
      this.lastKeepAlive = now;
      for (const sink of this.sinks()) sink.write(SSE_KEEPALIVE);
    }
  }

  private sinks(): EventSink[] {
    const all = [...this.sessionStreams.values()];
    if (this.stream) all.push(this.stream);
    return all;
  }

  /** Ends the connection's inbound side with `reason`: the agent connection closes, cancelling its turns. */
  fail(reason: string): void {
    if (this.closed) return;
    if (this.receiver) this.receiver.end(new Error(reason));
    else this.close();
  }

  /** Called by the agent connection as it closes: ends every stream and frees the connection's place. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const init = this.init;
    this.init = undefined;
    init?.reject(new Error("the connection closed before initialize was answered"));
    const sinks = this.sinks();
    this.stream = undefined;
    this.sessionStreams.clear();
    for (const sink of sinks) sink.end();
    this.backlog = [];
    this.backlogBytes = 0;
    for (const held of this.held.splice(0)) held.resolve(false);
    this.answerRoutes.clear();
    this.clientRoutes.clear();
    this.sessions.release();
    this.onClosed(this);
  }
}
