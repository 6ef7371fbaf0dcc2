/**
 * `RequestError`, the SDK's error class, as a subclass of acp-router's
 * `RpcError`: a handler that throws one is answered with exactly its code,
 * message and data by the core, and every error the core rejects a call with
 * (an `RpcError`, a `ConnectionClosedError`, a cancelled call) passes
 * `instanceof RequestError`, so SDK code that tests for it keeps working.
 */
import { RpcError, type ErrorObject } from "acp-router";

/** `message` plus `: detail` when a detail was given: the SDK's wording of every factory below. */
const withDetail = (message: string, detail: string | undefined): string => (detail ? `${message}: ${detail}` : message);

/** `RpcError`'s instance side only: the SDK's factories take other arguments than `RpcError`'s. */
const ErrorBase: new (code: number, message: string, data?: unknown) => RpcError = RpcError;

/** A JSON-RPC error answered to, or received from, the peer (the SDK's name for `RpcError`). */
export class RequestError extends ErrorBase {
  constructor(code: number, message: string, data?: unknown) {
    super(code, message, data);
    this.name = "RequestError";
  }

  /** Every `RpcError` is a `RequestError` to SDK code: the core's own rejections included. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof RpcError;
  }

  /** `-32700`. */
  static parseError(data?: unknown, detail?: string): RequestError {
    return new RequestError(-32700, withDetail("Parse error", detail), data);
  }
  /** `-32600`. */
  static invalidRequest(data?: unknown, detail?: string): RequestError {
    return new RequestError(-32600, withDetail("Invalid request", detail), data);
  }
  /** `-32601`, naming the method in `data.method`. */
  static methodNotFound(method: string): RequestError {
    return new RequestError(-32601, `"Method not found": ${method}`, { method });
  }
  /** `-32602`. */
  static invalidParams(data?: unknown, detail?: string): RequestError {
    return new RequestError(-32602, withDetail("Invalid params", detail), data);
  }
  /** `-32603`. */
  static internalError(data?: unknown, detail?: string): RequestError {
    return new RequestError(-32603, withDetail("Internal error", detail), data);
  }
  /** `-32800`. */
  static requestCancelled(data?: unknown, detail?: string): RequestError {
    return new RequestError(-32800, withDetail("Request cancelled", detail), data);
  }
  /** `-32000`. */
  static authRequired(data?: unknown, detail?: string): RequestError {
    return new RequestError(-32000, withDetail("Authentication required", detail), data);
  }
  /** `-32002`, naming the resource in `data.uri` when given. */
  static resourceNotFound(uri?: string): RequestError {
    return new RequestError(-32002, withDetail("Resource not found", uri), uri ? { uri } : undefined);
  }
  /** `-32002` for a session id this agent does not know, in `data.sessionId`. */
  static sessionNotFound(sessionId: string): RequestError {
    return new RequestError(-32002, "Resource not found", { sessionId });
  }
  /** `-32022` (ACP v2): `data` lists the version asked for and the ones served. */
  static unsupportedProtocolVersion(requested: number, supported: readonly number[]): RequestError {
    return new RequestError(-32022, "Unsupported protocol version", { requested, supported: [...supported] });
  }

  /** This error as a JSON-RPC result's `error` member. */
  toResult<T>(): { result: T } | { error: ErrorObject } {
    return { error: this.toErrorResponse() };
  }
  /** The wire form: code, message and data when set. */
  toErrorResponse(): ErrorObject {
    return this.toJSON();
  }
}
