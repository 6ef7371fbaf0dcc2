/**
 * JSON-RPC 2.0 message shapes, builders and the one-line encoder. Pure: no
 * I/O, no state.
 */
import type { RequestId } from "../context.ts";
import type { ErrorObject } from "../errors.ts";

/** A request: answered exactly once, with a result or an error. */
export interface RequestMessage {
  readonly jsonrpc: "2.0";
  readonly id: RequestId;
  readonly method: string;
  readonly params?: unknown;
}
/** A notification: never answered. */
export interface NotificationMessage {
  readonly jsonrpc: "2.0";
  readonly method: string;
  readonly params?: unknown;
}
/** A successful answer to the request with the same `id`. */
export interface SuccessResponse {
  readonly jsonrpc: "2.0";
  readonly id: RequestId;
  readonly result: unknown;
}
/** A failed answer; `id` is null when the request's id could not be read (JSON-RPC 2.0 §5). */
export interface ErrorResponse {
  readonly jsonrpc: "2.0";
  readonly id: RequestId | null;
  readonly error: ErrorObject;
}
/** Either answer to a request. */
export type ResponseMessage = SuccessResponse | ErrorResponse;
/** Any one JSON-RPC 2.0 message. */
export type Message = RequestMessage | NotificationMessage | ResponseMessage;

/** A request message; `params` is left out when undefined. */
export function requestMessage(id: RequestId, method: string, params?: unknown): RequestMessage {
  return params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
}
/** A notification message; `params` is left out when undefined. */
export function notificationMessage(method: string, params?: unknown): NotificationMessage {
  return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
}
/** A success response; an undefined result is sent as `null`. */
export function resultMessage(id: RequestId, result: unknown): SuccessResponse {
  // JSON-RPC requires `result` on success; a handler returning nothing answers `null`.
  return { jsonrpc: "2.0", id, result: result === undefined ? null : result };
}
/** An error response. */
export function errorMessage(id: RequestId | null, error: ErrorObject): ErrorResponse {
  return { jsonrpc: "2.0", id, error };
}

/** Encodes one message (or a batch answer) as one NDJSON line, newline included. */
export function encodeLine(message: Message | readonly Message[]): string {
  return `${JSON.stringify(message)}\n`;
}

/**
 * Fast encoders for the hot path: they build the line around the
 * already-stringified payload without an intermediate envelope object.
 */
export function encodeResult(id: RequestId, result: unknown): string {
  // A numeric request id is a safe integer: its decimal text is its JSON.
  return `{"jsonrpc":"2.0","id":${typeof id === "number" ? id : JSON.stringify(id)},"result":${result === undefined ? "null" : JSON.stringify(result)}}\n`;
}
export function encodeRequest(id: number, method: string, params: unknown): string {
  return params === undefined ? `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)}}\n` : `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${JSON.stringify(params)}}\n`;
}
/** The text of a notification line before its params: `{"jsonrpc":"2.0","method":"…","params":` (see {@link encodeWithPrefix}). */
export function notificationPrefix(method: string): string {
  return `{"jsonrpc":"2.0","method":${JSON.stringify(method)},"params":`;
}
/** A notification line from its method's {@link notificationPrefix} and params that are not undefined: no envelope, the method not re-encoded. */
export function encodeWithPrefix(prefix: string, params: unknown): string {
  return `${prefix}${JSON.stringify(params)}}\n`;
}
export function encodeNotification(method: string, params: unknown): string {
  return params === undefined ? `{"jsonrpc":"2.0","method":${JSON.stringify(method)}}\n` : `{"jsonrpc":"2.0","method":${JSON.stringify(method)},"params":${JSON.stringify(params)}}\n`;
}
