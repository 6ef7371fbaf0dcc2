/**
 * `@agentclientprotocol/sdk/experimental/mcp-server`: `fromMcpServer`, an
 * `@modelcontextprotocol/server` server as an MCP-over-ACP request handler,
 * on acp-router's server seam (`src/mcp/server-transport.ts`, the one our
 * own provider serves through): the MCP SDK's `serveStdio` over a transport
 * fed one exchange per `mcp/message` request, so discovery, capability
 * checks, progress and cancellation are the MCP SDK's own.
 *
 * `@modelcontextprotocol/server` is a peer the application installs (as with
 * the SDK); it is loaded on the first request.
 *
 * @module
 */
import type { CreateMcpHandlerOptions, McpServerFactory, ServerEventBus, ServerNotifier } from "@modelcontextprotocol/server";
import { ServerExchanges } from "acp-router/mcp";
import type { McpRequestHandler } from "./mcp.ts";

/** Options of {@link fromMcpServer}. */
export type FromMcpServerOptions = Pick<CreateMcpHandlerOptions, "bus" | "maxSubscriptions" | "onerror">;

/** An MCP SDK server adapted to serve MCP-over-ACP requests. */
export type McpServerAdapter = {
  /** The handler to pass to `McpOverAcpProvider.registerServer`. */
  handler: McpRequestHandler;
  /** Publishes change events on {@link McpServerAdapter.bus}. */
  notify: ServerNotifier;
  /** The event bus behind `notify` (the one given, or an in-process one). */
  bus: ServerEventBus;
  /** Closes the server and fails its active requests. */
  close(): Promise<void>;
};

/**
 * Serves the server `factory` builds over MCP-over-ACP. One instance is
 * built on the first request and serves every later one (the MCP SDK's
 * stdio entry pins one per connection; see docs/sdk-drop-in.md for how this
 * differs from the SDK's instance per request).
 */
export function fromMcpServer(factory: McpServerFactory, options: FromMcpServerOptions = {}): McpServerAdapter {
  const exchanges = new ServerExchanges();
  let started: Promise<{ close(): Promise<void> }> | undefined;
  let bus: ServerEventBus | undefined = options.bus;
  let next = 0;
  const start = () =>
    (started ??= import("@modelcontextprotocol/server/stdio").then(({ serveStdio }) =>
      serveStdio(factory, { transport: exchanges, legacy: "reject", ...(options.onerror === undefined ? {} : { onerror: options.onerror }), ...(options.maxSubscriptions === undefined ? {} : { maxSubscriptions: options.maxSubscriptions }) }),
    ));
  // A bus of our own when none was given: publishing to it needs no MCP SDK import up front.
  const ownBus = (): ServerEventBus => {
    const listeners = new Set<(event: Parameters<ServerEventBus["publish"]>[0]) => void>();
    return {
      publish(event) {
        for (const listener of [...listeners]) {
          try {
            listener(event);
          } catch (error) {
            options.onerror?.(error instanceof Error ? error : new Error(String(error)));
          }
        }
      },
      subscribe(listener) {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
    };
  };
  bus ??= ownBus();
  const events = bus;
  const handler: McpRequestHandler = async (context) => {
    await start();
    // The inner JSON-RPC id is ours (unique per adapter), so one adapter may serve several connections.
    const id = `acp-${++next}`;
    const outcome = await exchanges.exchange({ requestId: id, method: context.method, params: context.params }, { signal: context.signal, notify: (method, params) => void context.notify(method, params).catch(() => {}) });
    return "error" in outcome ? { error: { ...outcome.error } } : { result: outcome.result };
  };
  const notify: ServerNotifier = {
    toolsChanged: () => events.publish({ kind: "tools_list_changed" }),
    promptsChanged: () => events.publish({ kind: "prompts_list_changed" }),
    resourcesChanged: () => events.publish({ kind: "resources_list_changed" }),
    resourceUpdated: (uri) => events.publish({ kind: "resource_updated", uri }),
  };
  return {
    handler,
    notify,
    bus: events,
    async close() {
      await exchanges.close();
      await (await started?.catch(() => undefined))?.close();
    },
  };
}
