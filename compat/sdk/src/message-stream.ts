/**
 * The SDK's `Stream` (a pair of Web streams of JSON-RPC message objects),
 * `ndJsonStream`, and the transport that hands either to acp-router's core.
 *
 * `ndJsonStream(output, input)` keeps the byte streams it was given: when an
 * app connects it unchanged, the core reads the bytes itself (its framer,
 * parser, classification and every error it answers: the fast path, and the
 * one place bad input is judged). Only code that reads `stream.readable` or
 * `stream.writable` itself (a wire tap) gets message objects, parsed here.
 */
import { webStreamTransport } from "acp-router";
import { DEFAULT_MAX_MESSAGE_BYTES } from "acp-router";
import type { Transport, TransportReceiver } from "acp-router";
import type { AnyMessage } from "./wire-types.ts";

export { DEFAULT_MAX_MESSAGE_BYTES };

/** Options of {@link ndJsonStream}. */
export interface NdJsonStreamOptions {
  /** Longest inbound line. Default {@link DEFAULT_MAX_MESSAGE_BYTES} (32 MiB). A longer line is answered `-32700` and skipped; the connection stays open. */
  readonly maxMessageBytes?: number;
}

/** A bidirectional stream of JSON-RPC messages, as the SDK's apps connect to. */
export interface Stream<Message extends AnyMessage = AnyMessage> {
  writable: WritableStream<Message>;
  readable: ReadableStream<Message>;
}

/** Data over a stream's `maxMessageBytes`: an SSE event or answer body on the HTTP client stream (the SDK's own stream raises it for a line too; `ndJsonStream` here answers such a line `-32700` instead). */
export class MessageTooLargeError extends Error {
  readonly maxMessageBytes: number;
  constructor(maxMessageBytes: number) {
    super(`Incoming ACP data exceeds the configured ${maxMessageBytes} byte limit`);
    this.name = "MessageTooLargeError";
    this.maxMessageBytes = maxMessageBytes;
  }
}

const bytesOf = Symbol("acp-router.ndjson-bytes");

interface Bytes {
  readonly output: WritableStream<Uint8Array>;
  readonly input: ReadableStream<Uint8Array>;
  readonly maxMessageBytes: number | undefined;
  /** Set once `readable` or `writable` was read: from then on the message streams own the bytes. */
  opened: boolean;
}

/**
 * NDJSON over a pair of byte streams: `output` carries what this side sends,
 * `input` what it receives (the SDK's argument order: output first).
 */
export function ndJsonStream<Message extends AnyMessage = AnyMessage>(output: WritableStream<Uint8Array>, input: ReadableStream<Uint8Array>, options: NdJsonStreamOptions = {}): Stream<Message> {
  const bytes: Bytes = { output, input, maxMessageBytes: options.maxMessageBytes, opened: false };
  let messages: Stream<Message> | undefined;
  const open = (): Stream<Message> => {
    bytes.opened = true;
    messages ??= messagesOver<Message>(output, input, options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES);
    return messages;
  };
  const stream = {
    get readable() {
      return open().readable;
    },
    set readable(value: ReadableStream<Message>) {
      open().readable = value;
    },
    get writable() {
      return open().writable;
    },
    set writable(value: WritableStream<Message>) {
      open().writable = value;
    },
  };
  Object.defineProperty(stream, bytesOf, { value: bytes });
  return stream;
}

/** The answer the SDK's stream writes for a line it cannot pass on: `id: null`, the error `code`/`message`, and `data` when there is some. */
function lineError(code: number, message: string, data?: unknown): string {
  return `${JSON.stringify({ jsonrpc: "2.0", id: null, error: data === undefined ? { code, message } : { code, message, data } })}\n`;
}

/**
 * Message streams over bytes, for code that reads the stream itself (a wire tap), as the SDK's
 * `ndJsonStream` makes them: one object per line (LF or CRLF; blank lines skipped; a last line
 * without a newline still counts). A line that is not JSON is answered `-32700`; a JSON array
 * (a batch) and a JSON value that is not an object are answered `-32600`, each with `id: null`,
 * on `output`, and never become messages. A line over `maxMessageBytes` is answered `-32700` and
 * skipped (the core's answer; the SDK errors the stream). Each write takes `output`'s writer only
 * while it writes, so the caller may write to `output` too; writes go out in call order.
 * Cancelling the readable cancels `input`.
 */
function messagesOver<Message>(output: WritableStream<Uint8Array>, input: ReadableStream<Uint8Array>, maxMessageBytes: number): Stream<Message & AnyMessage> {
  const encoder = new TextEncoder();
  let queue: Promise<void> = Promise.resolve();
  const writeText = (text: string): Promise<void> => {
    const write = queue.then(async () => {
      const writer = output.getWriter();
      try {
        await writer.write(encoder.encode(text));
      } finally {
        writer.releaseLock();
      }
    });
    queue = write.catch(() => {});
    return write;
  };
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let cancelled = false;
  const readable = new ReadableStream<Message & AnyMessage>({
    async start(controller) {
      const decoder = new TextDecoder();
      const deliver = async (raw: string): Promise<void> => {
        const line = raw.trim();
        if (line === "") return;
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch (error) {
          return writeText(lineError(-32700, "Parse error", { reason: error instanceof Error ? error.message : String(error) })).catch(() => {});
        }
        if (Array.isArray(value)) return writeText(lineError(-32600, "Invalid request: JSON-RPC batches are not supported")).catch(() => {});
        if (typeof value !== "object" || value === null) return writeText(lineError(-32600, "Invalid request", value)).catch(() => {});
        controller.enqueue(value as Message & AnyMessage);
      };
      const current = input.getReader();
      reader = current;
      let pending = "";
      let skipping = false;
      try {
        for (;;) {
          const { done, value } = await current.read();
          if (cancelled) return;
          if (done) break;
          if (value === undefined) continue;
          pending += decoder.decode(value, { stream: true });
          let newline = pending.indexOf("\n");
          while (newline >= 0) {
            const line = pending.slice(0, newline);
            pending = pending.slice(newline + 1);
            if (skipping) skipping = false;
            else await deliver(line);
            if (cancelled) return;
            newline = pending.indexOf("\n");
          }
          if (!skipping && encoder.encode(pending).byteLength > maxMessageBytes) {
            skipping = true;
            pending = "";
            await writeText(lineError(-32700, "Parse error", { reason: `line longer than ${maxMessageBytes} bytes` })).catch(() => {});
          } else if (skipping) pending = "";
        }
        pending += decoder.decode();
        if (!skipping) await deliver(pending);
      } catch (error) {
        if (cancelled) return;
        controller.error(error);
        void current.cancel(error).catch(() => {});
        return;
      } finally {
        if (reader === current) reader = undefined;
        current.releaseLock();
      }
      if (!cancelled) controller.close();
    },
    cancel(reason) {
      cancelled = true;
      return reader?.cancel(reason);
    },
  });
  const writable = new WritableStream<Message & AnyMessage>({
    write: (message) => writeText(`${JSON.stringify(message)}\n`),
  });
  return { readable, writable };
}

/** Whether `stream` is an `ndJsonStream` whose `readable` / `writable` nobody read yet (its bytes can go to the core as they are). */
export function isUnopenedByteStream(stream: Stream): boolean {
  const bytes = (stream as unknown as Record<symbol, Bytes | undefined>)[bytesOf];
  return bytes !== undefined && !bytes.opened;
}

/** The transport for an SDK stream, and the line limit its `ndJsonStream` asked for. */
export function streamTransport(stream: Stream): { transport: Transport; maxMessageBytes: number | undefined } {
  const bytes = (stream as unknown as Record<symbol, Bytes | undefined>)[bytesOf];
  if (bytes !== undefined && !bytes.opened) return { transport: webStreamTransport(bytes.input, bytes.output), maxMessageBytes: bytes.maxMessageBytes };
  return { transport: messageTransport(stream), maxMessageBytes: bytes?.maxMessageBytes };
}

/**
 * A transport over message streams: each inbound object goes to the core as
 * one NDJSON line (so it meets the same pipeline as bytes do), each line the
 * core writes leaves as one object.
 */
function messageTransport(stream: Stream): Transport & { drained(): Promise<void> } {
  const writer = stream.writable.getWriter();
  let reader: ReadableStreamDefaultReader<AnyMessage> | undefined;
  let closed = false;
  let lastWrite: Promise<void> = Promise.resolve();
  return {
    // The SDK's sends resolve once the stream took the message: a paced stream (a server's) holds them back.
    drained: () => lastWrite,
    start(receiver: TransportReceiver) {
      reader = stream.readable.getReader();
      const current = reader;
      void (async () => {
        try {
          for (;;) {
            const { done, value } = await current.read();
            if (done) break;
            receiver.data(`${JSON.stringify(value)}\n`);
          }
          receiver.end();
        } catch (error) {
          receiver.end(error instanceof Error ? error : new Error(String(error)));
        }
      })();
    },
    write(text: string) {
      for (const line of text.split("\n")) if (line !== "") lastWrite = writer.write(JSON.parse(line) as AnyMessage).catch(() => {});
    },
    close() {
      if (closed) return;
      closed = true;
      void writer.close().catch(() => {});
      void reader?.cancel().catch(() => {});
    },
  };
}
