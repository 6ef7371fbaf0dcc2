// acp-router/unstable: the v1 unstable table, generated beside the stable one, served by the same connection.
import { describe, expect, it } from "vitest";
import { methods as stableRows } from "../../method-table.ts";
import { methods as unstableRows, unstableMethods } from "../../tables/v1-unstable.ts";
import { connectAgent, connectClient, memoryPair, type AgentCapabilities, type AgentHandler, type ClientHandler } from "../../src/unstable/index.ts";
import { rawDriver } from "../support/raw-peer.ts";

const info = { protocolVersion: 1, clientCapabilities: {} } as const;

function agentWith(agentCapabilities: AgentCapabilities, extra: Partial<AgentHandler> = {}): AgentHandler {
  return {
    initialize: () => ({ protocolVersion: 1, agentCapabilities }),
    newSession: () => ({ sessionId: "s1" }),
    prompt: () => ({ stopReason: "end_turn" }),
    forkSession: (p) => ({ sessionId: `${p.sessionId}-fork` }),
    listProviders: () => ({ providers: [] }),
    ...extra,
  };
}

function pair(agent: AgentHandler, client: ClientHandler = { requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} }) {
  const [a, b] = memoryPair();
  const agentConn = connectAgent(agent, a);
  const clientConn = connectClient(client, b);
  return { agentConn, clientConn };
}

describe("the v1 unstable table", () => {
  it("holds every stable row unchanged, then the rows the unstable schema adds", () => {
    expect(unstableRows.slice(0, stableRows.length)).toEqual(stableRows);
    expect(unstableMethods.map((r) => `${r.side} ${r.wire}`)).toEqual([
      "agent auth/status",
      "agent providers/list",
      "agent providers/set",
      "agent providers/disable",
      "agent session/fork",
      "agent session/archive",
      "agent session/unarchive",
      "agent session/status",
      "agent session/set_title",
      "agent mcp/message",
      "client mcp/message",
      "client auth/status_update",
    ]);
  });

  it("gates session/fork by sessionCapabilities.fork, the schema's path, not the prose's session.fork", () => {
    expect(unstableRows.find((r) => r.wire === "session/fork")?.capability).toEqual(["sessionCapabilities", "fork"]);
  });
});

describe("an unstable agent and client over memory", () => {
  it("forks a session and lists providers once both are advertised", async () => {
    const { clientConn } = pair(agentWith({ sessionCapabilities: { fork: {} }, providers: {} }));
    await clientConn.agent.initialize(info);
    expect(await clientConn.agent.forkSession({ sessionId: "s1", cwd: "/w", mcpServers: [] })).toEqual({ sessionId: "s1-fork" });
    expect(await clientConn.agent.listProviders({})).toEqual({ providers: [] });
  });

  it("refuses session/fork locally, unsent, when the agent did not advertise sessionCapabilities.fork", async () => {
    const { clientConn } = pair(agentWith({}));
    await clientConn.agent.initialize(info);
    await expect(clientConn.agent.forkSession({ sessionId: "s1", cwd: "/w", mcpServers: [] })).rejects.toMatchObject({ code: -32601 });
  });

  it("answers an unadvertised providers/list with -32601 naming agentCapabilities.providers", async () => {
    const d = rawDriver((t, o) => connectAgent(agentWith({}), t, o));
    d.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: info });
    await d.next();
    d.send({ jsonrpc: "2.0", id: 1, method: "providers/list", params: {} });
    const answer = await d.next();
    expect(answer.error?.code).toBe(-32601);
    expect(JSON.stringify(answer.error?.data)).toContain("agentCapabilities.providers");
  });
});

describe("mcp/message, a request to the client and a notification to the agent", () => {
  const inner = { serverId: "srv", requestId: "r1", method: "tools/list" };

  it("[ACP-MCP-402] carries the agent's request to the client and the client's notification to the agent when the agent advertised mcpCapabilities.acp", async () => {
    let delivered!: (p: unknown) => void;
    const seen = new Promise((resolve) => (delivered = resolve));
    const { agentConn, clientConn } = pair(agentWith({ mcpCapabilities: { acp: true } }, { mcpMessage: (p) => delivered(p) }), {
      requestPermission: () => ({ outcome: { outcome: "cancelled" } }),
      sessionUpdate: () => {},
      mcpMessage: (p) => ({ result: { echoed: p.method } }),
    });
    await clientConn.agent.initialize(info);
    expect(await agentConn.client.mcpMessage(inner)).toEqual({ result: { echoed: "tools/list" } });
    await clientConn.agent.mcpMessage({ ...inner, method: "notifications/progress" });
    expect(await seen).toEqual({ ...inner, method: "notifications/progress" });
  });

  it("[ACP-MCP-402] refuses the agent's mcp/message locally when the agent did not advertise mcpCapabilities.acp", async () => {
    const { agentConn, clientConn } = pair(agentWith({}));
    await clientConn.agent.initialize(info);
    await expect(agentConn.client.mcpMessage(inner)).rejects.toMatchObject({ code: -32601, data: { reason: "agentCapabilities.mcpCapabilities.acp was not advertised by the agent; not sent" } });
  });

  it("[ACP-MCP-402] answers -32601 on the client to an mcp/message from an agent that did not advertise mcpCapabilities.acp", async () => {
    const d = rawDriver((t, o) => connectClient({ requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {}, mcpMessage: () => ({ result: {} }) }, t, o));
    const init = d.conn.agent.initialize(info);
    const sent = await d.next();
    d.send({ jsonrpc: "2.0", id: sent.id, result: { protocolVersion: 1, agentCapabilities: {} } });
    await init;
    d.send({ jsonrpc: "2.0", id: 5, method: "mcp/message", params: inner });
    const answer = await d.next();
    expect(answer).toMatchObject({ id: 5, error: { code: -32601 } });
    expect(JSON.stringify(answer.error?.data)).toContain("agentCapabilities.mcpCapabilities.acp");
  });
});
