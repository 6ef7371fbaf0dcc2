/**
 * NDJSON over Node streams (stdio, sockets, pipes). Backpressure: while the
 * peer is not reading our output, inbound reading pauses; past the write
 * queue bound the transport ends with an error instead of growing.
 */
import type { Readable, Writable } from "node:stream";
import { createCoalescer, type Transport, type TransportReceiver } from "./transport.ts";
import { asError, DEFAULT_MAX_WRITE_QUEUE_BYTES } from "./web.ts";

/** Options of {@link nodeStreamTransport}. */
export interface NodeStreamOptions {
  /** Close with an error once this many bytes wait in the writable's buffer. Default 64 MiB. */
  readonly maxWriteQueueBytes?: number;
  /** End the writable when the connection closes. Default true; false for `process.stdout`. */
  readonly endWritable?: boolean;
}

/** A transport over Node streams (stdio, pipes, sockets). */
export function nodeStreamTransport(readable: Readable, writable: Writable, options: NodeStreamOptions = {}): Transport {
  const limit = options.maxWriteQueueBytes ?? DEFAULT_MAX_WRITE_QUEUE_BYTES;
  let receiver: TransportReceiver | undefined;
  let closed = false;
  let ended = false;
  let waitingDrain = false;
  // Reading pauses while the peer does not read our output, or while handlers lag behind.
  let handlersBehind = false;
  const updateFlow = () => {
    if (closed || ended) return;
    if (waitingDrain || handlersBehind) readable.pause();
    else readable.resume();
  };

  const onData = (chunk: Uint8Array | string) => receiver?.data(chunk);
  const onEnd = () => finish();
  const onReadError = (error: Error) => finish(error);
  const onWriteError = (error: Error) => finish(asError(error, "write failed"));
  const onDrain = () => {
    waitingDrain = false;
    updateFlow();
  };
  const detach = () => {
    readable.off("data", onData);
    readable.off("end", onEnd);
    readable.off("close", onEnd);
    readable.off("error", onReadError);
    writable.off("error", onWriteError);
    writable.off("drain", onDrain);
  };
  const finish = (error?: Error) => {
    if (ended) return;
    ended = true;
    detach();
    // Swallow late errors from streams we no longer use.
    readable.on("error", ignore);
    writable.on("error", ignore);
    receiver?.end(error);
  };

  const out = createCoalescer((text) => {
    if (writable.destroyed || writable.writableEnded) return;
    const ok = writable.write(text);
    if (writable.writableLength > limit) {
      finish(new Error(`write queue over ${limit} bytes: the peer is not reading`));
      writable.destroy();
      return;
    }
    if (!ok && !waitingDrain) {
      waitingDrain = true;
      updateFlow();
      writable.once("drain", onDrain);
    }
  }, afterMicrotasks);

  return {
    start(r) {
      receiver = r;
      // Node's native decoder handles characters split across chunks.
      if (!readable.readableObjectMode) readable.setEncoding("utf8");
      readable.on("data", onData);
      readable.on("end", onEnd);
      readable.on("close", onEnd);
      readable.on("error", onReadError);
      writable.on("error", onWriteError);
      if (readable.readableEnded) finish();
    },
    write(text) {
      if (!closed) out.write(text);
    },
    flush: () => out.flushNow(),
    pause() {
      handlersBehind = true;
      updateFlow();
    },
    resume() {
      handlersBehind = false;
      updateFlow();
    },
    close() {
      if (closed) return;
      out.flushNow();
      closed = true;
      readable.pause();
      if (options.endWritable !== false && !writable.writableEnded) writable.end();
      finish();
    },
  };
}

function ignore(): void {}

/**
 * Runs `run` once the microtask queue has drained, still in the same event
 * loop turn: a microtask hands it to `process.nextTick`, and Node runs ticks
 * queued by a microtask only after every microtask (chained ones included).
 * So the writes of handlers that await between them (an agent streaming
 * `session/update`s then answering, for each line of a chunk) leave as one
 * `write`, one syscall, instead of one per await step; latency is the same.
 */
function afterMicrotasks(run: () => void): void {
  queueMicrotask(() => process.nextTick(run));
}
