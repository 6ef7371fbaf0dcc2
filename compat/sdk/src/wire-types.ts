/** The SDK's names for JSON-RPC messages and request options (type-only). */

/** A request id as the SDK types it (acp-router answers `null` ids `-32600`; see docs/sdk-drop-in.md). */
export type JsonRpcId = string | number | null;
/** A value or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;
/** A JSON-RPC error object. */
export interface ErrorResponse {
  code: number;
  message: string;
  data?: unknown;
}
/** A response's outcome. */
export type Result<T> = { result: T } | { error: ErrorResponse };
/** A request. */
export interface AnyRequest {
  jsonrpc: "2.0";
  id: JsonRpcId;
  method: string;
  params?: unknown;
}
/** A response. */
export type AnyResponse = { jsonrpc: "2.0"; id: JsonRpcId } & Result<unknown>;
/** A notification. */
export interface AnyNotification {
  jsonrpc: "2.0";
  method: string;
  params?: unknown;
}
/** Any JSON-RPC message. */
export type AnyMessage = AnyRequest | AnyResponse | AnyNotification;
/** Options of an outbound request. */
export interface SendRequestOptions {
  /** Aborting it sends `$/cancel_request` for the call. */
  cancellationSignal?: AbortSignal;
  /** With a cancellation: reject at once (`-32800`) instead of waiting for the peer's answer. */
  stopWaitingOnCancel?: boolean;
}
/** A params parser: a function, or an object with `parse` (a zod schema). */
export type ParamsParser<Params> = { parse: (params: unknown) => Params } | ((params: unknown) => Params);
/** Options of `agent()` / `client()`. */
export interface AppOptions {
  name?: string;
}
