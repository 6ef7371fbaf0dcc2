// acp-router/v2/unstable: the v2 unstable table, generated beside the v2 one, served by the same
// connection, gated with v2's capability paths, and routed and negotiated as version 2.
import { describe, expect, it } from "vitest";
import { protocol as v1Protocol, type AgentHandler as V1AgentHandler } from "../../src/index.ts";
import { connectAgent, connectClient, memoryPair, protocol, type AgentHandler, type AgentCapabilities, type ClientHandler } from "../../src/v2/unstable/index.ts";
import { negotiateClient, routeAgent } from "../../src/versions/index.ts";
import { rawDriver } from "../support/raw-peer.ts";

const info = { name: "t", version: "1" };
const initialize = { protocolVersion: 2, info, capabilities: {} } as const;
const client: ClientHandler = { requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} };

function agentWith(capabilities: AgentCapabilities): AgentHandler {
  return {
    initialize: () => ({ protocolVersion: 2, info, capabilities }),
    forkSession: (p) => ({ sessionId: `${p.sessionId}-fork` }),
    listProviders: () => ({ providers: [] }),
  };
}

describe("the v2 unstable protocol", () => {
  it("is version 2, named v2-unstable, with the unstable rows beside v2's", () => {
    expect(protocol.version).toBe(2);
    expect(protocol.name).toBe("v2-unstable");
    expect(protocol.inboundRow("agent", "request", "session/fork")).toBeDefined();
    expect(protocol.inboundRow("agent", "request", "session/prompt")).toBeDefined();
    expect(protocol.inboundRow("agent", "request", "session/load")).toBeUndefined();
  });
});

describe("a v2 unstable agent and client over memory", () => {
  it("forks a session and lists providers once both are advertised", async () => {
    const [a, b] = memoryPair();
    connectAgent(agentWith({ session: { fork: {} }, providers: {} }), a);
    const conn = connectClient(client, b);
    await conn.agent.initialize(initialize);
    expect(await conn.agent.forkSession({ sessionId: "s1", cwd: "/w" })).toEqual({ sessionId: "s1-fork" });
    expect(await conn.agent.listProviders({})).toEqual({ providers: [] });
  });

  it("refuses session/fork locally, unsent, when the agent advertised the session capability without fork", async () => {
    const [a, b] = memoryPair();
    connectAgent(agentWith({ session: {} }), a);
    const conn = connectClient(client, b);
    await conn.agent.initialize(initialize);
    await expect(conn.agent.forkSession({ sessionId: "s1", cwd: "/w" })).rejects.toMatchObject({ code: -32601 });
  });

  it("answers an unadvertised session/fork with -32601 naming capabilities.session.fork", async () => {
    const d = rawDriver((t, o) => connectAgent(agentWith({ session: {} }), t, o));
    d.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: initialize });
    await d.next();
    d.send({ jsonrpc: "2.0", id: 1, method: "session/fork", params: { sessionId: "s1", cwd: "/w" } });
    const answer = await d.next();
    expect(answer.error?.code).toBe(-32601);
    expect(JSON.stringify(answer.error?.data)).toContain("capabilities.session.fork");
  });
});

describe("version negotiation with the v2 unstable protocol as the v2 route", () => {
  it("routeAgent opens it for a v2 client, and negotiateClient over it reaches session/fork", async () => {
    const [a, b] = memoryPair();
    const v1: V1AgentHandler = { initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }), newSession: () => ({ sessionId: "v1" }), prompt: () => ({ stopReason: "end_turn" }) };
    const routed = routeAgent(a, { v1: { protocol: v1Protocol, handler: v1 }, v2: { protocol, handler: agentWith({ session: { fork: {} } }) } });
    const negotiated = await negotiateClient(b, { v2: { protocol, handler: client, initialize } });
    expect(negotiated.version).toBe(2);
    expect((await routed)?.version).toBe(2);
    if (negotiated.version !== 2) return;
    expect(await negotiated.agent.forkSession({ sessionId: "s1", cwd: "/w" })).toEqual({ sessionId: "s1-fork" });
    negotiated.connection.close();
  });
});
