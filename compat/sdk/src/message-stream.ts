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
import { webStreamTransport } from "../../../src/transport/web.ts";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../../../src/transport/framer.ts";
import type { Transport, TransportReceiver } from "../../../src/transport/transport.ts";
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

/** Raised by the SDK's own stream for a line over its limit. acp-router answers such a line `-32700` instead, so nothing throws this; it is exported for code that names it. */
export class MessageTooLargeError extends Error {
  readonly maxMessageBytes: number;
  constructor(maxMessageBytes: number) {
    super(`ACP message exceeds the maximum size of ${maxMessageBytes} bytes`);
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
    messages ??= messagesOver<Message>(output, input);
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

/**
 * Message streams over bytes, for code that reads the stream itself: one
 * object per line. A line that is not JSON never becomes a message, so it is
 * answered here, `-32700` with `id: null` and the parser's reason, as the
 * core answers it on the byte path.
 */
function messagesOver<Message>(output: WritableStream<Uint8Array>, input: ReadableStream<Uint8Array>): Stream<Message & AnyMessage> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const writer = output.getWriter();
  const parseError = (error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    void writer.write(encoder.encode(`${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error", data: { reason } } })}\n`)).catch(() => {});
  };
  let pending = "";
  const toMessages = new TransformStream<Uint8Array, Message & AnyMessage>({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      let newline = pending.indexOf("\n");
      while (newline >= 0) {
        const line = pending.slice(0, newline).trim();
        pending = pending.slice(newline + 1);
        if (line !== "") {
          try {
            controller.enqueue(JSON.parse(line) as Message & AnyMessage);
          } catch (error) {
            parseError(error);
          }
        }
        newline = pending.indexOf("\n");
      }
    },
  });
  const writable = new WritableStream<Message & AnyMessage>({
    write: (message) => writer.write(encoder.encode(`${JSON.stringify(message)}\n`)),
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  });
  return { readable: input.pipeThrough(toMessages), writable };
}

const transportOf = Symbol("acp-router.transport");

/**
 * A `Stream` that stands for one of acp-router's transports (the remote
 * clients): an app that connects it gets the transport itself. Its message
 * streams are not available; connect it with `connect(stream)`.
 */
export function transportStream(transport: Transport, name: string): Stream {
  const unavailable = (): never => {
    throw new TypeError(`${name}: this stream is connected by agent()/client().connect(stream); its readable and writable are not available.`);
  };
  const stream = {
    get readable(): ReadableStream<AnyMessage> {
      return unavailable();
    },
    get writable(): WritableStream<AnyMessage> {
      return unavailable();
    },
  };
  Object.defineProperty(stream, transportOf, { value: transport });
  return stream;
}

/** The transport for an SDK stream, and the line limit its `ndJsonStream` asked for. */
export function streamTransport(stream: Stream): { transport: Transport; maxMessageBytes: number | undefined } {
  const carried = (stream as unknown as Record<symbol, Transport | undefined>)[transportOf];
  if (carried !== undefined) return { transport: carried, maxMessageBytes: undefined };
  const bytes = (stream as unknown as Record<symbol, Bytes | undefined>)[bytesOf];
  if (bytes !== undefined && !bytes.opened) return { transport: webStreamTransport(bytes.input, bytes.output), maxMessageBytes: bytes.maxMessageBytes };
  return { transport: messageTransport(stream), maxMessageBytes: bytes?.maxMessageBytes };
}

/**
 * A transport over message streams: each inbound object goes to the core as
 * one NDJSON line (so it meets the same pipeline as bytes do), each line the
 * core writes leaves as one object.
 */
function messageTransport(stream: Stream): Transport {
  const writer = stream.writable.getWriter();
  let reader: ReadableStreamDefaultReader<AnyMessage> | undefined;
  let closed = false;
  return {
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
      for (const line of text.split("\n")) if (line !== "") void writer.write(JSON.parse(line) as AnyMessage).catch(() => {});
    },
    close() {
      if (closed) return;
      closed = true;
      void writer.close().catch(() => {});
      void reader?.cancel().catch(() => {});
    },
  };
}
