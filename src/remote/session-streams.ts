/**
 * The session-scoped event streams of one Streamable HTTP connection
 * (`GET` with `Acp-Session-Id`). Each is an {@link EventStream} that
 * outlives its GETs. A stream opened for a session the connection has not
 * opened (a reconnecting client opens it before `session/load`) is held
 * `earlySessionStreamMs` for that session's lifecycle request; one whose
 * session is no longer open ends; one whose reader dropped and did not come
 * back within `resumeMs` is given up, its waiting events going to the
 * connection's stream.
 */
import { EventStream } from "./event-stream.ts";
import type { Limits } from "./options.ts";
import type { ConnectionSessions } from "./sessions.ts";
import type { EventSink } from "./sink.ts";

/** One session's stream, and since when it waits: for a reader that dropped (`lostAt`), or, opened early, for the session's request (`earlyUntil`). */
interface Entry {
  readonly stream: EventStream;
  lostAt: number | undefined;
  earlyUntil: number | undefined;
}

/** Early streams (sessions not open yet) one connection may hold at once: 64, far more than a client reconnecting its sessions opens together; beyond it, 404. */
export const MAX_EARLY_SESSION_STREAMS = 64;

export class SessionStreams {
  private readonly entries = new Map<string, Entry>();
  private readonly limits: Limits;
  private readonly sessions: ConnectionSessions;

  constructor(limits: Limits, sessions: ConnectionSessions) {
    this.limits = limits;
    this.sessions = sessions;
  }

  /** True when some session has a stream (only then do notifications need their session read). */
  get any(): boolean {
    return this.entries.size > 0;
  }

  /** The stream that carries `sessionId`'s messages, if it has its own. */
  stream(sessionId: string): EventStream | undefined {
    return this.entries.get(sessionId)?.stream;
  }

  /** Streams with a reader attached. */
  get readers(): number {
    let n = 0;
    for (const entry of this.entries.values()) if (entry.stream.sink) n++;
    return n;
  }

  /** True when a GET for `sessionId` would open one more early stream than {@link MAX_EARLY_SESSION_STREAMS}. */
  tooManyEarly(sessionId: string): boolean {
    if (this.sessions.open.has(sessionId) || this.entries.has(sessionId)) return false;
    let early = 0;
    for (const [id, entry] of this.entries) if (entry.earlyUntil !== undefined && !this.sessions.open.has(id)) early++;
    return early >= MAX_EARLY_SESSION_STREAMS;
  }

  /** Attaches a reader to `sessionId`'s stream (created on first use); false when it could not resume. */
  attach(sessionId: string, sink: EventSink, lastEventId: string | undefined): boolean {
    let entry = this.entries.get(sessionId);
    if (entry === undefined) {
      entry = { stream: new EventStream(this.limits), lostAt: undefined, earlyUntil: undefined };
      this.entries.set(sessionId, entry);
    }
    const held = entry;
    if (!this.sessions.open.has(sessionId)) held.earlyUntil = Date.now() + this.limits.earlySessionStreamMs;
    sink.onClose(() => {
      if (held.stream.detach(sink)) held.lostAt = Date.now();
    });
    if (held.stream.attach(sink, lastEventId) !== undefined) return false;
    held.lostAt = undefined;
    return true;
  }

  /**
   * The sweep: returns why a reader is over its bounds (the connection
   * closes), else ends or gives up streams as described above, writing a
   * given-up stream's waiting events to `main`.
   */
  sweep(now: number, main: EventStream): string | undefined {
    for (const [sessionId, entry] of this.entries) {
      const fault = entry.stream.fault(now);
      if (fault) return fault;
      const open = this.sessions.open.has(sessionId) || this.sessions.isPending(sessionId);
      if (!open && (entry.earlyUntil === undefined || now > entry.earlyUntil)) {
        this.entries.delete(sessionId);
        entry.stream.end();
      } else if (entry.stream.sink === undefined && entry.lostAt !== undefined && now - entry.lostAt > this.limits.resumeMs) {
        this.entries.delete(sessionId);
        for (const line of entry.stream.takeUnsent()) {
          const overfull = main.write(line);
          if (overfull) return overfull;
        }
        entry.stream.end();
      }
    }
    return undefined;
  }

  /** Writes a comment (keep-alive) to every attached reader. */
  comment(text: string): void {
    for (const entry of this.entries.values()) entry.stream.comment(text);
  }

  /** Ends every stream. */
  end(): void {
    for (const entry of this.entries.values()) entry.stream.end();
    this.entries.clear();
  }
}
