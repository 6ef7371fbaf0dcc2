/**
 * One Streamable HTTP connection: the `Transport` its agent connection
 * writes to, and the streams its lines go out on. Inbound POST bodies,
 * parsed and classified once by the endpoint, are handed to the connection
 * as messages (`TransportReceiver.message`), so they pass through the same
 * pipeline as stdio (gates, validation, cancellation, ordering) without
 * being parsed again. Outbound lines go to the session's SSE stream when the client
 * opened one, else to the connection's stream ({@link EventStream}: event
 * ids, a bounded backlog while no GET reads it, a bounded replay buffer for
 * a GET that resumes with `Last-Event-ID`). A dropped stream is waited for
 * (`resumeMs`) instead of ending the connection. Flow control: while the connection is
 * paused (handlers behind), inbound messages wait in arrival order and their
 * POSTs are not answered, so a client that waits for each 202 (ours does)
 * stops sending.
 */
import type { RequestId } from "../context.ts";
import type { MessageKind } from "../jsonrpc/classify.ts";
import { lineReader, type ChunkReader } from "../transport/reader.ts";
import { deliverMessage, type Transport, type TransportReceiver } from "../transport/transport.ts";
import { EventStream, type ResumeRefusal } from "./event-stream.ts";
import type { Limits, ServedConnection } from "./options.ts";
import { sessionIdOfLine } from "../jsonrpc/session-id.ts";
import { peekLine } from "./peek.ts";
import { messageLine, OWN_OUTPUT, SSE_KEEPALIVE } from "./protocol.ts";
import type { ConnectionSessions } from "./sessions.ts";
import { SessionStreams } from "./session-streams.ts";
import type { EventSink } from "./sink.ts";

/** The answer to the POST that created the connection: the `initialize` answer line and whether it succeeded. */
export interface InitializeAnswer {
  readonly line: string;
  readonly ok: boolean;
}

/** One inbound message as the endpoint read it: the parsed value, its text on one line, its kind. */
export interface InboundMessage {
  readonly value: unknown;
  readonly line: string;
  readonly kind: MessageKind;
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
  /** The connection-scoped stream: ids, backlog and replay buffer outlive its GETs. */
  private readonly main: EventStream;
  /** When the connection stream's reader dropped (it is waited for `resumeMs`), or undefined. */
  private lostAt: number | undefined;
  private readonly sessionStreams: SessionStreams;
  /** Splits text written with `write` into lines (our own output: no length bound); made on first use: connections write messages (`writeMessage`). */
  private lines: ChunkReader | undefined;
  /** Inbound requests that named a session, by id: their answer goes to that session's stream. */
  private readonly answerRoutes = new Map<RequestId, string>();
  private init: { readonly id: RequestId; resolve(answer: InitializeAnswer): void; reject(error: Error): void } | undefined;
  private lastKeepAlive = Date.now();
  private paused = false;
  /** Messages that arrived while paused, in arrival order, with their POSTs' resolvers (true: delivered). */
  private held: { readonly message: InboundMessage; readonly requestId: RequestId | undefined; readonly session: string | undefined; resolve(delivered: boolean): void }[] = [];
  private closed = false;

  constructor(id: string, sessions: ConnectionSessions, limits: Limits, onClosed: (connection: HttpConnection) => void) {
    this.id = id;
    this.sessions = sessions;
    this.limits = limits;
    this.onClosed = onClosed;
    this.main = new EventStream(limits);
    this.sessionStreams = new SessionStreams(limits, sessions);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  get hasStream(): boolean {
    return this.main.sink !== undefined;
  }

  /** True when `sessionId` has its own event stream open. */
  hasSessionStream(sessionId: string): boolean {
    return this.sessionStreams.stream(sessionId)?.sink !== undefined;
  }

  /** Open SSE streams (connection and session scoped). */
  get streamCount(): number {
    return (this.main.sink ? 1 : 0) + this.sessionStreams.readers;
  }

  /** True when a GET for `sessionId`, a session this connection has not opened, would hold one early stream too many. */
  tooManyEarlyStreams(sessionId: string): boolean {
    return this.sessionStreams.tooManyEarly(sessionId);
  }

  /** Where a GET of the connection stream (or of `sessionId`'s) with `lastEventId` would start, or why it is refused. */
  resumable(sessionId: string | undefined, lastEventId: string | undefined): ResumeRefusal | undefined {
    const stream = sessionId === undefined ? this.main : this.sessionStreams.stream(sessionId);
    if (stream === undefined) return lastEventId === undefined ? undefined : { status: 410, message: "the session's event stream is no longer held: it cannot be resumed" };
    const start = stream.start(lastEventId);
    return typeof start === "number" ? undefined : start;
  }

  start(receiver: TransportReceiver): void {
    this.receiver = receiver;
  }

  /**
   * Hands one inbound message, as the endpoint parsed and classified it, to
   * the connection's pipeline; `session` routes its answer. Returns undefined
   * once delivered, or while paused a promise that settles when it is (true)
   * or the connection closed first (false): its POST is answered then.
   */
  deliver(message: InboundMessage, requestId: RequestId | undefined, session: string | undefined): Promise<boolean> | undefined {
    this.lastSeen = Date.now();
    if (this.paused || this.held.length > 0) return new Promise((resolve) => this.held.push({ message, requestId, session, resolve }));
    this.push(message, requestId, session);
    return undefined;
  }

  private push(message: InboundMessage, requestId: RequestId | undefined, session: string | undefined): void {
    if (requestId !== undefined && session !== undefined) this.answerRoutes.set(requestId, session);
    if (this.receiver) deliverMessage(this.receiver, message.value, message.line, message.kind);
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
      this.push(next.message, next.requestId, next.session);
      next.resolve(true);
    }
  }

  /** Delivers the `initialize` request and resolves with its answer, which goes in the POST's body instead of a stream. */
  initialize(message: InboundMessage, id: RequestId): Promise<InitializeAnswer> {
    return new Promise((resolve, reject) => {
      this.init = { id, resolve, reject };
      // Held while paused, the line is delivered later (true) or dropped by close (false), and
      // close rejects `init`: the answer arrives through `init` either way, so the result is not needed.
      void this.deliver(message, undefined, undefined);
    });
  }

  /**
   * Attaches the connection-scoped stream and sends what waits for it: the
   * events after `lastEventId`, or without one those no reader had yet.
   * False (the sink is ended) when the connection closed or cannot resume.
   */
  attach(sink: EventSink, lastEventId?: string): boolean {
    if (this.closed) return false;
    sink.onClose(() => {
      if (!this.main.detach(sink)) return;
      // Resumable: what is written meanwhile waits (and stays in the replay buffer) for the next GET.
      this.lostAt = this.lastSeen = Date.now();
    });
    const refusal = this.main.attach(sink, lastEventId);
    if (refusal !== undefined) return false;
    this.lostAt = undefined;
    return true;
  }

  /**
   * Attaches a session-scoped stream. One for a session this connection has
   * not opened is held `earlySessionStreamMs` for its `session/load`,
   * `session/resume` or `session/delete` (the sweep ends it otherwise).
   */
  attachSession(sessionId: string, sink: EventSink, lastEventId?: string): boolean {
    return !this.closed && this.sessionStreams.attach(sessionId, sink, lastEventId);
  }

  /** One message the agent connection sends, routed to its stream as it is. */
  writeMessage(text: string): void {
    if (!this.closed) this.route(messageLine(text));
  }

  /** Text from a writer that only knows `write`: split into lines, each routed. */
  write(text: string): void {
    if (this.closed) return;
    this.lines ??= lineReader({ line: (line) => this.route(line), oversized: () => {} }, OWN_OUTPUT);
    this.lines.push(text);
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
      session = sessionIdOfLine(line);
      if (peeked.id !== undefined && peeked.id !== null) this.clientRoutes.set(peeked.id, session ?? null);
    } else if (peeked.kind === "notification" && this.sessionStreams.any) session = sessionIdOfLine(line);
    const stream = (session !== undefined ? this.sessionStreams.stream(session) : undefined) ?? this.main;
    const fault = stream.write(line);
    if (fault) this.fail(fault);
  }

  /** Periodic checks: stalled or overfull readers, streams not resumed in time, idle connections, keep-alive comments. */
  sweep(now: number): void {
    if (this.closed) return;
    const fault = this.main.fault(now);
    if (fault) return this.fail(fault);
    const sessionFault = this.sessionStreams.any ? this.sessionStreams.sweep(now, this.main) : undefined;
    if (sessionFault) return this.fail(sessionFault);
    if (this.main.sink === undefined) {
      if (this.lostAt !== undefined && now - this.lostAt > this.limits.resumeMs) return this.fail(`the event stream dropped ${now - this.lostAt} ms ago and was not resumed (resumeMs ${this.limits.resumeMs})`);
      if (now - this.lastSeen > this.limits.idleMs) return this.fail(`idle for ${now - this.lastSeen} ms without an event stream (idleMs ${this.limits.idleMs})`);
    }
    if (now - this.lastKeepAlive >= this.limits.keepAliveMs) {
      this.lastKeepAlive = now;
      this.main.comment(SSE_KEEPALIVE);
      this.sessionStreams.comment(SSE_KEEPALIVE);
    }
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
    this.main.end();
    this.sessionStreams.end();
    for (const held of this.held.splice(0)) held.resolve(false);
    this.answerRoutes.clear();
    this.clientRoutes.clear();
    this.sessions.release();
    this.onClosed(this);
  }
}
