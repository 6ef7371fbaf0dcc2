/**
 * NDJSON framing (DESIGN §4.1): one message per line, `\r\n` tolerated,
 * blank lines skipped, and a line longer than the limit reported once and
 * skipped up to its newline without being buffered. Chunk boundaries do not
 * matter, multi-byte characters split across chunks included.
 */

export interface FrameSink {
  /** One complete line, without its line ending. Never blank. */
  line(text: string): void;
  /** A line longer than the limit was skipped; `length` is how much of it was seen. */
  oversized(length: number): void;
}

/** Default `maxMessageBytes`: 32 MiB, well above any real ACP message, far below memory trouble. */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

export interface Framer {
  push(chunk: Uint8Array | string): void;
  /** End of stream: a last line without a trailing newline is still delivered. */
  end(): void;
}

/**
 * Creates a framer. The limit is checked against the decoded line length
 * (UTF-16 code units), which never exceeds the line's UTF-8 byte length.
 */
export function createFramer(sink: FrameSink, maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES): Framer {
  const decoder = new TextDecoder("utf-8");
  let pending = "";
  let skipping = false;
  let skipped = 0;

  const emit = (text: string) => {
    const end = text.charCodeAt(text.length - 1) === 13 /* \r */ ? text.length - 1 : text.length;
    const line = end === text.length ? text : text.slice(0, end);
    if (line.length > maxMessageBytes) sink.oversized(line.length);
    else if (!isBlank(line)) sink.line(line);
  };

  const pushText = (text: string) => {
    let start = 0;
    for (;;) {
      const nl = text.indexOf("\n", start);
      if (nl === -1) break;
      if (skipping) {
        skipping = false;
        sink.oversized(skipped + nl - start);
      } else if (pending.length > 0) {
        const whole = pending + text.slice(start, nl);
        pending = "";
        emit(whole);
      } else emit(text.slice(start, nl));
      start = nl + 1;
    }
    if (start >= text.length) return;
    const rest = text.length - start;
    if (skipping) skipped += rest;
    else if (pending.length + rest > maxMessageBytes) {
      skipping = true;
      skipped = pending.length + rest;
      pending = "";
    } else pending = start === 0 && pending.length === 0 ? text : pending + text.slice(start);
  };

  return {
    push(chunk) {
      pushText(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
    },
    end() {
      pushText(decoder.decode());
      if (skipping) {
        skipping = false;
        sink.oversized(skipped);
      } else if (pending.length > 0) {
        const last = pending;
        pending = "";
        emit(last);
      }
    },
  };
}

function isBlank(line: string): boolean {
  if (line.length === 0) return true;
  const c = line.charCodeAt(0);
  // Messages start with "{" or "["; only then is a full whitespace check needed.
  if (c === 123 || c === 91) return false;
  return line.trim().length === 0;
}
