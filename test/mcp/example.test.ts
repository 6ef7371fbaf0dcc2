// The documented example (docs/mcp.md): examples/mcp-client.ts hosts the MCP server of
// examples/mcp-tools.ts over ACP and examples/agent-mcp.ts (a real process) calls it, with and
// without mcpCapabilities.acp on the agent (the loopback bridge).
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { describe, expect, it } from "vitest";
import { runMcpClient } from "../../examples/mcp-client.ts";
import { toolsServer } from "../../examples/mcp-tools.ts";

const tour = (declared: string, refusal: string) => [
  declared,
  "> tools",
  "  agent: tools: echo, count, wait",
  '> call echo {"text":"hello over ACP"}',
  "  agent: result: hello over ACP",
  '> call count {"n":3}',
  "  agent: progress 1/3 step 1",
  "  agent: progress 2/3 step 2",
  "  agent: progress 3/3 step 3",
  "  agent: result: counted to 3",
  "> call nope {}",
  "  agent: MCP error -32602: Tool nope not found",
  "> ask nobody",
  `  agent: refused: ${refusal}`,
];

describe("examples/mcp-client.ts with examples/agent-mcp.ts", () => {
  it("runs the tour over MCP-over-ACP", async () => {
    const lines = await runMcpClient({ output: () => {} });
    expect(lines).toEqual(['agent advertises mcpCapabilities {"acp":true}', ...tour("declared: acp tools", 'MCP server "nobody" was not declared for session "mcp-1"; not sent')]);
  });

  it("runs the same tour through the loopback HTTP bridge for an agent without mcpCapabilities.acp", async () => {
    const lines = await runMcpClient({ acp: false, output: () => {} });
    expect(lines[0]).toBe('agent advertises mcpCapabilities {"http":true}');
    expect(lines[1]).toMatch(/^declared: http http:\/\/127\.0\.0\.1:\d+ \(loopback bridge\)$/);
    expect(lines.slice(2)).toEqual(tour("", "agentCapabilities.mcpCapabilities.acp was not advertised by the agent; not sent").slice(1));
  });

  it("gives our agent (a real process) the same tools/list and tools/call results as a direct MCP client of the server our client hosts", async () => {
    const lines = await runMcpClient({ prompts: ["json"], output: () => {} });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const handle = serveStdio(toolsServer(), { transport: serverSide, legacy: "reject" });
    const direct = new Client({ name: "direct", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await direct.connect(clientSide);
    const expected = { tools: await direct.listTools(), echo: await direct.callTool({ name: "echo", arguments: { text: "hello" } }) };
    await direct.close();
    await handle.close();
    const answer = lines.find((l) => l.startsWith("  agent: {"))?.slice("  agent: ".length);
    expect(JSON.parse(answer ?? "null")).toEqual(JSON.parse(JSON.stringify(expected)));
  });
});
