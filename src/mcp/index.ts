/**
 * acp-router/mcp: MCP-over-ACP on the unstable table (`acp-router/unstable`),
 * both sides, with the real MCP SDK (`@modelcontextprotocol/server` and
 * `@modelcontextprotocol/client` 2.4, optional peer dependencies of this
 * entry only; the core never imports them). Each side loads only its own
 * package, on first use: a client (provider) needs `…/server`, an agent
 * (caller) needs `…/client`.
 *
 * - {@link createMcpProvider}: a client (or proxy) hosts MCP servers over
 *   its ACP connection and answers the agent's `mcp/message` requests.
 * - {@link createMcpCaller}: an agent gets an MCP client whose requests are
 *   `mcp/message` calls.
 * - {@link startBridge}: a loopback HTTP bridge for an agent without
 *   `mcpCapabilities.acp` (the provider starts one itself when needed).
 * - {@link ServerExchanges}: the MCP server `Transport` the provider and the
 *   bridge feed, one inner request per exchange: connect an MCP SDK server to
 *   it to answer `mcp/message` requests your own way (the SDK drop-in's
 *   `fromMcpServer` does).
 *
 * Binding failures are outer ACP errors with the official SDK's codes
 * ({@link McpBindingError}); inner MCP errors travel in a successful
 * `{ error }` answer. Node only (the MCP SDK's server entry and the bridge
 * use Node modules). See docs/mcp.md.
 *
 * @module
 */
export { MCP_MESSAGE, MCP_PROTOCOL_VERSION, McpBindingError, isAcpServer, outcomeOf, type AcpServerDeclaration, type McpErrorObject, type McpOutcome } from "./binding.ts";
export { createMcpProvider, type McpProvider, type McpProviderOptions, type McpRegistration, type ProviderConnection, type ProviderContext } from "./provider.ts";
export { createMcpCaller, type CallerContext, type McpCaller, type McpCallerOptions, type McpHttpEndpoint } from "./caller.ts";
export { startBridge, type BridgeForward, type HttpServerDeclaration, type McpBridge, type McpBridgeOptions } from "./bridge.ts";
export { ServerExchanges, type ExchangeOptions, type InnerRequest } from "./server-transport.ts";
