/**
 * An in-memory transport pair that still passes bytes: each side's writes are
 * UTF-8 encoded and delivered to the other side asynchronously, so tests and
 * benchmarks exercise framing exactly as over a pipe. With `strings`, the text
 * itself is delivered (still framed by the reader, never encoded): a
 * conductor's hop to a proxy hosted in its own process.
 */
import { createCoalescer, type Transport, type TransportReceiver } from "./transport.ts";

/** Options of {@link memoryPair}. */
export interface MemoryPairOptions {
  /** Split every delivery into chunks of at most this many bytes (tests of framing). Default: no splitting. */
  readonly chunkBytes?: number;
  /** Deliver the written text as it is instead of its UTF-8 bytes (no encoding, no decoding). Default false. */
  readonly strings?: boolean;
}

/** Two connected transports: what one writes, the other reads. */
export function memoryPair(options: MemoryPairOptions = {}): [Transport, Transport] {
  const a = new MemoryEnd(options.chunkBytes, options.strings === true);
  const b = new MemoryEnd(options.chunkBytes, options.strings === true);
  a.peer = b;
  b.peer = a;
  return [a, b];
}

const encoder = new TextEncoder();

class MemoryEnd implements Transport {
  peer: MemoryEnd | undefined;
  private receiver: TransportReceiver | undefined;
  private early: (Uint8Array | string)[] = [];
  private endedEarly = false;
  private closed = false;
  private paused = false;
  private endDelivered = false;
  private readonly chunkBytes: number | undefined;
  private readonly strings: boolean;
  // Delivery is always asynchronous, as over a pipe: a full chunk may be flushed inside write().
  private readonly out = createCoalescer((text) => {
    const chunk = this.strings ? text : encoder.encode(text);
    queueMicrotask(() => this.peer?.deliver(chunk));
  });

  constructor(chunkBytes: number | undefined, strings: boolean) {
    this.chunkBytes = chunkBytes;
    this.strings = strings;
  }

  start(receiver: TransportReceiver): void {
    this.receiver = receiver;
    this.deliverEarly();
  }

  write(text: string): void {
    if (!this.closed) this.out.write(text);
  }

  flush(): void {
    this.out.flushNow();
  }

  close(): void {
    if (this.closed) return;
    this.out.flushNow();
    this.closed = true;
    const peer = this.peer;
    // The peer sees end-of-stream after everything already written.
    queueMicrotask(() => peer?.finish());
    this.finish();
  }

  deliver(chunk: Uint8Array | string): void {
    const size = this.chunkBytes;
    if (size === undefined || chunk.length <= size) this.receive(chunk);
    else for (let i = 0; i < chunk.length; i += size) this.receive(typeof chunk === "string" ? chunk.slice(i, i + size) : chunk.subarray(i, i + size));
  }

  private receive(bytes: Uint8Array | string): void {
    if (this.receiver && !this.paused && this.early.length === 0) this.receiver.data(bytes);
    else this.early.push(bytes);
  }

  /** Holds deliveries (they queue, as a pipe's buffer would) until `resume`. */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.deliverEarly();
  }

  /** Delivers what waited (unless paused), then end-of-stream if it came. */
  private deliverEarly(): void {
    if (!this.receiver || this.early.length === 0) return this.deliverEnd();
    const chunks = this.early;
    this.early = [];
    let i = 0;
    while (i < chunks.length && !this.paused) this.receiver.data(chunks[i++] as Uint8Array | string);
    // Paused again by a receiver: what is left goes back in front of anything newer.
    if (i < chunks.length) this.early = chunks.slice(i).concat(this.early);
    this.deliverEnd();
  }

  /** Passes end-of-stream on once everything before it was delivered. */
  private deliverEnd(): void {
    if (!this.endedEarly || this.endDelivered || this.paused || this.early.length > 0 || !this.receiver) return;
    this.endDelivered = true;
    this.receiver.end();
  }

  private finish(): void {
    if (this.endedEarly) return;
    this.endedEarly = true;
    this.deliverEnd();
  }
}
