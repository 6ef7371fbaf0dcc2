/**
 * `McpOverAcpCaller`: the agent's side of MCP-over-ACP — sends inner requests
 * to the servers a client declared with `"type": "acp"`, stamping each
 * request's inner `_meta`, and routes the provider's request-scoped
 * notifications to the request they belong to.
 */
import { MCP_MESSAGE } from "acp-router/mcp";
import { connectionOfContext, contextSender, type HasConnectionContext } from "./contexts.ts";
import { bindingFailure, generateId, McpBindingErrorCode, parseMcpOutcome, withMcpRequestMeta } from "./mcp-binding.ts";
import type { McpCallerOptions, McpMessageNotificationContext, McpNotification, McpOutcome, McpRequestOptions } from "./mcp-binding.ts";

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
