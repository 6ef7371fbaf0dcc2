// The SDK entries the compatibility package implements, and the source file of each.
// Shared by the resolve hook (child processes) and the vitest config (in-process imports).
export const entries = {
  "@agentclientprotocol/sdk": "index.ts",
  "@agentclientprotocol/sdk/unstable": "unstable.ts",
  "@agentclientprotocol/sdk/experimental/v2": "v2.ts",
  "@agentclientprotocol/sdk/experimental/v2/unstable": "v2-unstable.ts",
  "@agentclientprotocol/sdk/experimental/http-client": "http-client.ts",
  "@agentclientprotocol/sdk/experimental/ws-client": "ws-client.ts",
  "@agentclientprotocol/sdk/experimental/server": "server.ts",
  "@agentclientprotocol/sdk/experimental/node": "node.ts",
  "@agentclientprotocol/sdk/experimental/mcp-server": "mcp-server.ts",
  "@agentclientprotocol/sdk/experimental/mcp-http": "mcp-http.ts",
  "@agentclientprotocol/sdk/experimental/nes": "nes.ts",
};

/** The source URL of `specifier`'s entry, or undefined when the compatibility package does not implement it. */
export function entryUrl(specifier) {
  const file = entries[specifier];
  return file === undefined ? undefined : new URL(`../src/${file}`, import.meta.url).href;
}
