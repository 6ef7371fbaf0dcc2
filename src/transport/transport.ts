/**
 * The contract between a connection and a stream. Byte transports (stdio,
 * Web and Node streams, memory) move bytes, and framing, parsing and
 * everything after belong to the connection. A transport whose medium frames
 * messages itself (an HTTP body, a WebSocket frame) and has to read them
 * anyway (the remote server routes by kind and session) may hand each one
 * over parsed instead, through `message`, so no message is parsed or
 * classified twice. Outbound, such a transport may take each message whole
 * (`writeMessage`) rather than text to split into lines again.
 */
import type { MessageKind } from "../jsonrpc/classify.ts";
import type { WatchdogOptions } from "../connection/watchdog-options.ts";

/** What a transport calls as bytes (or framed, parsed messages) arrive. */
export interface TransportReceiver {
  /** A chunk of inbound bytes (or text, for string streams). Chunk boundaries mean nothing. */
  data(chunk: Uint8Array | string): void;
  /**
   * One framed message, already parsed: `value` is what `parseValue` (src/jsonrpc/parse.ts)
   * returned for `line` with the connection's `maxDepth` (a `ParseFailure` too: the
   * connection answers and reports it as it would the line), `line` the message's
   * text on one line, without the newline (for limits, taps and logs), and `kind`
   * its `classify` tag when the transport computed it (never for a batch or a
   * failure), so the connection does not classify again. Optional: a receiver without it (a
   * wrapper that only reads bytes) gets `data(line + "\n")` instead, and
   * the transport must fall back to that. Connections always have it.
   */
  message?(value: unknown, line: string, kind?: MessageKind): void;
  /**
   * A message longer than the receiver's limit was skipped (`length`: how much of it was seen),
   * from a transport that frames and reads messages itself (`transport/reader.ts`). Optional, as
   * `message` is; connections have it, and answer it as they answer an oversized line.
   */
  oversized?(length: number): void;
  /**
   * The limits the receiver reads with, resolved once (`ReaderLimits`, by `readerLimits` in
   * `transport/reader.ts`): a transport that parses the messages it hands to
   * `message` parses with `maxDepth` (`deliverLine` there does). Connections have it.
   */
  readonly limits?: { readonly maxMessageBytes: number; readonly maxDepth: number };
  /** The inbound side ended; `error` says why when it failed (stream error, peer exit, overflow). */
  end(error?: Error): void;
}

/**
 * A pipe to the peer: the connection frames, parses and answers what the
 * transport delivers as text and bytes, or, through `TransportReceiver.message`,
 * answers the messages it delivers already framed and parsed. Outbound, it
 * writes text (`write`), or whole messages one at a time (`writeMessage`)
 * to a transport that sends messages.
 */
export interface Transport {
  /** Starts delivering inbound data. Called once by the connection. */
  start(receiver: TransportReceiver): void;
  /** Queues encoded NDJSON text for the peer; writes leave in call order. */
  write(text: string): void;
  /**
   * Hands what was written so far to the stream now, rather than with the
   * rest of this event-loop turn's writes. Optional: a router forwarding the
   * lines of one long chunk calls it every few lines, so the next process
   * starts on the first of them while this one reads on (`src/proxy`).
   */
  flush?(): void;
  /**
   * Queues one whole message for the peer: `text` is its JSON on one line
   * followed by its newline (the very text `write` would get), never part
   * of a message nor two. Optional: for a transport whose medium carries
   * messages (an SSE event, a WebSocket frame, an HTTP body), so it routes
   * and sends each one as it is, without splitting written text into lines
   * again. A connection writes every message it sends through it when the
   * transport has it (decided once, when the connection is made), else
   * through `write`; a transport that has it must still take `write`
   * (wrappers that only know `write`), and both leave in call order. The
   * connection hands over the encoded line, not a parsed value: it encodes
   * its messages without building them as objects.
   */
  writeMessage?(text: string): void;
  /** Flushes what was written, ends the outbound side and stops reading. Idempotent. */
  close(): void;
  /** Stops delivering inbound data until `resume` (backpressure from slow handlers). Optional. */
  pause?(): void;
  /** Delivers inbound data again after `pause`. */
  resume?(): void;
  /** The peer's output may carry junk before messages (a spawned process behind a shell); the default of `ConnectionOptions.recoverPrefixedLines`. */
  readonly recoverPrefixedLines?: boolean;
  /** The default of `ConnectionOptions.watchdog` for a connection over this transport (`spawnAgent`'s `watchdog` option sets it). */
  readonly watchdog?: WatchdogOptions;
  /**
   * Ends the peer now, not politely: a spawned agent's process group gets
   * SIGTERM, then SIGKILL after its `termMs`. Optional; the watchdog's
   * `"kill"` calls it after closing the connection. A transport without it
   * is only closed.
   */
  kill?(): void;
}

/** Largest chunk the coalescer builds: 64 KiB, a pipe's usual buffer, and small enough to stay out of V8's large-object space. */
export const COALESCE_BYTES = 64 * 1024;

/**
 * Joins the writes of one microtask (or of whatever `schedule` waits for,
 * such as Node's `setImmediate`: one event-loop turn) into chunks of up to
 * about {@link COALESCE_BYTES}: fewer syscalls and stream operations under
 * load, and the same bytes in the same order. `flush` may be called
 * synchronously from `write` once a chunk is full.
 */
export function createCoalescer(flush: (text: string) => void, schedule: (run: () => void) => void = queueMicrotask): { write(text: string): void; flushNow(): void } {
  let parts: string[] = [];
  let size = 0;
  let scheduled = false;
  const run = () => {
    if (parts.length === 0) return;
    const text = parts.length === 1 ? (parts[0] as string) : parts.join("");
    parts = [];
    size = 0;
    flush(text);
  };
  const onScheduled = () => {
    scheduled = false;
    run();
  };
  return {
    write(text: string) {
      parts.push(text);
      size += text.length;
      if (size >= COALESCE_BYTES) run();
      else if (!scheduled) {
        scheduled = true;
        schedule(onScheduled);
      }
    },
    flushNow: run,
  };
}

/** The pause state of a transport's read loop (see {@link createPauseGate}). */
export interface PauseGate {
  /** Closes the gate; a no-op while it is closed. */
  pause(): void;
  /** Opens the gate and lets a waiting read loop go on. */
  resume(): void;
  /** What a read loop awaits before its next read: undefined while the gate is open. */
  readonly wait: Promise<void> | undefined;
}

/** Creates an open pause gate, the `pause`/`resume` half of a transport that reads in a loop. */
export function createPauseGate(): PauseGate {
  let closed: { promise: Promise<void>; resolve: () => void } | undefined;
  return {
    pause() {
      if (closed) return;
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      closed = { promise, resolve };
    },
    resume() {
      const c = closed;
      closed = undefined;
      c?.resolve();
    },
    get wait() {
      return closed?.promise;
    },
  };
}

/** Hands one parsed message to `receiver`: through `message` when it has one, else as its line (`data(line + "\n")`). */
export function deliverMessage(receiver: TransportReceiver, value: unknown, line: string, kind?: MessageKind): void {
  if (receiver.message) receiver.message(value, line, kind);
  else receiver.data(`${line}\n`);
}
