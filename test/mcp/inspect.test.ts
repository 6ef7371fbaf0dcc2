// inspect/report on MCP-over-ACP: the inner MCP traffic inside mcp/message is decoded (method,
// request id, result or error) and the binding's rules are checked (tools/inspect/mcp.ts).
import { describe, expect, it } from "vitest";
import { createMonitor } from "../../tools/inspect/monitor.ts";
import { startLine } from "../../tools/inspect/recording.ts";
import { traceLines } from "../../tools/inspect/trace.ts";
import { buildModel } from "../../tools/report/model.ts";

const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

/** A conversation up to a session that declares the acp server `srv-1` (named "tools"). */
function opened() {
  const monitor = createMonitor();
  let t = 0;
  const send = (from: "client" | "agent", message: object) => monitor.observe(from, JSON.stringify({ jsonrpc: "2.0", ...message }), t++);
  send("client", { id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } });
  send("agent", { id: 0, result: { protocolVersion: 1, agentCapabilities: { mcpCapabilities: { acp: true } } } });
  send("client", { id: 1, method: "session/new", params: { cwd: "/", mcpServers: [{ type: "acp", name: "tools", serverId: "srv-1" }] } });
  send("agent", { id: 1, result: { sessionId: "s1" } });
  return { monitor, send };
}

const rulesOf = (monitor: ReturnType<typeof createMonitor>) => monitor.violations.map((v) => `${v.requirement} ${v.rule} by ${v.by}`);

describe("inspect on mcp/message", () => {
  it("[ACP-MCP-405] decodes a request, its progress notification and its answer, with no violation", () => {
    const { monitor, send } = opened();
    const request = send("agent", { id: 7, method: "mcp/message", params: { serverId: "srv-1", requestId: "r1", method: "tools/call", params: { name: "count", arguments: { n: 1 }, _meta: { ...meta, progressToken: 1 } } } });
    const note = send("client", { method: "mcp/message", params: { serverId: "srv-1", requestId: "r1", method: "notifications/progress", params: { progressToken: 1, progress: 1 } } });
    const answer = send("client", { id: 7, result: { result: { content: [] } } });
    expect([request.mcp, note.mcp, answer.mcp]).toEqual(['mcp tools/call #"r1" → server tools', 'mcp notifications/progress #"r1" → server tools', 'mcp tools/call #"r1": result']);
    expect(traceLines(request, "{}", false)).toContain('request #7 mcp/message [mcp tools/call #"r1" → server tools]');
    expect(rulesOf(monitor)).toEqual([]);
    expect(monitor.state.notes).toEqual(["switched from the v1 table to v1-unstable at message 2: client sent session/new, which only v1-unstable has with a type acp MCP server"]);
  });

  it("[ACP-MCP-403] decodes an inner error, and reports an answer with both or neither outcome", () => {
    const { monitor, send } = opened();
    send("agent", { id: 7, method: "mcp/message", params: { serverId: "srv-1", requestId: "r1", method: "tools/call", params: { name: "nope", _meta: meta } } });
    expect(send("client", { id: 7, result: { error: { code: -32602, message: "Tool nope not found" } } }).mcp).toBe('mcp tools/call #"r1": error -32602 Tool nope not found');
    expect(rulesOf(monitor)).toEqual([]);
    send("agent", { id: 8, method: "mcp/message", params: { serverId: "srv-1", requestId: "r2", method: "tools/list" } });
    send("client", { id: 8, result: { result: {}, error: { code: 1, message: "x" } } });
    send("agent", { id: 9, method: "mcp/message", params: { serverId: "srv-1", requestId: "r3", method: "tools/list" } });
    send("client", { id: 9, result: {} });
    // The empty carrier also fails the schema (MessageMcpResponse's anyOf); both carriers pass it, so only the binding rule sees that one.
    expect(rulesOf(monitor)).toEqual(["ACP-MCP-403 mcp-outcome by client", "ACP-JSONRPC-101 schema by client", "ACP-MCP-403 mcp-outcome by client"]);
    expect(monitor.violations.filter((v) => v.rule === "mcp-outcome").map((v) => v.message)).toEqual(["client answered mcp/message #8 with both result and error", "client answered mcp/message #9 with neither result nor error"]);
  });

  it("[ACP-MCP-405] reports a notification for an inner request that is no longer active", () => {
    const { monitor, send } = opened();
    send("agent", { id: 7, method: "mcp/message", params: { serverId: "srv-1", requestId: "r1", method: "tools/list" } });
    send("client", { id: 7, result: { result: { tools: [] } } });
    send("client", { method: "mcp/message", params: { serverId: "srv-1", requestId: "r1", method: "notifications/progress", params: { progress: 2 } } });
    expect(rulesOf(monitor)).toEqual(["ACP-MCP-405 mcp-inactive-notification by client"]);
  });

  it("[ACP-MCP-406] reports a request to a serverId no session declared, and shows the binding error answer", () => {
    const { monitor, send } = opened();
    send("agent", { id: 7, method: "mcp/message", params: { serverId: "nobody", requestId: "r1", method: "tools/list" } });
    expect(send("client", { id: 7, error: { code: -33001, message: "MCP server registration unavailable" } }).mcp).toBe('mcp tools/list #"r1": binding error -33001');
    expect(rulesOf(monitor)).toEqual(["ACP-MCP-406 mcp-undeclared-server by agent"]);
  });

  it("[ACP-MCP-406] shows the inner MCP messages and the binding's violations in the HTML report's model", () => {
    const messages: [string, object][] = [
      ["client", { id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } }],
      ["agent", { id: 0, result: { protocolVersion: 1, agentCapabilities: { mcpCapabilities: { acp: true } } } }],
      ["client", { id: 1, method: "session/new", params: { cwd: "/", mcpServers: [{ type: "acp", name: "tools", serverId: "srv-1" }] } }],
      ["agent", { id: 1, result: { sessionId: "s1" } }],
      ["agent", { id: 7, method: "mcp/message", params: { serverId: "srv-1", requestId: "r1", method: "tools/list" } }],
      ["client", { id: 7, result: { result: { tools: [] } } }],
      ["agent", { id: 8, method: "mcp/message", params: { serverId: "nobody", requestId: "r2", method: "tools/list" } }],
      ["client", { id: 8, error: { code: -33001, message: "MCP server registration unavailable" } }],
    ];
    const text = startLine(["agent"], new Date(0)) + messages.map(([from, msg], t) => `${JSON.stringify({ t, from, msg: { jsonrpc: "2.0", ...msg } })}\n`).join("");
    const model = buildModel(text);
    expect(model.messages.slice(4).map((m) => m.method)).toEqual(['mcp/message [mcp tools/list #"r1" → server tools]', 'mcp/message [mcp tools/list #"r1": result]', 'mcp/message [mcp tools/list #"r2" → server nobody]', 'mcp/message [mcp tools/list #"r2": binding error -33001]']);
    expect(model.violations.map((v) => [v.index, v.rule, v.requirement, v.tier])).toEqual([[6, "mcp-undeclared-server", "ACP-MCP-406", "MUST"]]);
  });
});
