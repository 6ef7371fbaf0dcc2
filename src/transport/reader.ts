/**
 * The one message reader: a transport's inbound side as messages. Bytes are
 * framed into lines (`framer.ts`), each line parsed once with the depth bound
 * and classified once; a transport that frames and parses its messages itself
 * (`TransportReceiver.message`) hands them straight through, with the same
 * length bound. The limits are resolved once, by {@link readerLimits}. What
 * to answer for a message that is not one (`-32700`, `-32600`) is the
 * reader's caller's, by one rule (`jsonrpc/classify.ts`, `rejectionId`).
 */
import { classify, type MessageKind } from "../jsonrpc/classify.ts";
import { DEFAULT_MAX_DEPTH, ParseFailure, parseValue } from "../jsonrpc/parse.ts";
import { createFramer, DEFAULT_MAX_MESSAGE_BYTES, isBlank } from "./framer.ts";
import type { Transport, TransportReceiver } from "./transport.ts";

/** The limits of reading, as options give them (every one optional). */
export interface ReaderOptions {
  /** Longest line, in bytes (default 32 MiB); a longer one is skipped and reported to {@link MessageSink.oversized}. */
  readonly maxMessageBytes?: number | undefined;
  /** Deepest JSON nesting (default 128); a deeper line is a `ParseFailure`. */
  readonly maxDepth?: number | undefined;
  /** Recover a message after junk on its line (`framer.ts`); default false. */
  readonly recoverPrefixedLines?: boolean | undefined;
}

/** {@link ReaderOptions} with every default applied. */
export interface ReaderLimits {
  readonly maxMessageBytes: number;
  readonly maxDepth: number;
  readonly recoverPrefixedLines: boolean;
}

/**
 * The defaults of {@link ReaderOptions}, applied once. `transport`: what the
 * transport says of its peer when the options say nothing
 * (`Transport.recoverPrefixedLines`: a spawned process behind a shell).
 */
export function readerLimits(options: ReaderOptions = {}, transport: { readonly recoverPrefixedLines?: boolean | undefined } = {}): ReaderLimits {
  return {
    maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    recoverPrefixedLines: options.recoverPrefixedLines ?? transport.recoverPrefixedLines ?? false,
  };
}

/** Where the reader delivers. */
export interface MessageSink {
  /**
   * One message: `value` is what `parseValue` gave for `line` (a `ParseFailure`
   * too), and `kind` its classification when it is one object (undefined for
   * a failure, a batch or another JSON value).
   */
  message(value: unknown, line: string, kind: MessageKind | undefined): void;
  /** A line longer than the limit was skipped; `length` is how much of it was seen. */
  oversized(length: number): void;
  /** With `recoverPrefixedLines`: junk cut from before a message on its line. */
  prefixed?(prefix: string): void;
  /** The inbound side ended (`error`: why, when it failed). */
  end(error?: Error): void;
}

/** The kind of a parsed value: its classification when it is one object, else undefined. */
export function kindOf(value: unknown): MessageKind | undefined {
  return typeof value !== "object" || value === null || Array.isArray(value) || value instanceof ParseFailure ? undefined : classify(value);
}

/** Where {@link lineReader} delivers: framed lines, unparsed, and nothing answered. */
export interface LineObserver {
  /**
   * One line, without its line ending; never blank. `shallow`: it cannot nest
   * deeper than the limits' `maxDepth` should it parse (pass it on to
   * `parseValue`, which then skips its depth check).
   */
  line(text: string, shallow: boolean): void;
  /** A line longer than the limit was skipped; `length` is how much of it was seen. */
  oversized(length: number): void;
  /** With `recoverPrefixedLines`: junk cut from before a message on its line. */
  prefixed?(prefix: string): void;
}

/**
 * A reader fed by hand: chunks of a stream its caller reads (a child's
 * stdout it also forwards, a socket, the inbound side of a transport it
 * hands on later), for readers that observe, or read only a prefix.
 */
export interface ChunkReader {
  /** A chunk of bytes or text; chunk boundaries mean nothing. */
  push(chunk: Uint8Array | string): void;
  /** End of stream: a last line without a trailing newline is still delivered. */
  end(): void;
  /**
   * Stops reading and hands back the text pushed but not yet delivered:
   * called from the sink while a line is delivered, the rest of the chunk
   * after that line; between pushes, the incomplete last line. Later
   * pushes do nothing. For readers that read a stream's first messages
   * and hand the rest on unchanged (the version router, the client
   * connector's switchboard): they decode bytes themselves and push text,
   * so no character split across chunks is lost.
   */
  release(): string;
}

/**
 * A reader fed by hand that frames lines with `limits` and parses nothing
 * (inspect, check and check-client observe lines; the switchboard looks for
 * one answer). The line framing of {@link readMessages}, bracket counting
 * included.
 */
export function lineReader(sink: LineObserver, limits: ReaderLimits): ChunkReader {
  // The framer counts brackets on the whole chunk: a line with at most maxDepth of them skips parse's depth check.
  return createFramer(sink, limits.maxMessageBytes, limits.maxDepth, limits.recoverPrefixedLines);
}

/**
 * A reader fed by hand that delivers messages as {@link readMessages} does:
 * each line parsed once with `limits.maxDepth` and classified once.
 * Answering what is not a message is the sink's (`jsonrpc/unusable.ts`).
 */
export function messageReader(sink: Omit<MessageSink, "end">, limits: ReaderLimits): ChunkReader {
  return lineReader(
    {
      line(text, shallow) {
        const value = parseValue(text, limits.maxDepth, shallow);
        sink.message(value, text, kindOf(value));
      },
      oversized: (length) => sink.oversized(length),
      prefixed: (prefix) => sink.prefixed?.(prefix),
    },
    limits,
  );
}

/** The defaults, for a line parsed for a receiver that has no limits of its own. */
const DEFAULT_LIMITS = readerLimits();

/**
 * Hands one line a message-level transport read (an SSE event, a WebSocket
 * frame) to `receiver`: parsed once with the receiver's `maxDepth` and
 * classified once, through `message`, when the receiver reads messages
 * (`TransportReceiver.limits`); else as text (`data(line + "\n")`), framed by
 * the receiver. A byte-order mark before it is ignored and a blank line
 * skipped, as the framer does; a line over the receiver's `maxMessageBytes`
 * goes to its `oversized`. `seen`, when given, gets the parsed value and
 * its kind before the receiver does (what the transport must remember of
 * it, such as the session of a request whose answer it will route).
 */
export function deliverLine(receiver: TransportReceiver, line: string, seen?: (value: unknown, kind: MessageKind | undefined) => void): void {
  const limits = receiver.limits;
  if (receiver.message === undefined || limits === undefined) {
    if (seen !== undefined && !isBlank(line)) {
      const value = parseValue(line, DEFAULT_LIMITS.maxDepth);
      seen(value, kindOf(value));
    }
    receiver.data(`${line}\n`);
    return;
  }
  const text = line.charCodeAt(0) === 0xfeff ? line.slice(1) : line;
  if (isBlank(text)) return;
  if (text.length > limits.maxMessageBytes) {
    receiver.oversized?.(text.length);
    return;
  }
  const value = parseValue(text, limits.maxDepth);
  const kind = kindOf(value);
  seen?.(value, kind);
  receiver.message(value, text, kind);
}

/** Starts reading `transport` into `sink` (see the module comment). */
export function readMessages(transport: Transport, sink: MessageSink, limits: ReaderLimits): void {
  startReading(transport, messageReader(sink, limits), sink, limits);
}

/** Starts `transport`: its bytes to `framer`, the messages it parsed itself (within the limit) and its end to `sink`. */
function startReading(transport: Transport, framer: { push(chunk: Uint8Array | string): void; end(): void }, sink: Pick<MessageSink, "message" | "oversized" | "end">, limits: ReaderLimits): void {
  transport.start({
    limits,
    data: (chunk) => framer.push(chunk),
    message(value, line, kind) {
      if (line.length > limits.maxMessageBytes) sink.oversized(line.length);
      else sink.message(value, line, kind ?? kindOf(value));
    },
    oversized: (length) => sink.oversized(length),
    end(error) {
      framer.end();
      sink.end(error);
    },
  });
}

/** Where {@link readLines} delivers: lines as they were framed, unparsed (a message-level transport's messages come parsed). */
export interface LineSink {
  /** One framed line, without its newline. */
  line(text: string): void;
  /** One message a message-level transport framed and parsed itself (see {@link MessageSink.message}). */
  message(value: unknown, line: string, kind: MessageKind | undefined): void;
  oversized(length: number): void;
  end(error?: Error): void;
}

/**
 * Starts reading `transport` into `sink` as lines, parsing nothing: for a
 * router that reads a message's head off its line (`jsonrpc/scan.ts`) and
 * parses only what it cannot read so. Limits as {@link readMessages}.
 */
export function readLines(transport: Transport, sink: LineSink, limits: ReaderLimits): void {
  // No bracket counting: the reader of the head bounds depth as it scans (and `parseValue` where it gives up).
  const framer = createFramer({ line: (text) => sink.line(text), oversized: (length) => sink.oversized(length) }, limits.maxMessageBytes, 0, limits.recoverPrefixedLines);
  startReading(transport, framer, sink, limits);
}
