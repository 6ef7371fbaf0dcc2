/**
 * The MCP-over-ACP binding's vocabulary as SDK 2.4.0's unstable entries
 * export it: the wire method and the inner `_meta` keys, the outer error
 * codes, the inner outcome and notification shapes, the options of the
 * provider and the caller, `McpProtocolError`, and the helpers that read a
 * carrier and stamp a request's inner `_meta`. Built on acp-router's binding
 * (`src/mcp/binding.ts`); the provider and the caller use it
 * (`mcp-provider.ts`, `mcp-caller.ts`).
 */
import { isAcpServer, MCP_MESSAGE, MCP_PROTOCOL_VERSION as BINDING_VERSION, McpBindingError, outcomeOf } from "acp-router/mcp";
import { isObject } from "./mcp-values.ts";
import type { HasConnectionContext } from "./contexts.ts";
import { RequestError } from "./request-error.ts";
import type { MaybePromise } from "./wire-types.ts";
import type { MessageMcpResponse as V1Response } from "acp-router/unstable";
import type { MessageMcpResponse as V2Response } from "acp-router/v2/unstable";

/**
 * The outcome `handleRequest` resolves with, typed so it is also the table's
 * `mcp/message` result: the generated types read the schema's untyped
 * `result` as an object where the SDK says `unknown` (docs/sdk-drop-in.md),
 * and `onRequest(methods.client.mcp.message, provider.handleRequest)` must
 * compile as it does on the SDK.
 */
export type McpProvidedOutcome = McpOutcome & V1Response & V2Response;

export type { HasConnectionContext } from "./contexts.ts";

/** The ACP method carrying MCP requests (agent → client) and request-scoped notifications (client → agent). */
export const MCP_MESSAGE_METHOD = MCP_MESSAGE;
/** The one MCP revision the binding speaks. */
export const MCP_PROTOCOL_VERSION = BINDING_VERSION;
/** Inner `_meta` key: the request's MCP protocol version. */
export const MCP_META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
/** Inner `_meta` key: the caller's MCP client capabilities. */
export const MCP_META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
/** Inner `_meta` key: the caller's MCP client info. */
export const MCP_META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

/** The binding's outer ACP error codes (never inner MCP codes), under the SDK's names. */
export const McpBindingErrorCode = {
  invalidParams: McpBindingError.InvalidParams,
  requestCancelled: McpBindingError.RequestCancelled,
  resourceLimitExceeded: McpBindingError.ResourceLimitExceeded,
  serverUnavailable: McpBindingError.ServerUnavailable,
  backendFailed: McpBindingError.BackendFailed,
} as const;

/** An inner MCP error object. */
export type McpErrorObject = { code: number; message: string; data?: unknown; [key: string]: unknown };
/** The inner outcome of one `mcp/message` request: exactly one of `result` (any JSON, `null` too) or `error`. */
export type McpOutcome = { result: unknown; _meta?: Record<string, unknown> | null } | { error: McpErrorObject; _meta?: Record<string, unknown> | null };
/** A request-scoped MCP notification received for an active request. */
export type McpNotification = { method: string; params?: Record<string, unknown> | null; _meta?: Record<string, unknown> | null };
/** The MCP client identity sent in each request's inner `_meta`. */
export type McpClientInfo = { name: string; version: string; [key: string]: unknown };
/** A caller's defaults for the inner `_meta`. */
export type McpCallerOptions = { clientCapabilities?: Record<string, unknown>; clientInfo?: McpClientInfo };
/** Options of one {@link McpOverAcpCaller.request}. */
export type McpRequestOptions = {
  /** The logical MCP request id (default a fresh one); never reuse one still active for the server. */
  requestId?: string;
  /** Aborting sends `$/cancel_request` for the outer call. */
  signal?: AbortSignal;
  /** Receives the request's notifications (progress, subscription events) while it is active. */
  onNotification?: (notification: McpNotification) => void;
  /** Outer ACP `_meta` of the envelope (not the inner MCP `_meta`). */
  _meta?: Record<string, unknown>;
};
/** What a served MCP server's handler gets for one inner request. */
export type McpOperationContext = {
  serverId: string;
  requestId: string;
  method: string;
  params: Record<string, unknown> | undefined;
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  clientInfo: unknown;
  envelopeMeta: Record<string, unknown> | undefined;
  /** Aborts when the caller cancels, the registration is disposed, or the connection closes. */
  signal: AbortSignal;
  /** Sends a notification scoped to this request; dropped once it completed. */
  notify(method: string, params?: Record<string, unknown> | null): Promise<void>;
};
/** Answers one inner request: return the outcome, or throw {@link McpProtocolError} for an inner error. */
export type McpRequestHandler = (context: McpOperationContext) => MaybePromise<McpOutcome>;
/** Options of {@link McpOverAcpProvider.registerServer}. */
export type McpServerOptions = { name: string; handler: McpRequestHandler; serverId?: string; maxActiveRequests?: number };
/** An `mcpServers` entry of type `acp`. */
export type McpServerAcpDeclaration = { type: "acp"; name: string; serverId: string };
/** `mcp/message` params on the wire. */
export type McpMessageParams = { serverId: string; requestId: string; method: string; params?: Record<string, unknown> | null; _meta?: Record<string, unknown> | null };
/** What {@link McpOverAcpProvider.handleRequest} reads of a client's request context. */
export type McpMessageRequestContext = { params: McpMessageParams; signal: AbortSignal; agent: HasConnectionContext };
/** What {@link McpOverAcpCaller.handleNotification} reads of an agent's notification context. */
export type McpMessageNotificationContext = { params: McpMessageParams; client: HasConnectionContext };

/** True for an `mcpServers` entry `{ type: "acp", name, serverId }`. */
export function isMcpServerAcp(server: unknown): server is McpServerAcpDeclaration {
  return isAcpServer(server);
}

/** An inner MCP error a server handler throws: answered in the carrier's `error`, not as an outer ACP error. */
export class McpProtocolError extends Error {
  readonly code: number;
  readonly data?: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "McpProtocolError";
    this.code = code;
    if (data !== undefined) this.data = data;
  }
  /** The inner MCP error object. */
  toMcpError(): McpErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

/** A fresh id `prefix:<uuid>`. @hidden */
export function generateId(prefix: string): string {
  return `${prefix}:${globalThis.crypto.randomUUID()}`;
}

/** A JSON object (no array, no null). @hidden */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return isObject(value);
}

/** Reads a received carrier: `result` wins when both came; undefined when it carries neither. Keeps `_meta`. */
export function parseMcpOutcome(value: unknown): McpOutcome | undefined {
  const outcome = outcomeOf(value);
  if (outcome === undefined || !isObject(value)) return undefined;
  const meta = value._meta;
  const extra = meta === undefined ? {} : { _meta: meta as Record<string, unknown> | null };
  return "result" in outcome ? { result: outcome.result, ...extra } : { error: outcome.error as McpErrorObject, ...extra };
}

/** `params` with the inner `_meta` MCP 2026-07-28 requires (version, client capabilities, client info), keeping what the caller set. */
export function withMcpRequestMeta(params: Record<string, unknown> | null | undefined, options: McpCallerOptions = {}): Record<string, unknown> {
  const base = params ?? {};
  const given = isObject(base._meta) ? base._meta : {};
  const meta: Record<string, unknown> = { ...given };
  if (!(MCP_META_PROTOCOL_VERSION in meta)) meta[MCP_META_PROTOCOL_VERSION] = MCP_PROTOCOL_VERSION;
  if (!(MCP_META_CLIENT_CAPABILITIES in meta)) meta[MCP_META_CLIENT_CAPABILITIES] = options.clientCapabilities ?? {};
  if (!(MCP_META_CLIENT_INFO in meta) && options.clientInfo !== undefined) meta[MCP_META_CLIENT_INFO] = options.clientInfo;
  return { ...base, _meta: meta };
}

/** A failure of the binding itself, answered with one of its outer codes. @hidden */
export const bindingFailure = (code: number, message: string, data?: unknown): RequestError => new RequestError(code, message, data);
