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
 *
 * The binding's vocabulary is in `mcp-binding.ts`, the provider in
 * `mcp-provider.ts`, the caller in `mcp-caller.ts`; this module is their
 * one face, as the SDK's `mcp` module is.
 */
export * from "./mcp-binding.ts";
export { McpOverAcpProvider, McpServerRegistration } from "./mcp-provider.ts";
export { McpOverAcpCaller } from "./mcp-caller.ts";
