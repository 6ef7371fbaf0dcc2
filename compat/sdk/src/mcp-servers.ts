/** `assertSupportedMcpServers`: the v2 draft's check of `session/new`'s MCP servers against the agent's MCP capabilities. */
import { RequestError } from "./request-error.ts";

/**
 * Throws `-32602` for the first server the agent cannot take: a name used
 * twice, or a transport (`stdio`, `http`, `sse`, …) absent from
 * `capabilities` (the agent's `mcp` capabilities).
 */
export function assertSupportedMcpServers(mcpServers: ReadonlyArray<{ name?: unknown; type?: unknown }> | null | undefined, capabilities: Record<string, unknown> | null | undefined): void {
  const names = new Set<string>();
  for (const server of mcpServers ?? []) {
    if (typeof server.name === "string") {
      if (names.has(server.name)) throw RequestError.invalidParams({ name: server.name }, `Duplicate MCP server name ${server.name}`);
      names.add(server.name);
    }
    const type = server.type;
    if (typeof type !== "string" || type === "_meta" || capabilities?.[type] == null) throw RequestError.invalidParams({ type }, `Unsupported MCP server transport ${String(type)}`);
  }
}
