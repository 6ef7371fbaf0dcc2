/**
 * MCP-over-ACP as SDK 2.4.0's unstable entries export it
 * (`McpOverAcpProvider`, `McpOverAcpCaller`, the binding's constants and
 * helpers), on acp-router's binding (`src/mcp/binding.ts`: the wire method,
 * the outer error codes, the outcome carrier and the `acp` declaration) and
 * on the package's contexts, so every `mcp/message` call and notification
 * goes through the core's gate, validation and cancellation.
 *
 * The provider serves servers given as request handlers (an
 * `@modelcontextprotocol/server` server becomes one with `fromMcpServer`
 * of `./experimental/mcp-server`); the caller sends inner requests and routes
 * the provider's request-scoped notifications back to them.
 */
import { isAcpServer, MCP_MESSAGE, MCP_PROTOCOL_VERSION as BINDING_VERSION, McpBindingError, outcomeOf } from "acp-router/mcp";
import { isMcpError, isObject } from "./mcp-values.ts";
import { connectionClosed, connectionOfContext, contextSender, type HasConnectionContext } from "./contexts.ts";
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

const bindingFailure = (code: number, message: string, data?: unknown) => new RequestError(code, message, data);

/** One registered server on one connection. */
interface Served {
  readonly name: string;
  readonly handler: McpRequestHandler;
  readonly maxActive: number;
  /** Aborted by `dispose`: active requests are cancelled. */
  readonly disposal: AbortController;
  /** requestId → its handler's settlement. */
  readonly active: Map<string, Promise<unknown>>;
}

interface ProviderConnection {
  readonly servers: Map<string, Served>;
  /** Every server id ever registered here: ids are never reused on a connection. */
  readonly used: Set<string>;
}

/** A registered server: its declaration for `mcpServers`, and `dispose`. */
export class McpServerRegistration {
  readonly name: string;
  readonly serverId: string;
  readonly #release: () => Promise<void>;
  /** @internal Made by {@link McpOverAcpProvider.registerServer}. */
  constructor(name: string, serverId: string, release: () => Promise<void>) {
    this.name = name;
    this.serverId = serverId;
    this.#release = release;
  }
  /** The `mcpServers` entry to put in `session/new` (and load, resume, fork). */
  get declaration(): McpServerAcpDeclaration {
    return { type: "acp", name: this.name, serverId: this.serverId };
  }
  /** Stops serving: later requests answer `-33001`; active ones are cancelled, and this settles once their handlers did. */
  dispose(): Promise<void> {
    return this.#release();
  }
  /** `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }
}

/** Serves MCP servers to the agent over `mcp/message`: one provider per app, servers registered per connection. */
export class McpOverAcpProvider {
  readonly #connections = new WeakMap<object, ProviderConnection>();

  /** Registers a server on the connection behind `context`; it serves at once, so declare it afterwards. */
  registerServer(context: HasConnectionContext, options: McpServerOptions): McpServerRegistration {
    if (typeof options?.name !== "string" || typeof options.handler !== "function") throw new TypeError("registerServer(context, { name, handler, serverId?, maxActiveRequests? }): name must be a string and handler a function.");
    const maxActive = options.maxActiveRequests ?? 64;
    if (!Number.isInteger(maxActive) || maxActive < 1) throw new TypeError(`registerServer: maxActiveRequests must be a positive integer; got ${String(maxActive)}.`);
    const key = connectionOfContext(context);
    let state = this.#connections.get(key);
    if (state === undefined) {
      const created: ProviderConnection = { servers: new Map(), used: new Set() };
      this.#connections.set(key, (state = created));
      // The connection's end disposes its servers: their handlers see their signals abort.
      void connectionClosed(key).then(() => {
        for (const served of created.servers.values()) served.disposal.abort(new Error("the ACP connection closed"));
        created.servers.clear();
      });
    }
    const serverId = options.serverId ?? generateId(options.name);
    if (state.used.has(serverId)) throw new Error(`MCP server ID ${serverId} was already registered on this connection`);
    state.used.add(serverId);
    const served: Served = { name: options.name, handler: options.handler, maxActive, disposal: new AbortController(), active: new Map() };
    state.servers.set(serverId, served);
    const servers = state.servers;
    return new McpServerRegistration(options.name, serverId, async () => {
      if (servers.get(serverId) === served) servers.delete(serverId);
      served.disposal.abort(new Error(`MCP server ${serverId} registration was disposed`));
      await Promise.allSettled([...served.active.values()]);
    });
  }

  /** The client's `mcp/message` request handler: resolves with the inner outcome; binding failures reject with their outer code. */
  readonly handleRequest = async (context: McpMessageRequestContext): Promise<McpProvidedOutcome> => {
    const { serverId, requestId, method } = context.params;
    const key = connectionOfContext(context.agent);
    const served = this.#connections.get(key)?.servers.get(serverId);
    if (served === undefined) throw bindingFailure(McpBindingErrorCode.serverUnavailable, "MCP server registration unavailable", { serverId });
    if (served.active.has(requestId)) throw RequestError.invalidParams({ serverId, requestId }, "duplicate active MCP request ID");
    if (served.active.size >= served.maxActive) throw bindingFailure(McpBindingErrorCode.resourceLimitExceeded, "MCP-over-ACP active request limit exceeded", { serverId });
    const controller = new AbortController();
    const cancel = (source: AbortSignal) => () => controller.abort(source.reason);
    const onCancel = cancel(context.signal);
    const onDispose = cancel(served.disposal.signal);
    if (context.signal.aborted) onCancel();
    context.signal.addEventListener("abort", onCancel, { once: true });
    served.disposal.signal.addEventListener("abort", onDispose, { once: true });
    let done = false;
    const agent = contextSender(context.agent);
    const notify = async (name: string, params?: Record<string, unknown> | null) => {
      if (done) return;
      await agent.notify(MCP_MESSAGE, { serverId, requestId, method: name, ...(params === undefined ? {} : { params }) });
    };
    const settled = serve(served.handler, context.params, method, controller.signal, notify);
    served.active.set(
      requestId,
      settled.catch(() => {}),
    );
    try {
      return (await settled) as McpProvidedOutcome;
    } catch (error) {
      throw outerError(error, controller.signal);
    } finally {
      done = true; // nothing after the answer
      context.signal.removeEventListener("abort", onCancel);
      served.disposal.signal.removeEventListener("abort", onDispose);
      served.active.delete(requestId);
    }
  };
}

/** A handler's failure that the binding itself found (an invalid outcome): `-33002` with this message. */
class InvalidOutcome extends Error {}

/** Runs one inner request through `handler`: the inner `_meta` checked first, an {@link McpProtocolError} as an inner error. */
async function serve(handler: McpRequestHandler, envelope: McpMessageParams, method: string, signal: AbortSignal, notify: McpOperationContext["notify"]): Promise<McpOutcome> {
  await Promise.resolve(); // recorded as active before the handler runs
  const params = isObject(envelope.params) ? envelope.params : undefined;
  const meta = isObject(params?._meta) ? params._meta : undefined;
  const protocolVersion = meta?.[MCP_META_PROTOCOL_VERSION];
  const clientCapabilities = meta?.[MCP_META_CLIENT_CAPABILITIES];
  if (typeof protocolVersion !== "string") return innerInvalid(`missing ${MCP_META_PROTOCOL_VERSION} in params._meta`);
  if (protocolVersion !== MCP_PROTOCOL_VERSION) return { error: { code: -32022, message: "Unsupported protocol version", data: { supported: [MCP_PROTOCOL_VERSION], requested: protocolVersion } } };
  if (!isObject(clientCapabilities)) return innerInvalid(`missing ${MCP_META_CLIENT_CAPABILITIES} in params._meta`);
  if (signal.aborted) throw signal.reason; // cancelled before it started: never run
  let outcome: unknown;
  try {
    outcome = await handler({
      serverId: envelope.serverId,
      requestId: envelope.requestId,
      method,
      params,
      protocolVersion,
      clientCapabilities,
      clientInfo: meta?.[MCP_META_CLIENT_INFO],
      envelopeMeta: isObject(envelope._meta) ? envelope._meta : undefined,
      signal,
      notify,
    });
  } catch (error) {
    if (!(error instanceof McpProtocolError)) throw error;
    outcome = { error: error.toMcpError() };
  }
  return checkedOutcome(outcome);
}

/** What a handler returned, if it is exactly one of a defined `result` or a valid `error`. */
function checkedOutcome(outcome: unknown): McpOutcome {
  if (isObject(outcome)) {
    const hasResult = Object.prototype.hasOwnProperty.call(outcome, "result");
    const hasError = Object.prototype.hasOwnProperty.call(outcome, "error");
    const valid = hasResult ? !hasError && outcome.result !== undefined : hasError && isMcpError(outcome.error);
    const parsed = valid ? parseMcpOutcome(outcome) : undefined;
    if (parsed !== undefined) return parsed;
  }
  throw new InvalidOutcome("MCP server handler produced an invalid outcome: expected exactly one of a defined `result` or an `error` with an integer `code` and string `message`");
}

function innerInvalid(message: string): McpOutcome {
  return { error: { code: -32602, message: `Invalid params: ${message}` } };
}

/** A handler's failure as the outer answer: `-32800` once cancelled, else `-33002` (a handler's own ACP code goes in `data`, never out as the binding's). */
function outerError(error: unknown, signal: AbortSignal): RequestError {
  const code = (error as { code?: unknown } | null)?.code;
  if (signal.aborted || (error instanceof RequestError && code === McpBindingErrorCode.requestCancelled)) return RequestError.requestCancelled();
  if (error instanceof InvalidOutcome) return bindingFailure(McpBindingErrorCode.backendFailed, error.message);
  const details = error instanceof Error ? error.message : String(error);
  return bindingFailure(McpBindingErrorCode.backendFailed, "MCP server handler failed", error instanceof RequestError ? { details, code } : { details });
}

/** Calls MCP servers the client declared with `"type": "acp"`; one caller per app. */
export class McpOverAcpCaller {
  readonly #options: McpCallerOptions;
  /** Per connection: `[serverId, requestId]` → the active request's notification listener. */
  readonly #routes = new WeakMap<object, Map<string, (notification: McpNotification) => void>>();
  constructor(options: McpCallerOptions = {}) {
    this.#options = options;
  }

  /**
   * Sends one inner request to `serverId` over the connection behind `context`; resolves with its
   * inner outcome (an inner MCP error resolves as `{ error }`). Outer failures — cancellation,
   * binding errors, the core's gate — reject with a `RequestError`.
   */
  async request(context: HasConnectionContext, serverId: string, method: string, params?: Record<string, unknown> | null, options: McpRequestOptions = {}): Promise<McpOutcome> {
    const key = connectionOfContext(context);
    let routes = this.#routes.get(key);
    if (routes === undefined) this.#routes.set(key, (routes = new Map()));
    const requestId = options.requestId ?? generateId("mcp-request");
    const route = routeKey(serverId, requestId);
    if (routes.has(route)) throw new Error(`MCP request ${requestId} is already active for server ${serverId}`);
    routes.set(route, options.onNotification ?? (() => {}));
    try {
      const envelope = { serverId, requestId, method, params: withMcpRequestMeta(params, this.#options), ...(options._meta === undefined ? {} : { _meta: options._meta }) };
      const response = await contextSender(context).request(MCP_MESSAGE, envelope, options.signal === undefined ? undefined : { signal: options.signal });
      const outcome = parseMcpOutcome(response);
      if (outcome === undefined) throw bindingFailure(McpBindingErrorCode.backendFailed, "Invalid MCP-over-ACP response carrier", { response });
      return outcome;
    } finally {
      routes.delete(route);
    }
  }

  /** The agent's `mcp/message` notification handler: hands each notification to its active request; others are dropped. */
  readonly handleNotification = (context: McpMessageNotificationContext): void => {
    const { serverId, requestId, method, params, _meta } = context.params;
    const listener = this.#routes.get(connectionOfContext(context.client))?.get(routeKey(serverId, requestId));
    if (listener === undefined) return;
    try {
      listener({ method, ...(params == null ? {} : { params }), ...(_meta == null ? {} : { _meta }) });
    } catch (error) {
      console.error("MCP-over-ACP notification listener failed", error);
    }
  };
}

function routeKey(serverId: string, requestId: string): string {
  return JSON.stringify([serverId, requestId]);
}
