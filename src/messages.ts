/**
 * JSON-RPC 2.0 messages as plain values (`acp-router/messages`): builders for
 * requests, notifications, results, errors and batches, the one-line NDJSON
 * encoder, and a parser that classifies one line the way a connection does.
 *
 * For tests, recorders, proxies and tools that write or read raw ACP lines;
 * a connection builds its own messages and never needs these.
 *
 * ```ts
 * import { encode, request } from "acp-router/messages";
 * process.stdout.write(encode(request(1, "initialize", { protocolVersion: 1 })));
 * // {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}
 * ```
 *
 * Builders check what a peer would otherwise have to reject: an id that is
 * not a string or a safe integer, a non-integer error code and an empty
 * batch throw at once (a `RangeError`), so a message built here is always
 * one acp-router itself accepts.
 *
 * @module acp-router/messages
 */
import type { ErrorObject } from "./errors.ts";
import type { RequestId } from "./context.ts";
import { classify, isRequestId, type MessageKind } from "./jsonrpc/classify.ts";
import { encodeLine, errorMessage, notificationMessage, requestMessage, resultMessage } from "./jsonrpc/messages.ts";
import type { ErrorResponse, Message, NotificationMessage, RequestMessage, SuccessResponse } from "./jsonrpc/messages.ts";
import { parseLine } from "./jsonrpc/parse.ts";

/*
 * UsableRequestId: an id this module builds and a connection answers: a string or a safe
 * integer. Named apart from the table entries' `RequestId`, which is each
 * schema's own type (v1's admits `null`).
 */
export type { RequestId as UsableRequestId } from "./context.ts";
export type { ErrorObject } from "./errors.ts";
export type { MessageKind } from "./jsonrpc/classify.ts";
export type { ErrorResponse, Message, NotificationMessage, RequestMessage, ResponseMessage, SuccessResponse } from "./jsonrpc/messages.ts";
export { isRequestId };

/** A request: `{"jsonrpc":"2.0","id":…,"method":…,"params":…}`, `params` left out when undefined. Throws a `RangeError` for an id that is not a string or a safe integer. */
export function request(id: RequestId, method: string, params?: unknown): RequestMessage {
  return requestMessage(checkedId(id), method, params);
}

/** A notification: `{"jsonrpc":"2.0","method":…,"params":…}`, `params` left out when undefined. */
export function notification(method: string, params?: unknown): NotificationMessage {
  return notificationMessage(method, params);
}

/** A success response to request `id`. An undefined `value` is sent as `null`, since JSON-RPC requires `result` on success. */
export function result(id: RequestId, value: unknown): SuccessResponse {
  return resultMessage(checkedId(id), value);
}

/**
 * An error response to request `id`; `null` when the request's id could not
 * be read. Takes any error object, an `RpcError` included, and keeps only its
 * wire fields (`code`, `message`, and `data` when defined). Throws a
 * `RangeError` for a non-integer code.
 */
export function error(id: RequestId | null, cause: ErrorObject): ErrorResponse {
  if (!Number.isInteger(cause.code)) throw new RangeError(`a JSON-RPC error code is an integer, got ${String(cause.code)}`);
  const wire: ErrorObject = cause.data === undefined ? { code: cause.code, message: cause.message } : { code: cause.code, message: cause.message, data: cause.data };
  return errorMessage(id === null ? null : checkedId(id), wire);
}

/** A batch (JSON-RPC 2.0 §6): the messages in one array. Throws a `RangeError` when empty: an empty batch is always an invalid request. */
export function batch(...messages: readonly Message[]): readonly Message[] {
  if (messages.length === 0) throw new RangeError("a JSON-RPC batch needs at least one message");
  return messages;
}

/** One NDJSON line: the message (or batch) as compact JSON, newline included. JSON escapes every newline inside strings, so the line is always one line. */
export function encode(message: Message | readonly Message[]): string {
  return encodeLine(message);
}

/** One line as {@link parse} reads it: not JSON, a batch, or one classified message. */
export type ParsedLine =
  | { readonly kind: "invalid"; readonly reason: string }
  | { readonly kind: "batch"; readonly items: readonly unknown[] }
  | { readonly kind: "request"; readonly body: Readonly<Record<string, unknown>> & { readonly id: RequestId; readonly method: string } }
  | { readonly kind: "notification"; readonly body: Readonly<Record<string, unknown>> & { readonly method: string } }
  | { readonly kind: "response"; readonly body: Readonly<Record<string, unknown>> & { readonly id: RequestId } }
  | { readonly kind: Exclude<MessageKind, "request" | "notification" | "response">; readonly body: unknown };

/**
 * Parses one line (without or with its newline) and classifies it as a
 * connection would (DESIGN §4.3): a `request` has a string `method` and a
 * string or safe-integer `id`; an `unidentified_request` has a `method` and
 * any other id; a `notification` has no `id`; a `response` has exactly one of
 * `result` and `error`; anything else is `unknown`. Nesting deeper than 128
 * levels is `invalid`, as on a connection with default options. Never throws.
 * Only the envelope's shape is read: the `jsonrpc` member and the params are
 * not checked.
 */
export function parse(line: string): ParsedLine {
  const parsed = parseLine(line.endsWith("\n") ? line.slice(0, line.endsWith("\r\n") ? -2 : -1) : line);
  if (!parsed.ok) return { kind: "invalid", reason: parsed.reason };
  if (Array.isArray(parsed.value)) return { kind: "batch", items: parsed.value };
  return { kind: classify(parsed.value), body: parsed.value } as ParsedLine;
}

function checkedId(id: RequestId): RequestId {
  if (!isRequestId(id)) throw new RangeError(`a JSON-RPC request id is a string or a safe integer, got ${String(id)}`);
  return id;
}
