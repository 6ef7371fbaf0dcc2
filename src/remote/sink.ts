/**
 * The output end of one SSE stream or WebSocket, as the remote layer sees
 * it. Adapters (node:http, node:http2, fetch `Response` bodies, `ws`)
 * implement it; connections only write framed text and watch the reader.
 */

/** Where a stream's bytes go. Implemented by each server adapter. */
export interface EventSink {
  /** Queues already framed text (SSE events, or one WebSocket message per line). */
  write(text: string): void;
  /** Ends the stream after what was written. Idempotent. */
  end(): void;
  /** Bytes written that the reader has not taken yet. */
  buffered(): number;
  /** When the reader stopped taking bytes (a `Date.now()` value), or undefined while it keeps up. */
  blockedSince(): number | undefined;
  /** Registers the callback run once when the stream ends for any reason (reader gone, `end()`, error). */
  onClose(callback: () => void): void;
}

/** What the server does with a reader that falls behind. Checked by the server's sweep and on every write. */
export interface ReaderBounds {
  /** Most bytes one stream may hold for a reader that is behind. */
  readonly maxStreamBytes: number;
  /** Longest time a reader may take no bytes while some wait. */
  readonly stallMs: number;
}

/**
 * Why a sink's reader is dropped, or undefined while it is within bounds.
 * `allowance` is what may be buffered on top of `maxStreamBytes`: the bound
 * is on the backlog a slow reader leaves, not on a large message written to
 * a reader that keeps up (see {@link backlogAllowance}).
 */
export function readerFault(sink: EventSink, bounds: ReaderBounds, now: number, allowance = 0): string | undefined {
  const buffered = sink.buffered();
  if (buffered - allowance > bounds.maxStreamBytes) return `the reader is ${buffered} bytes behind (maxStreamBytes ${bounds.maxStreamBytes}) beyond an allowance of ${allowance} bytes for its largest messages`;
  const since = sink.blockedSince();
  if (since !== undefined && now - since > bounds.stallMs) return `the reader took nothing for ${now - since} ms (stallMs ${bounds.stallMs})`;
  return undefined;
}

/**
 * What a stream may buffer beyond `maxStreamBytes`, from the largest message
 * it carried: two such messages (back-to-back large messages of one turn are
 * written before the reader can take the first, and a reader that parses a
 * large message takes the next one only after that).
 */
export function backlogAllowance(largest: number): number {
  return 2 * largest;
}
