/**
 * The one error type of acp-router and the one list of codes. Every error the
 * router writes has an integer code and a one-line message; `data` carries
 * detail (`errors` per location, `reason`, `method`).
 */

/** JSON-RPC 2.0 and ACP error codes. */
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

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** A JSON-RPC error object as written on the wire. */
export interface ErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

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

  static parseError(detail?: string): RpcError {
    return new RpcError(ErrorCode.ParseError, "Parse error", detail === undefined ? undefined : { reason: detail });
  }
  static invalidRequest(message = "Invalid request", data?: unknown): RpcError {
    return new RpcError(ErrorCode.InvalidRequest, message, data);
  }
  static methodNotFound(method: string, reason?: string): RpcError {
    return new RpcError(ErrorCode.MethodNotFound, "Method not found", reason === undefined ? { method } : { method, reason });
  }
  static invalidParams(data?: unknown): RpcError {
    return new RpcError(ErrorCode.InvalidParams, "Invalid params", data);
  }
  static internalError(detail?: string): RpcError {
    return new RpcError(ErrorCode.InternalError, "Internal error", detail === undefined ? undefined : { details: detail });
  }
  static requestCancelled(): RpcError {
    return new RpcError(ErrorCode.RequestCancelled, "Request cancelled");
  }
  static authRequired(message = "Authentication required"): RpcError {
    return new RpcError(ErrorCode.AuthRequired, message);
  }
  static resourceNotFound(uri?: string): RpcError {
    return new RpcError(ErrorCode.ResourceNotFound, "Resource not found", uri === undefined ? undefined : { uri });
  }

  /**
   * Converts anything thrown into an RpcError: an RpcError passes through; a
   * wire error object keeps its code and message; anything else is
   * `-32603`, with the original message only when `expose` is true.
   */
  static from(value: unknown, expose = false): RpcError {
    if (value instanceof RpcError) return value;
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
