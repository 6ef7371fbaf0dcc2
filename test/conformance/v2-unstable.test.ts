// Conformance: the ACP v2 unstable methods (docs/conformance-v2-unstable.md) on acp-router/v2/unstable:
// their capability gates under v2's paths, session/archive's cancellation, auth/status under required
// authentication, and the open LLM protocol enum.
// Test names carry the catalogue ids.
import { describe, expect, it } from "vitest";
import { connectAgent, connectClient, type AgentCapabilities, type AgentHandler } from "../../src/v2/unstable/index.ts";
import { createV2UnstableAgent } from "../../examples/agent-v2-unstable.ts";
import { rawDriver } from "../support/raw-peer.ts";

const info = { name: "t", version: "1" };
const init = { protocolVersion: 2, info, capabilities: {} };
const request = (id: unknown, method: string, params: object = {}) => ({ jsonrpc: "2.0", id, method, params });

/** A v2 unstable agent advertising `caps`, with a handler for every unstable method (the example agent's baseline). */
function agent(caps: AgentCapabilities): AgentHandler {
  return {
    ...createV2UnstableAgent(),
    initialize: () => ({ protocolVersion: 2, info, capabilities: caps }),
    newSession: () => ({ sessionId: "s1" }),
    forkSession: () => ({ sessionId: "s2" }),
    archiveSession: () => ({}),
    unarchiveSession: () => ({}),
    sessionStatus: () => ({ status: "saved" }),
    setSessionTitle: (p) => ({ title: p.title }),
    authStatus: () => ({ state: "authenticated" }),
    listProviders: () => ({ providers: [] }),
    setProvider: () => ({}),
    disableProvider: () => ({}),
  };
}

async function initialized(handler: AgentHandler, options: Parameters<typeof rawDriver>[1] = {}) {
  const d = rawDriver((t, o) => connectAgent(handler, t, o), options);
  d.send(request("init", "initialize", init));
  expect((await d.next()).result).toMatchObject({ protocolVersion: 2 });
  return d;
}

const gated = [
  ["session/fork", "session.fork", { sessionId: "s1", cwd: "/w" }, { session: { fork: {} } }],
  ["session/archive", "session.archive", { sessionId: "s1" }, { session: { archive: {} } }],
  ["session/unarchive", "session.archive", { sessionId: "s1" }, { session: { archive: {} } }],
  ["session/status", "session.status", { sessionId: "s1" }, { session: { status: {} } }],
  ["session/set_title", "session.title", { sessionId: "s1", title: "T" }, { session: { title: {} } }],
  ["auth/status", "auth.status", {}, { auth: { status: {} } }],
  ["providers/list", "providers", {}, { providers: {} }],
  ["providers/set", "providers", { providerId: "p", apiType: "openai", baseUrl: "https://example.com" }, { providers: {} }],
  ["providers/disable", "providers", { providerId: "p" }, { providers: {} }],
] as const;

describe("the v2 unstable methods' capability gates", () => {
  it.each(gated)("[ACP-SESSION-501] [ACP-SESSION-502] [ACP-SESSION-504] [ACP-SESSION-506] [ACP-AUTH-502] [ACP-PROVIDERS-501] answers %s -32601 naming capabilities.%s when not advertised, and serves it once advertised", async (wire, capability, params, caps) => {
    const bare = await initialized(agent({}));
    bare.send(request(1, wire, params));
    expect(await bare.next()).toMatchObject({ id: 1, error: { code: -32601, data: { reason: `capabilities.${capability} was not advertised by the agent` } } });
    const advertised = await initialized(agent(caps as AgentCapabilities));
    advertised.send(request(2, wire, params));
    expect(await advertised.next()).toMatchObject({ id: 2, result: {} });
  });

  it("[ACP-SESSION-501] [ACP-PROVIDERS-501] refuses session/fork and providers/list locally, unsent, on a client whose agent did not advertise them", async () => {
    const d = rawDriver((t, o) => connectClient({ requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} }, t, o));
    const initialize = d.conn.agent.initialize(init);
    const sent = await d.next();
    d.send({ jsonrpc: "2.0", id: sent.id, result: { protocolVersion: 2, info, capabilities: {} } });
    await initialize;
    await expect(d.conn.agent.forkSession({ sessionId: "s1", cwd: "/w" })).rejects.toMatchObject({ code: -32601 });
    await expect(d.conn.agent.listProviders({})).rejects.toMatchObject({ code: -32601 });
    expect(await d.sync()).toEqual([]);
  });
});

describe("session/archive", () => {
  it("[ACP-SESSION-503] aborts the session's running turn before the session/archive handler runs, as session/close does", async () => {
    type Ctx = Parameters<NonNullable<AgentHandler["prompt"]>>[1];
    const turns: Ctx[] = [];
    let abortedAtArchive: boolean | undefined;
    const d = await initialized({
      ...agent({ session: { archive: {} } }),
      prompt: (_p, ctx) => (turns.push(ctx), { messageId: "m1" }),
      archiveSession: () => ((abortedAtArchive = turns[0]?.signal.aborted), {}),
    });
    d.send(request(1, "session/prompt", { sessionId: "s1", prompt: [{ type: "text", text: "hi" }] }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { messageId: "m1" } });
    expect(turns[0]?.signal.aborted).toBe(false);
    d.send(request(2, "session/archive", { sessionId: "s1" }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(abortedAtArchive).toBe(true);
  });
});

describe("open enums", () => {
  it("[ACP-PROVIDERS-502] passes an unknown LLM protocol identifier to providers/set instead of rejecting it -32602", async () => {
    const got: unknown[] = [];
    const d = await initialized({ ...agent({ providers: {} }), setProvider: (p) => (got.push(p.apiType), {}) });
    d.send(request(1, "providers/set", { providerId: "p", apiType: "_example.com/llm", baseUrl: "https://example.com" }));
    d.send(request(2, "providers/set", { providerId: "p", apiType: "future-protocol", baseUrl: "https://example.com" }));
    expect([(await d.next()).result, (await d.next()).result]).toEqual([{}, {}]);
    expect(got).toEqual(["_example.com/llm", "future-protocol"]);
  });
});

describe("auth/status", () => {
  it("[ACP-AUTH-501] answers auth/status before auth/login on an agent that requires authentication, while session/new gets -32000", async () => {
    const d = await initialized(agent({ session: {}, auth: { status: {} } }), { connection: { authRequired: true } });
    d.send(request(1, "session/new", { cwd: "/w" }));
    expect(await d.next()).toMatchObject({ id: 1, error: { code: -32000 } });
    d.send(request(2, "auth/status", {}));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 2, result: { state: "authenticated" } });
  });
});
