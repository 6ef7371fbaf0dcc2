/**
 * The one error type of acp-router and the one list of codes. Every error the
 * router writes has an integer code and a one-line message; `data` carries
 * detail (`errors` per location, `reason`, `method`).
 */
import type { CancelCause } from "./connection/cancel-cause.ts";

/**
 * JSON-RPC 2.0 and ACP error codes. `ErrorCode` is also a type (see below),
 * so one import serves `ErrorCode.MethodNotFound` and `code: ErrorCode`.
 */
export const ErrorCode = {
  /** Invalid JSON, or a line over `maxMessageBytes`. */
  ParseError: -32700,
  /** Not a valid request object (envelope), or a request before `initialize`. */
  InvalidRequest: -32600,
  /** Unknown method, or one gated by a capability that was not advertised. */
  MethodNotFound: -32601,
  /** Params failed schema validation. */
  InvalidParams: -32602,
  /** The handler failed; details are not sent unless `exposeErrors` is on. */
  InternalError: -32603,
  /** The request was cancelled (`$/cancel_request`). */
  RequestCancelled: -32800,
  /** Authentication is required before this method. */
  AuthRequired: -32000,
  /** A resource (file, session) was not found. */
  ResourceNotFound: -32002,
} as const;

/** One of the values of {@link ErrorCode}. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * An error code as the ACP schema types it (its `ErrorCode`): one of the
 * codes above, or any other integer an agent or extension defines. The named
 * codes stay visible to editors' completion; `(number & {})` only stops them
 * from collapsing into `number`. Declared under the constant's name, so
 * `acp-router` exports one `ErrorCode` that is both.
 */
export type ErrorCode = ErrorCodeValue | (number & {});

/** A JSON-RPC error object as written on the wire. */
export interface ErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * Plain wire error objects for the router's own rejections: building an
 * `Error` captures a stack trace, which would dominate the invalid path.
 */
export const wireError = {
  parse: (detail?: string): ErrorObject => (detail === undefined ? { code: ErrorCode.ParseError, message: "Parse error" } : { code: ErrorCode.ParseError, message: "Parse error", data: { reason: detail } }),
  invalidRequest: (message = "Invalid request", data?: unknown): ErrorObject => (data === undefined ? { code: ErrorCode.InvalidRequest, message } : { code: ErrorCode.InvalidRequest, message, data }),
  methodNotFound: (method: string, reason?: string): ErrorObject => ({ code: ErrorCode.MethodNotFound, message: "Method not found", data: reason === undefined ? { method } : { method, reason } }),
  invalidParams: (data?: unknown): ErrorObject => (data === undefined ? { code: ErrorCode.InvalidParams, message: "Invalid params" } : { code: ErrorCode.InvalidParams, message: "Invalid params", data }),
  authRequired: (message = "Authentication required"): ErrorObject => ({ code: ErrorCode.AuthRequired, message }),
} as const;

/** An error answered to (or received from) the peer. Throw it from a handler to answer with exactly this error. */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "RpcError";
    this.code = code;
    this.data = data;
  }

  /** The wire form of this error. */
  toJSON(): ErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }

  /** `-32700`: invalid JSON or an oversized line. */
  static parseError(detail?: string): RpcError {
    return RpcError.fromObject(wireError.parse(detail));
  }
  /** `-32600`: not a valid request object, or a request before `initialize`. */
  static invalidRequest(message = "Invalid request", data?: unknown): RpcError {
    return RpcError.fromObject(wireError.invalidRequest(message, data));
  }
  /** `-32601`: unknown method, or gated by a capability not advertised (`reason`). */
  static methodNotFound(method: string, reason?: string): RpcError {
    return RpcError.fromObject(wireError.methodNotFound(method, reason));
  }
  /** `-32602`: params failed validation; `data.errors` lists each location. */
  static invalidParams(data?: unknown): RpcError {
    return RpcError.fromObject(wireError.invalidParams(data));
  }
  /** An RpcError carrying a wire error object's code, message and data. */
  static fromObject(error: ErrorObject): RpcError {
    return new RpcError(error.code, error.message, error.data);
  }
  /** `-32603`: a handler failed; `details` only when errors are exposed. */
  static internalError(detail?: string): RpcError {
    return new RpcError(ErrorCode.InternalError, "Internal error", detail === undefined ? undefined : { details: detail });
  }
  /** `-32800`: the request was cancelled. */
  static requestCancelled(): RpcError {
    return new RpcError(ErrorCode.RequestCancelled, "Request cancelled");
  }
  /** `-32000`: authentication is required first. */
  static authRequired(message = "Authentication required"): RpcError {
    return RpcError.fromObject(wireError.authRequired(message));
  }
  /** `-32002`: a file, session or other resource does not exist. */
  static resourceNotFound(uri?: string): RpcError {
    return new RpcError(ErrorCode.ResourceNotFound, "Resource not found", uri === undefined ? undefined : { uri });
  }

  /**
   * Converts anything thrown into an RpcError: an RpcError passes through; a
   * wire error object keeps its code and message; anything else is
   * `-32603`, with the original message only when `expose` is true.
   */
  static from(value: unknown, expose = false): RpcError {
    // JSON-RPC requires an integer code; an RpcError built with anything else is an internal error.
    if (value instanceof RpcError) return Number.isInteger(value.code) ? value : RpcError.internalError(expose ? `invalid error code ${String(value.code)}: ${value.message}` : undefined);
    if (isErrorObject(value)) return new RpcError(value.code, value.message, value.data);
    if (!expose) return RpcError.internalError();
    const message = value instanceof Error ? value.message : String(value);
    return RpcError.internalError(message);
  }
}

function isErrorObject(value: unknown): value is ErrorObject {
  if (typeof value !== "object" || value === null || value instanceof Error) return false;
  const v = value as Record<string, unknown>;
  return Number.isInteger(v.code) && typeof v.message === "string";
}

/**
 * Rejects an outbound call that this side cancelled (`-32800`), naming why in
 * `cause`: the caller's `signal` (`cancel_request`), an inbound
 * `session/cancel` or `session/close` for its session (agent side), or its
 * timeout ({@link RequestTimeoutError}). The peer's own answer (message, data)
 * is kept when it sent one.
 */
export class RequestCancelledError extends RpcError {
  /** Why this side cancelled the call. */
  declare readonly cause: CancelCause;
  constructor(cause: CancelCause, message = "Request cancelled", data?: unknown) {
    super(ErrorCode.RequestCancelled, message, data);
    this.name = "RequestCancelledError";
    Object.defineProperty(this, "cause", { value: cause, enumerable: true });
  }
}

/**
 * Rejects an outbound call that got no answer within its `timeoutMs` (or the
 * connection's `requestTimeoutMs`); `$/cancel_request` was sent. Its code is
 * `-32800` like a cancellation, so code that only checks codes still works;
 * `cause` is `"timeout"`, and `instanceof RequestTimeoutError` tells a timeout
 * from the peer's cancellation.
 */
export class RequestTimeoutError extends RequestCancelledError {
  /** The wire method of the call that timed out. */
  readonly method: string;
  /** The timeout that elapsed, in milliseconds. */
  readonly timeoutMs: number;
  constructor(method: string, timeoutMs: number) {
    super("timeout", `Request "${method}" timed out after ${timeoutMs} ms`, { timeoutMs });
    this.name = "RequestTimeoutError";
    this.method = method;
    this.timeoutMs = timeoutMs;
  }
}

/** Rejects every pending outbound call when the connection closes. */
export class ConnectionClosedError extends Error {
  /** Why the connection closed (stream end, peer exit, explicit close, error). */
  readonly reason: string;
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`connection closed: ${reason}`, options);
    this.name = "ConnectionClosedError";
    this.reason = reason;
  }
}
