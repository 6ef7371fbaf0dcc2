/**
 * Whether a peer's byte stream is valid UTF-8, for the rows that every
 * message is UTF-8 encoded (v1 ACP-TRANSPORT-002, v2 ACP-TRANSPORT-301).
 * The line reader decodes with replacement, so a decoded U+FFFD is either a
 * byte that was not UTF-8 or a real U+FFFD character, which is valid UTF-8
 * (EF BF BD) that any peer may send (echoing text it got that way): only the
 * bytes tell them apart. This watcher decodes the raw chunks strictly,
 * across chunk boundaries, and keeps the first invalid sequence it met.
 */

/** The first bytes that were not UTF-8: where in the stream (byte offset) and the bytes around them, in hex. */
export interface InvalidUtf8 {
  readonly offset: number;
  readonly hex: string;
}

/** A strict UTF-8 check over a stream of chunks. */
export interface Utf8Watch {
  /** Feeds the next chunk of the stream. */
  push(chunk: Uint8Array): void;
  /** Bytes seen so far. */
  readonly bytes: number;
  /** The first invalid sequence, once one was met. */
  readonly invalid: InvalidUtf8 | undefined;
}

/** Starts a watch on a fresh stream. */
export function createUtf8Watch(): Utf8Watch {
  let decoder = new TextDecoder("utf-8", { fatal: true });
  let bytes = 0;
  let invalid: InvalidUtf8 | undefined;
  return {
    push(chunk) {
      try {
        decoder.decode(chunk, { stream: true });
      } catch {
        // The chunk holds the bad sequence (or completes one begun in the last chunk): show its first bytes.
        invalid ??= { offset: bytes, hex: Buffer.from(chunk.subarray(0, 48)).toString("hex").replace(/(..)/g, "$1 ").trim() };
        decoder = new TextDecoder("utf-8", { fatal: true });
      }
      bytes += chunk.byteLength;
    },
    get bytes() {
      return bytes;
    },
    get invalid() {
      return invalid;
    },
  };
}
