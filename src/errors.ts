/**
 * The one error type of acp-router and the one set of error constructors.
 * Every error the library writes (connection, version router, transports,
 * tools) is built here, so the same failure reads the same on every path:
 * an integer code named below, a one-line message, and `data`, when present,
 * always an object (`errors` per location, `reason`, `method`, …).
 */
import type { CancelCause } from "./connection/cancel-cause.ts";

import { ErrorCode } from "./error-code.ts";

export { ErrorCode, type ErrorCodeValue } from "./error-code.ts";

/** A JSON-RPC error object as written on the wire. */
export interface ErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** The `data` of an error this library writes: always an object. */
export type ErrorData = Readonly<Record<string, unknown>>;

/** A wire error object; `data` is left out when undefined. */
function wire(code: number, message: string, data?: ErrorData): ErrorObject {
  return data === undefined ? { code, message } : { code, message, data };
}

/**
 * Plain wire error objects for every error the library writes. They are
 * the one set of constructors: each `RpcError` static below returns the
 * same object as an `RpcError`. Plain objects because building an `Error`
 * captures a stack trace, which would dominate the invalid path.
 */
export const wireError = {
  /** `-32700`: a line that is not JSON (`reason`: the parser's message, or the nesting limit). */
  parse: (reason?: string): ErrorObject => wire(ErrorCode.ParseError, "Parse error", reason === undefined ? undefined : { reason }),
  /** `-32700`: a line longer than `maxMessageBytes`, skipped up to its newline. */
  lineTooLong: (maxMessageBytes: number): ErrorObject => wireError.parse(`line longer than maxMessageBytes (${maxMessageBytes})`),
  /** `-32600`: not a valid request object; `data` (an object) says where. */
  invalidRequest: (message = "Invalid request", data?: ErrorData): ErrorObject => wire(ErrorCode.InvalidRequest, message, data),
  /** `-32600`: a request other than `initialize` before `initialize` completed. */
  notInitialized: (): ErrorObject => wire(ErrorCode.InvalidRequest, "Not initialized: the first request must be initialize"),
  /** `-32600`: a request whose id is neither a string nor a safe integer (answered with `id: null`). */
  unusableId: (): ErrorObject => wire(ErrorCode.InvalidRequest, "Invalid request: id must be a string or an integer"),
  /** `-32600`: valid JSON that is neither a request, a notification nor a response. */
  notJsonRpc: (): ErrorObject => wire(ErrorCode.InvalidRequest, "Invalid request: not a JSON-RPC 2.0 message"),
  /** `-32600`: a batch on a connection that rejects batches, or (`empty`) an empty batch. */
  batchRejected: (empty = false): ErrorObject => wire(ErrorCode.InvalidRequest, empty ? "Invalid request: empty batch" : "Invalid request: batches are not supported"),
  /** `-32600`: a method the table keeps out of batches, sent in one. */
  unbatched: (method: string): ErrorObject => wire(ErrorCode.InvalidRequest, `Invalid request: "${method}" may not be sent in a batch`),
  /** `-32600`: a request reusing the id of one still in flight. */
  duplicateId: (): ErrorObject => wire(ErrorCode.InvalidRequest, "Invalid request: a request with this id is still in flight"),
  /** `-32600`: `initialize` again after another request. */
  repeatedInitialize: (): ErrorObject => wire(ErrorCode.InvalidRequest, "Invalid request: initialize may not be repeated after another request"),
  /** `-32601`: unknown method, or (`reason`) one gated by a capability that was not advertised. */
  methodNotFound: (method: string, reason?: string): ErrorObject => wire(ErrorCode.MethodNotFound, "Method not found", reason === undefined ? { method } : { method, reason }),
  /** `-32602`: params failed validation; `data.errors` lists each location. */
  invalidParams: (data?: ErrorData): ErrorObject => wire(ErrorCode.InvalidParams, "Invalid params", data),
  /** `-32603`: something failed on this side; `message` and `data` say what (never a handler's internals unless exposed). */
  internal: (message = "Internal error", data?: ErrorData): ErrorObject => wire(ErrorCode.InternalError, message, data),
  /** `-32603`: more inbound requests running than `maxInFlight`; the handler was not started. */
  tooManyInFlight: (maxInFlight: number): ErrorObject => wire(ErrorCode.InternalError, `Too many requests in flight (maxInFlight ${maxInFlight})`, { maxInFlight }),
  /** `-32000`: authentication is required first. */
  authRequired: (message = "Authentication required"): ErrorObject => wire(ErrorCode.AuthRequired, message),
  /** `-32022`: no configured version at or below `requested` (v2's code; the version router's answer). */
  unsupportedProtocolVersion: (requested: number, supported: readonly number[]): ErrorObject => wire(ErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", { requested, supported: [...supported] }),
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

  /** An RpcError carrying a wire error object's code, message and data. */
  static fromObject(error: ErrorObject): RpcError {
    return new RpcError(error.code, error.message, error.data);
  }
  /** `-32700`: invalid JSON or an oversized line. */
  static parseError(reason?: string): RpcError {
    return RpcError.fromObject(wireError.parse(reason));
  }
  /** `-32600`: not a valid request object, or a request before `initialize`. */
  static invalidRequest(message = "Invalid request", data?: ErrorData): RpcError {
    return RpcError.fromObject(wireError.invalidRequest(message, data));
  }
  /** `-32601`: unknown method, or gated by a capability not advertised (`reason`). */
  static methodNotFound(method: string, reason?: string): RpcError {
    return RpcError.fromObject(wireError.methodNotFound(method, reason));
  }
  /** `-32602`: params failed validation; `data.errors` lists each location. */
  static invalidParams(data?: ErrorData): RpcError {
    return RpcError.fromObject(wireError.invalidParams(data));
  }
  /** `-32603`: a handler failed; `details` only when errors are exposed. */
  static internalError(detail?: string): RpcError {
    return RpcError.fromObject(wireError.internal("Internal error", detail === undefined ? undefined : { details: detail }));
  }
  /** `-32603` with a message and data of its own: a local failure (too many pending calls, a peer's malformed answer). */
  static internal(message: string, data?: ErrorData): RpcError {
    return RpcError.fromObject(wireError.internal(message, data));
  }
  /** `-32603`: the peer's result for `method` failed validation; `data.errors` lists each location. */
  static invalidResult(method: string, peer: string, errors: readonly unknown[]): RpcError {
    return RpcError.internal(`Invalid result for "${method}" from the ${peer}`, { errors });
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
  /** `-32022` (v2): no supported version at or below `requested`. */
  static unsupportedProtocolVersion(requested: number, supported: readonly number[]): RpcError {
    return RpcError.fromObject(wireError.unsupportedProtocolVersion(requested, supported));
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

/**
 * Rejects an outbound call the watchdog gave up on: the peer sent nothing
 * for `silenceMs` while it was in flight (`ConnectionOptions.watchdog`, or
 * `spawnAgent`'s `watchdog`); `$/cancel_request` was sent. A `-32800` like a
 * timeout, `cause` `"unresponsive"`; `silentMs` is how long the peer had
 * been silent when the watchdog looked.
 */
export class UnresponsiveError extends RequestCancelledError {
  /** The wire method of the call given up on. */
  readonly method: string;
  /** The watchdog's `silenceMs`. */
  readonly silenceMs: number;
  /** How long the peer had sent nothing, in ms, when the call was given up on. */
  readonly silentMs: number;
  constructor(method: string, silenceMs: number, silentMs: number, peer: "agent" | "client" = "agent") {
    super("unresponsive", `Request "${method}" got no message from the ${peer} for ${Math.round(silentMs)} ms (watchdog silenceMs ${silenceMs}); the ${peer} is unresponsive`, { silenceMs, silentMs: Math.round(silentMs) });
    this.name = "UnresponsiveError";
    this.method = method;
    this.silenceMs = silenceMs;
    this.silentMs = silentMs;
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
