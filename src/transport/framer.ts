/**
 * NDJSON framing (DESIGN §4.1): one message per line, `\r\n` tolerated,
 * blank lines skipped, and a line longer than the limit reported once and
 * skipped up to its newline without being buffered. Chunk boundaries do not
 * matter, multi-byte characters split across chunks included.
 */

import { withinDepth } from "../jsonrpc/parse.ts";

export interface FrameSink {
  /**
   * One complete line, without its line ending. Never blank. `shallow` is
   * true when the line, should it parse, cannot nest deeper than the
   * framer's `bracketLimit`: it is short enough (`withinDepth` in
   * jsonrpc/parse.ts), or the framer counted at most that many opening
   * brackets (`{`, `[`) in it.
   */
  line(text: string, shallow: boolean): void;
  /** A line longer than the limit was skipped; `length` is how much of it was seen. */
  oversized(length: number): void;
  /**
   * With `recoverPrefixed`: `prefix` was cut from the front of a line that
   * did not start with a message, and the JSON-RPC object after it went to
   * `line`. Optional.
   */
  prefixed?(prefix: string): void;
}

/** Default `maxMessageBytes`: 32 MiB, well above any real ACP message, far below memory trouble. */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

export interface Framer {
  push(chunk: Uint8Array | string): void;
  /** End of stream: a last line without a trailing newline is still delivered. */
  end(): void;
  /**
   * Stops framing and returns the text pushed but not yet delivered as a
   * line: called from {@link FrameSink.line}, the rest of the chunk after
   * that line (and nothing more of it is delivered); called between pushes,
   * the incomplete last line. Later `push` and `end` calls do nothing. For
   * readers that frame only a prefix of a stream and hand the rest on
   * unchanged (the version router, the client connector's switchboard).
   * Bytes of a character split across chunks are kept only by pushing text:
   * such readers decode themselves and push strings.
   */
  release(): string;
}

/**
 * Creates a framer. The limit is checked against the decoded line length
 * (UTF-16 code units), which never exceeds the line's UTF-8 byte length.
 * `bracketLimit` (default 0: never counted) is how many opening brackets a
 * line may have to be delivered as `shallow`. `recoverPrefixed` (default
 * false: every line is delivered whole) delivers, for a line that does not
 * start with `{` or `[` but holds `{"jsonrpc"` further on (a terminal escape
 * or a shell greeting before the message), the part from that `{` on, and
 * reports the cut to `sink.prefixed`. Lines starting with a message pay nothing.
 */
export function createFramer(sink: FrameSink, maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES, bracketLimit = 0, recoverPrefixed = false): Framer {
  const decode = createUtf8Decoder();
  let pending = "";
  let skipping = false;
  let skipped = 0;
  let released = false;
  // The text being split and where its next line starts: what release() hands back from inside sink.line.
  let splitting = "";
  let cursor = 0;
  // The next "{" and "[" of the text being split, at or after the line being counted (text.length:
  // none left). Searching the whole decoded chunk is cheaper than searching each line cut from it.
  let braceAt = -1;
  let bracketAt = -1;

  /** True when `text` has at most `bracketLimit` opening brackets in [from, to). */
  const fewBracketsIn = (text: string, from: number, to: number): boolean => {
    let n = 0;
    if (braceAt < from) braceAt = indexOrEnd(text, "{", from);
    while (braceAt < to) {
      if (++n > bracketLimit) return false;
      braceAt = indexOrEnd(text, "{", braceAt + 1);
    }
    if (bracketAt < from) bracketAt = indexOrEnd(text, "[", from);
    while (bracketAt < to) {
      if (++n > bracketLimit) return false;
      bracketAt = indexOrEnd(text, "[", bracketAt + 1);
    }
    return true;
  };

  const emit = (text: string, shallow: boolean) => {
    const end = text.charCodeAt(text.length - 1) === 13 /* \r */ ? text.length - 1 : text.length;
    // A byte-order mark before a message is ignored, as RFC 8259 §8.1 allows parsers to.
    const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    const line = start === 0 && end === text.length ? text : text.slice(start, end);
    if (line.length > maxMessageBytes) sink.oversized(line.length);
    else if (isBlank(line)) return;
    else if (recoverPrefixed && !startsMessage(line)) {
      const at = messageStart(line);
      // Whitespace before a message is JSON's own business, not junk.
      const cut = at > 0 && !isBlank(line.slice(0, at));
      if (cut) sink.prefixed?.(line.slice(0, at));
      sink.line(cut ? line.slice(at) : line, false);
    } else sink.line(line, shallow);
  };

  const pushText = (text: string) => {
    let start = 0;
    braceAt = -1;
    bracketAt = -1;
    splitting = text;
    for (;;) {
      if (released) return;
      const nl = text.indexOf("\n", start);
      if (nl === -1) break;
      cursor = nl + 1;
      if (skipping) {
        skipping = false;
        sink.oversized(skipped + nl - start);
      } else if (pending.length > 0) {
        const whole = pending + text.slice(start, nl);
        pending = "";
        emit(whole, false);
      } else emit(text.slice(start, nl), bracketLimit > 0 && (withinDepth(nl - start, bracketLimit) || fewBracketsIn(text, start, nl)));
      start = nl + 1;
    }
    splitting = "";
    if (released || start >= text.length) return;
    const rest = text.length - start;
    if (skipping) skipped += rest;
    // One extra unit: a trailing "\r" is not part of the line.
    else if (pending.length + rest > maxMessageBytes + 1) {
      skipping = true;
      skipped = pending.length + rest;
      pending = "";
    } else pending = start === 0 && pending.length === 0 ? text : pending + text.slice(start);
  };

  return {
    push(chunk) {
      if (!released) pushText(typeof chunk === "string" ? chunk : decode(chunk, false));
    },
    release() {
      if (released) return "";
      released = true;
      const rest = splitting === "" ? pending : splitting.slice(cursor);
      pending = "";
      splitting = "";
      return rest;
    },
    end() {
      if (released) return;
      pushText(decode(EMPTY, true));
      if (skipping) {
        skipping = false;
        sink.oversized(skipped);
      } else if (pending.length > 0) {
        const last = pending;
        pending = "";
        emit(last, false);
      }
    },
  };
}

/** The index of `char` in `text` at or after `from`, or `text.length` when there is none. */
function indexOrEnd(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at === -1 ? text.length : at;
}

function startsMessage(line: string): boolean {
  const c = line.charCodeAt(0);
  return c === 123 || c === 91;
}

/** Where a JSON-RPC object (`{`, optional whitespace, `"jsonrpc"`, `:`) starts in `line`, or -1. */
function messageStart(line: string): number {
  const match = /\{\s*"jsonrpc"\s*:/.exec(line);
  return match ? match.index : -1;
}

/** True for an empty or whitespace-only line (skipped, never answered; transports that frame messages themselves skip them too). */
export function isBlank(line: string): boolean {
  if (line.length === 0) return true;
  const c = line.charCodeAt(0);
  // Messages start with "{" or "["; only then is a full whitespace check needed.
  if (c === 123 || c === 91) return false;
  return line.trim().length === 0;
}

const EMPTY = new Uint8Array(0);

/**
 * A streaming UTF-8 decoder: a multi-byte character split across chunks is
 * carried to the next chunk. Uses Node's native `Buffer` decoding when it is
 * there (several times faster than `TextDecoder` in stream mode), else
 * `TextDecoder`. Invalid bytes become U+FFFD either way.
 */
export function createUtf8Decoder(): (chunk: Uint8Array, end: boolean) => string {
  const text = new TextDecoder("utf-8");
  const NodeBuffer = (globalThis as { Buffer?: { from(b: ArrayBufferLike, o: number, l: number): { toString(e: string): string } } }).Buffer;
  const whole = NodeBuffer ? (b: Uint8Array) => NodeBuffer.from(b.buffer, b.byteOffset, b.byteLength).toString("utf8") : (b: Uint8Array) => text.decode(b);
  let carry: Uint8Array | undefined;
  return (chunk, end) => {
    let bytes = chunk;
    if (carry) {
      bytes = new Uint8Array(carry.length + chunk.length);
      bytes.set(carry);
      bytes.set(chunk, carry.length);
      carry = undefined;
    }
    const cut = end ? bytes.length : completeLength(bytes);
    if (cut < bytes.length) carry = bytes.slice(cut);
    return cut === 0 ? "" : whole(cut === bytes.length ? bytes : bytes.subarray(0, cut));
  };
}

/** Length of the prefix of `bytes` that ends on a character boundary (an unfinished last character is left out). */
function completeLength(bytes: Uint8Array): number {
  const n = bytes.length;
  // Look back over at most 3 continuation bytes for the lead byte of the last character.
  for (let i = n - 1, seen = 0; i >= 0 && seen < 4; i--, seen++) {
    const b = bytes[i] as number;
    if ((b & 0xc0) !== 0x80) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      return n - i >= need ? n : i;
    }
  }
  return n;
}
