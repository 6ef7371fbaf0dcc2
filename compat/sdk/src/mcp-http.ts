/**
 * `@agentclientprotocol/sdk/experimental/mcp-http`: `McpOverAcpHttpBridge`,
 * `acp` MCP servers re-served as loopback MCP 2026-07-28 Streamable HTTP
 * endpoints for an agent whose MCP client takes only URLs, on acp-router's
 * loopback bridge (`src/mcp/bridge.ts`: 127.0.0.1, a bearer token per server
 * in the declaration's `Authorization` header, one forwarded `mcp/message`
 * per POST, closing the HTTP response cancels it). One listener per ACP
 * connection, closed with the connection.
 *
 * @module
 */
import { startBridge, type McpBridge } from "acp-router/mcp";
import { connectionClosed, connectionOfContext, type HasConnectionContext } from "./contexts.ts";
import type { McpOverAcpCaller, McpServerAcpDeclaration } from "./mcp.ts";
import { isMcpServerAcp } from "./mcp.ts";

/** An `mcpServers` entry of type `http`. */
export type McpServerHttpDeclaration = { type: "http"; name: string; url: string; headers: Array<{ name: string; value: string }>; _meta?: Record<string, unknown> | null };

/** Bounds of the bridge. */
export type McpOverAcpHttpBridgeOptions = {
  /** Most requests admitted at once per connection; more answer HTTP 429 with `-33000`. Default 64. */
  maxActiveRequests?: number;
  /** Largest request body, in bytes; larger answers HTTP 413 with `-33000`. Default 1 MiB. */
  maxRequestBodyBytes?: number;
  /**
   * Accepted for the SDK's signature. acp-router's bridge writes each
   * answer to the socket as it comes and lets Node's stream buffer it, so
   * it has no separate bound here (docs/sdk-drop-in.md).
   */
  maxBufferedResponseBytes?: number;
};

/** Re-serves `acp` servers over loopback HTTP through `caller` (register `caller.handleNotification` so progress reaches the HTTP streams). */
export class McpOverAcpHttpBridge {
  readonly #caller: McpOverAcpCaller;
  readonly #options: McpOverAcpHttpBridgeOptions;
  readonly #listeners = new WeakMap<object, Promise<McpBridge>>();
  constructor(caller: McpOverAcpCaller, options: McpOverAcpHttpBridgeOptions = {}) {
    this.#caller = caller;
    this.#options = options;
  }

  /** The `http` declaration serving `server` over the connection behind `context` (name and `_meta` kept). */
  async toHttp(context: HasConnectionContext, server: McpServerAcpDeclaration & { _meta?: Record<string, unknown> | null }): Promise<McpServerHttpDeclaration> {
    const bridge = await this.#listener(context);
    const declared = bridge.declare(server);
    return { type: "http", name: declared.name, url: declared.url, headers: declared.headers.map((h) => ({ name: h.name, value: h.value })), ...(declared._meta === undefined ? {} : { _meta: declared._meta }) };
  }

  /** `servers` with each `acp` entry replaced by its `http` declaration; other entries unchanged. */
  async adaptServers<T>(context: HasConnectionContext, servers: readonly T[]): Promise<Array<T | McpServerHttpDeclaration>> {
    const out: Array<T | McpServerHttpDeclaration> = [];
    for (const server of servers) out.push(isMcpServerAcp(server) ? await this.toHttp(context, server) : server);
    return out;
  }

  #listener(context: HasConnectionContext): Promise<McpBridge> {
    const key = connectionOfContext(context);
    let bridge = this.#listeners.get(key);
    if (bridge === undefined) {
      const { maxActiveRequests, maxRequestBodyBytes } = this.#options;
      bridge = startBridge(
        async (serverId, request, options) => {
          const outcome = await this.#caller.request(context, serverId, request.method, request.params, {
            ...(options.signal === undefined ? {} : { signal: options.signal }),
            onNotification: (n) => options.notify(n.method, n.params ?? undefined),
          });
          return "error" in outcome ? { error: outcome.error } : { result: outcome.result };
        },
        { ...(maxActiveRequests === undefined ? {} : { maxActiveRequests }), ...(maxRequestBodyBytes === undefined ? {} : { maxRequestBodyBytes }) },
      );
      this.#listeners.set(key, bridge);
      const started = bridge;
      void connectionClosed(key).then(async () => (await started.catch(() => undefined))?.close());
    }
    return bridge;
  }
}
