/**
 * One server-sent event stream of a Streamable HTTP connection (the
 * connection's own, or one session's), as it outlives the GET requests that
 * read it: every event gets the next `id`; events written while no reader is
 * attached wait (the backlog, bounded by `maxStreamBytes`); events already
 * written stay in a replay buffer (bounded by `replayBytes`) so that a
 * reader that reconnects with `Last-Event-ID` gets exactly the events after
 * that id, once, in order. Past the buffer it gets an error, never a gap.
 */
import { backlogAllowance, readerFault, type EventSink, type ReaderBounds } from "./sink.ts";

/** The bounds of one stream: the reader bounds plus the replay buffer. */
export interface StreamBounds extends ReaderBounds {
  /** Bytes of already written events kept for a reader that resumes. */
  readonly replayBytes: number;
}

/** Why a resuming reader cannot be attached: the HTTP status and the message. */
export interface ResumeRefusal {
  readonly status: number;
  readonly message: string;
}

export class EventStream {
  /** Id of the next event. Ids start at 1, so `Last-Event-ID: 0` means "from the start". */
  private nextId = 1;
  /** The lines of the events still held, oldest first, from `head`; the one at `head` has id `firstId`. */
  private events: string[] = [];
  private head = 0;
  private firstId = 1;
  /** Bytes (UTF-16 units) of the held events, and of those no reader was handed yet. */
  private bytes = 0;
  private unsentBytes = 0;
  /** Id of the last event handed to a reader. */
  private sentUpTo = 0;
  /** The largest event this stream carried: the reader bounds count the backlog beyond two such messages. */
  private largest = 0;
  private current: EventSink | undefined;
  private readonly bounds: StreamBounds;

  constructor(bounds: StreamBounds) {
    this.bounds = bounds;
  }

  /** The attached reader, if any. */
  get sink(): EventSink | undefined {
    return this.current;
  }

  /** Id of the last event written (0: none yet). */
  get lastId(): number {
    return this.nextId - 1;
  }

  /**
   * Frames `line` as the next event and writes it to the reader, or holds it
   * for the next one. Returns why the stream is over its bounds (the caller
   * closes the connection), or undefined.
   */
  write(line: string): string | undefined {
    const event = frame(this.nextId++, line);
    const size = event.length;
    this.events.push(line);
    this.bytes += size;
    if (size > this.largest) this.largest = size;
    const sink = this.current;
    if (sink === undefined) {
      this.unsentBytes += size;
      if (this.unsentBytes - backlogAllowance(this.largest) > this.bounds.maxStreamBytes) return `${this.unsentBytes} bytes wait for an event stream that is not open (maxStreamBytes ${this.bounds.maxStreamBytes})`;
      return undefined;
    }
    sink.write(event);
    this.sentUpTo = this.nextId - 1;
    this.trim();
    return readerFault(sink, this.bounds, Date.now(), backlogAllowance(this.largest));
  }

  /** Why the attached reader is over its bounds now (the sweep), or undefined. */
  fault(now: number): string | undefined {
    return this.current === undefined ? undefined : readerFault(this.current, this.bounds, now, backlogAllowance(this.largest));
  }

  /**
   * Where a reader with `lastEventId` would start: without one, at the first
   * event no reader was handed yet; with one, right after it. A refusal when
   * the replay buffer no longer holds every event after it (410), or when the
   * stream never sent that id (400).
   */
  start(lastEventId: string | undefined): number | ResumeRefusal {
    if (lastEventId === undefined) return this.sentUpTo + 1;
    const text = lastEventId.trim();
    const last = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
    if (!(last <= this.lastId)) return { status: 400, message: `Last-Event-ID ${JSON.stringify(lastEventId)} was never sent on this stream (its last id is ${this.lastId})` };
    if (last + 1 < this.firstId) return { status: 410, message: `events ${last + 1} to ${this.firstId - 1} of this stream are no longer held (replayBytes ${this.bounds.replayBytes}): they cannot be resumed` };
    return last + 1;
  }

  /**
   * Attaches a reader (ending the one attached before) and writes it every
   * event from {@link start}; a refusal ends `sink` instead.
   */
  attach(sink: EventSink, lastEventId: string | undefined): ResumeRefusal | undefined {
    const from = this.start(lastEventId);
    if (typeof from !== "number") {
      sink.end();
      return from;
    }
    const previous = this.current;
    this.current = sink;
    previous?.end();
    let text = "";
    for (let i = this.head + (from - this.firstId), id = from; i < this.events.length; i++, id++) text += frame(id, this.events[i] as string);
    if (text !== "") sink.write(text);
    this.unsentBytes = 0;
    this.sentUpTo = this.lastId;
    this.trim();
    return undefined;
  }

  /** Detaches `sink` if it is the attached reader (its request ended); later events wait for the next one. */
  detach(sink: EventSink): boolean {
    if (this.current !== sink) return false;
    this.current = undefined;
    return true;
  }

  /** Writes `text` (a comment) to the reader only: it gets no id and is not replayed. */
  comment(text: string): void {
    this.current?.write(text);
  }

  /** Removes and returns the lines no reader was handed yet (a session stream given up: they go to the connection's stream). */
  takeUnsent(): string[] {
    const count = this.lastId - this.sentUpTo;
    const lines = this.events.slice(this.events.length - count);
    this.events.length -= count;
    this.bytes -= this.unsentBytes;
    this.unsentBytes = 0;
    this.nextId = this.sentUpTo + 1;
    return lines;
  }

  /** Ends the reader and drops every held event. */
  end(): void {
    const sink = this.current;
    this.current = undefined;
    this.events = [];
    this.head = 0;
    this.firstId = this.nextId;
    this.bytes = 0;
    this.unsentBytes = 0;
    this.sentUpTo = this.lastId;
    sink?.end();
  }

  /** Drops the oldest already-written events beyond `replayBytes`. */
  private trim(): void {
    const limit = this.bounds.replayBytes;
    while (this.bytes - this.unsentBytes > limit && this.head < this.events.length) {
      this.bytes -= (this.events[this.head] as string).length + frameOverhead(this.firstId);
      this.events[this.head] = "";
      this.head++;
      this.firstId++;
    }
    // Compact once the dropped prefix is the larger part (amortized O(1) per event).
    if (this.head > 64 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }
}

/** One SSE event: the id line, the data line (a JSON text never holds a raw line break), the blank line. */
function frame(id: number, line: string): string {
  return `id: ${id}\ndata: ${line}\n\n`;
}

/** The characters `frame` adds around a line. */
function frameOverhead(id: number): number {
  return 13 + String(id).length;
}
