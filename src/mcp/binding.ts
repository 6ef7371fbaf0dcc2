/**
 * The MCP-over-ACP binding's fixed parts: the wire, the outer error codes,
 * the inner outcome carrier and the `acp` server declaration. Both sides
 * (provider, caller, bridge) and the tools read them from here.
 *
 * Outer ACP errors are reserved for failures of the binding itself; an
 * inner MCP error travels in a successful answer's `error` carrier. The
 * codes are those of the official SDK 2.4.0 (`McpBindingErrorCode` in
 * `@agentclientprotocol/sdk/dist/mcp/core`), so a peer built on either
 * library reads the same failure the same way.
 */
import { RpcError } from "../errors.ts";

/** The ACP method that carries MCP requests (agent → client) and request-scoped notifications (client → agent). */
export const MCP_MESSAGE = "mcp/message";

/** The MCP revision this binding speaks (MCP 2026-07-28: no `initialize`, per-request `_meta`), as the official SDK. */
export const MCP_PROTOCOL_VERSION = "2026-07-28";

/**
 * Outer ACP error codes of the binding (the official SDK's values):
 *
 * | code | when |
 * |---|---|
 * | `-32602` | a malformed envelope, or a `(serverId, requestId)` already active |
 * | `-32800` | the outer call was cancelled (`$/cancel_request`) |
 * | `-33000` | a resource limit: too many active requests, or an inner message over `maxMessageBytes` |
 * | `-33001` | no server is available for `serverId` on this connection (never registered, never declared, or closed) |
 * | `-33002` | the MCP server failed without a valid MCP outcome |
 */
export const McpBindingError = {
  InvalidParams: -32602,
  RequestCancelled: -32800,
  ResourceLimitExceeded: -33000,
  ServerUnavailable: -33001,
  BackendFailed: -33002,
} as const;

/** An inner MCP error object: `code` and `message` required, `data` kept as sent. */
export interface McpErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** The inner outcome of one `mcp/message` request: exactly one of `result` (any JSON, `null` included) or `error`. */
export type McpOutcome = { readonly result: unknown } | { readonly error: McpErrorObject };

/** An `mcpServers` entry of type `acp`. */
export interface AcpServerDeclaration {
  readonly type: "acp";
  readonly name: string;
  readonly serverId: string;
  readonly _meta?: Record<string, unknown> | null;
}

/** A JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True for an `mcpServers` entry `{ type: "acp", name, serverId }`. */
export function isAcpServer(value: unknown): value is AcpServerDeclaration {
  return isObject(value) && value.type === "acp" && typeof value.name === "string" && typeof value.serverId === "string";
}

/** True for an inner MCP error object (integer `code`, string `message`). */
export function isMcpError(value: unknown): value is McpErrorObject {
  return isObject(value) && Number.isInteger(value.code) && typeof value.message === "string";
}

/**
 * Reads an `mcp/message` answer: `result` when present (the schema: receivers
 * prefer `result` if both came), else a valid `error`; undefined when it
 * carries neither.
 */
export function outcomeOf(value: unknown): McpOutcome | undefined {
  if (!isObject(value)) return undefined;
  if (Object.prototype.hasOwnProperty.call(value, "result")) return { result: value.result };
  return isMcpError(value.error) ? { error: value.error } : undefined;
}

/** A binding failure as an outer ACP error with one of {@link McpBindingError}'s codes. */
export function bindingError(code: number, message: string, data?: Record<string, unknown>): RpcError {
  return new RpcError(code, message, data);
}
