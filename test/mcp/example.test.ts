// The documented example (docs/mcp.md): examples/mcp-client.ts hosts the MCP server of
// examples/mcp-tools.ts over ACP and examples/agent-mcp.ts (a real process) calls it, with and
// without mcpCapabilities.acp on the agent (the loopback bridge).
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runMcpClient } from "../../examples/mcp-client.ts";
import { toolsServer } from "../../examples/mcp-tools.ts";
import { mcpTourTranscript } from "./tour.ts";

const tour = mcpTourTranscript;

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

  it("runs the tour with acp-router inspect in front of the agent: the inner MCP traffic is decoded and no rule is broken", async () => {
    const dir = await mkdtemp(join(tmpdir(), "acp-router-mcp-"));
    try {
      const summary = join(dir, "summary.txt");
      const tsx = ["--import", "tsx"];
      const bin = fileURLToPath(new URL("../../bin/acp-router.ts", import.meta.url));
      const agent = fileURLToPath(new URL("../../examples/agent-mcp.ts", import.meta.url));
      const lines = await runMcpClient({ output: () => {}, agentCommand: [process.execPath, ...tsx, bin, "inspect", "--summary", summary, "--", process.execPath, ...tsx, agent] });
      expect(lines.at(-1)).toBe('  agent: refused: MCP server "nobody" was not declared for session "mcp-1"; not sent');
      const text = await readFile(summary, "utf8");
      expect(text).toContain("violations: none");
      expect(text).toMatch(/mcp\/message\s+agent\+client\s+5\s+3\s+5\s+0/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
