/**
 * Classification of a parsed message (DESIGN §4.3), computed once; everything
 * after reads the tag. Pure predicates, tested as a table.
 */
import type { RequestId } from "../context.ts";

/** What one parsed message is, as the connection reads it (DESIGN §4.3): each kind has one rule for answering. */
export type MessageKind = "request" | "unidentified_request" | "notification" | "response" | "unknown";

/** A string, or a number that is a safe integer (fractions and values beyond 2^53 are not ids). */
export function isRequestId(id: unknown): id is RequestId {
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id));
}

/** Classifies one parsed JSON value that is not an array. */
export function classify(body: unknown): MessageKind {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return "unknown";
  const m = body as Record<string, unknown>;
  if (typeof m.method === "string") {
    if (m.id === undefined) return "notification";
    return isRequestId(m.id) ? "request" : "unidentified_request";
  }
  const hasResult = m.result !== undefined || Object.prototype.hasOwnProperty.call(m, "result");
  const hasError = m.error !== undefined;
  if (hasResult !== hasError && isRequestId(m.id)) return "response";
  return "unknown";
}

/** True for bodies shaped like a response (having `result` or `error`): never answered, whatever else is wrong. */
export function isResponseShaped(body: unknown): boolean {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  return Object.prototype.hasOwnProperty.call(body, "result") || Object.prototype.hasOwnProperty.call(body, "error");
}

/**
 * The one rejection-id rule: an error answer echoes the id only for a
 * `request`; every other kind is answered (if at all) with `id: null`.
 */
export function rejectionId(kind: MessageKind, body: unknown): RequestId | null {
  return kind === "request" ? (body as { id: RequestId }).id : null;
}
