/**
 * Bookkeeping of requests seen on the wire, per sender: the ones still
 * waiting for their answer, and the ids already answered (so a second answer
 * is told apart from an answer to an id that never existed).
 */
import type { RequestId } from "../../src/context.ts";
import type { Row } from "../../src/row.ts";
import type { Sender } from "./rules.ts";
import type { Table } from "./tables.ts";

/** One request in flight. Flags are set as later messages concern it. */
export interface Call {
  readonly id: RequestId;
  readonly method: string;
  readonly from: Sender;
  /** When it was seen (ms since start) and its message index. */
  readonly t: number;
  readonly index: number;
  readonly row: Row<never, never> | undefined;
  /** The table `row` comes from, which judges the answer too. */
  readonly table: Table;
  readonly sessionId: string | undefined;
  /** The method is neither in the table nor an extension: the answer must be -32601. */
  readonly unknownMethod: boolean;
  /** The envelope was malformed but the id usable: the rejection must echo it. */
  readonly envelopeInvalid: boolean;
  /** The caller sent `$/cancel_request` for it. */
  cancelledByRequest: boolean;
  /** The client sent `session/cancel` for its session while it was in flight. */
  cancelledBySession: boolean;
  /** A violation about it being left unanswered was already reported. */
  reported: boolean;
}

/** Answered ids remembered per sender, to recognise second answers; the oldest are forgotten past this many. */
export const ANSWERED_MEMORY = 100_000;

/** `1` and `"1"` are different ids: a string key for tables keyed by text (replay's answer keys). The monitor's own maps use the id itself, which a `Map` already tells apart. */
export function idKey(id: RequestId): string {
  return typeof id === "string" ? `s${id}` : `n${id}`;
}

/** The calls one side sent, pending and answered. */
export interface CallBook {
  /** Requests waiting for their answer, by id (`1` and `"1"` are different keys of a `Map`). */
  readonly pending: Map<RequestId, Call>;
  /** Answered ids → the method they answered (no object per entry: up to {@link ANSWERED_MEMORY} of them stay for long). */
  readonly answered: Map<RequestId, string>;
  /** The answered ids whose call had been cancelled with `$/cancel_request` (a subset of `answered`'s keys). */
  readonly cancelledAnswered: Set<RequestId>;
  /** Lines this side sent that the peer can only reject with id null (unparsable, unidentifiable). */
  nullOwed: number;
  /**
   * Numeric ids of requests the router cannot use (a fraction such as 1.5, an
   * integer beyond 2^53), with their digits as written when the line was
   * whole: JSON-RPC allows any number, the schema types numeric ids as int64
   * and only says fractions SHOULD NOT be used, so a peer that echoes one is
   * noted, not charged; one that answers the same double with other digits
   * (2^53+1 answered 2^53) altered the id (tools/inspect/ids.ts).
   */
  numericUnusable: { readonly value: number; readonly raw: string | undefined }[];
  /** The keys of `answered` in the order they were added, a ring of {@link ANSWERED_MEMORY} slots (`next` is the oldest once it is full). */
  readonly order: RequestId[];
  next: number;
}

export function createCallBook(): CallBook {
  return { pending: new Map(), answered: new Map(), cancelledAnswered: new Set(), nullOwed: 0, numericUnusable: [], order: [], next: 0 };
}

/**
 * Moves a call from pending to answered; past {@link ANSWERED_MEMORY} ids the
 * oldest one added is forgotten. The ring of keys makes that O(1): asking a
 * Map for its first key walks over the slots its deletions left at the front.
 */
export function settle(book: CallBook, key: RequestId, call: Call): void {
  book.pending.delete(key);
  if (!book.answered.has(key)) {
    if (book.order.length < ANSWERED_MEMORY) book.order.push(key);
    else {
      const oldest = book.order[book.next] as RequestId;
      book.answered.delete(oldest);
      book.cancelledAnswered.delete(oldest);
      book.order[book.next] = key;
      book.next = (book.next + 1) % ANSWERED_MEMORY;
    }
  }
  book.answered.set(key, call.method);
  if (call.cancelledByRequest) book.cancelledAnswered.add(key);
  else if (book.cancelledAnswered.size > 0) book.cancelledAnswered.delete(key);
}
