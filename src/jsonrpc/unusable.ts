/**
 * The one place that answers a line that is not a usable message
 * (DESIGN §4.1–4.3): unparsable (`-32700`), too long (`-32700`), a batch
 * where batches are not taken (`-32600`), valid JSON that is not a JSON-RPC
 * message (`-32600`), a request whose id cannot be echoed (`-32600`). The
 * connection's pipeline, the version router, the switchboard, the remote
 * endpoint and the conductor's hops all answer through it, so the same line
 * gets the same answer everywhere. What each caller reports as a diagnostic
 * stays the caller's.
 */
import { wireError, type ErrorObject } from "../errors.ts";
import type { RequestId } from "../context.ts";
import { isResponseShaped, rejectionId, type MessageKind } from "./classify.ts";
import { ParseFailure } from "./parse.ts";

/** The answer to an unusable line: the error, and the id the one rejection-id rule (`rejectionId`) gives it (always `null` here). */
export interface UnusableAnswer {
  readonly id: RequestId | null;
  readonly error: ErrorObject;
}

/**
 * The answer to `value` (what `parseValue` gave for a line, or one element
 * of a batch) when it is not a usable message, or undefined when it is one,
 * or when it must never be answered (a response-shaped body). `kind` is its
 * classification when it is one object (undefined for a `ParseFailure`, an
 * array or another JSON value read as a whole line); an element of a batch
 * is passed with its `classify` kind, so an array inside a batch is "not a
 * JSON-RPC message", not a batch. Batches that a caller accepts are the
 * caller's to take apart before asking.
 */
export function unusableAnswer(value: unknown, kind: MessageKind | undefined): UnusableAnswer | undefined {
  let error: ErrorObject;
  if (kind === undefined) {
    if (value instanceof ParseFailure) error = wireError.parse(value.reason);
    else if (Array.isArray(value)) error = wireError.batchRejected(value.length === 0);
    else error = wireError.notJsonRpc();
    return { id: null, error };
  }
  if (kind === "unidentified_request") error = wireError.unusableId();
  else if (kind === "unknown" && !isResponseShaped(value)) error = wireError.notJsonRpc();
  else return undefined;
  return { id: rejectionId(kind, value), error };
}

/** The answer to a line longer than `maxMessageBytes`, skipped up to its newline: `-32700`, `id: null`. */
export function oversizedAnswer(maxMessageBytes: number): UnusableAnswer {
  return { id: null, error: wireError.lineTooLong(maxMessageBytes) };
}
