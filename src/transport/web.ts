/**
 * NDJSON over Web streams (`ReadableStream`/`WritableStream`), for browsers,
 * Deno, Bun and Node's web streams. No `node:` imports.
 */
import { createCoalescer, createPauseGate, type Transport, type TransportReceiver } from "./transport.ts";

/** Options of {@link webStreamTransport}. */
export interface WebStreamOptions {
  /** Close with an error once this many bytes wait for the peer to read. Default 64 MiB. */
  readonly maxWriteQueueBytes?: number;
}

/** A transport over Web streams: reads NDJSON bytes (or text) from `readable`, writes UTF-8 NDJSON to `writable`. */
export function webStreamTransport(readable: ReadableStream<Uint8Array | string>, writable: WritableStream<Uint8Array>, options: WebStreamOptions = {}): Transport {
  const limit = options.maxWriteQueueBytes ?? DEFAULT_MAX_WRITE_QUEUE_BYTES;
  const encoder = new TextEncoder();
  const writer = writable.getWriter();
  let reader: ReadableStreamDefaultReader<Uint8Array | string> | undefined;
  let receiver: TransportReceiver | undefined;
  let queued = 0;
  let closed = false;
  let ended = false;
  const gate = createPauseGate();

  const end = (error?: Error) => {
    if (ended) return;
    ended = true;
    receiver?.end(error);
  };
  const out = createCoalescer((text) => {
    const bytes = encoder.encode(text);
    queued += bytes.length;
    if (queued > limit) {
      end(new Error(`write queue over ${limit} bytes: the peer is not reading`));
      return;
    }
    writer.write(bytes).then(
      () => {
        queued -= bytes.length;
      },
      (error: unknown) => end(asError(error, "write failed")),
    );
  });

  return {
    start(r) {
      receiver = r;
      reader = readable.getReader();
      const pump = async () => {
        for (;;) {
          const { done, value } = await (reader as ReadableStreamDefaultReader<Uint8Array | string>).read();
          if (done) break;
          // Honour backpressure: stop reading while too much output waits, or while paused.
          if (queued > limit / 2) await writer.ready;
          r.data(value);
          if (gate.wait) await gate.wait;
        }
      };
      pump().then(
        () => end(),
        (error: unknown) => end(asError(error, "read failed")),
      );
    },
    write(text) {
      if (!closed) out.write(text);
    },
    pause: () => gate.pause(),
    resume: () => gate.resume(),
    close() {
      if (closed) return;
      out.flushNow();
      closed = true;
      gate.resume();
      reader?.cancel().catch(() => {});
      writer.close().catch(() => {});
      end();
    },
  };
}

/** Default bound on bytes written but not yet taken by the peer: 64 MiB. */
export const DEFAULT_MAX_WRITE_QUEUE_BYTES = 64 * 1024 * 1024;

export function asError(value: unknown, fallback: string): Error {
  return value instanceof Error ? value : new Error(`${fallback}: ${String(value)}`);
}
