// Conformance: the ACP v1 unstable methods (docs/conformance-unstable.md) on acp-router/unstable:
// their capability gates, session/archive's cancellation, auth/status under required
// authentication, open enums. Test names carry the catalogue ids.
import { describe, expect, it } from "vitest";
import { connectAgent, connectClient, type AgentCapabilities, type AgentContext, type AgentHandler, type ClientHandler } from "../../src/unstable/index.ts";
import { rawDriver } from "../support/raw-peer.ts";

const init = { protocolVersion: 1, clientCapabilities: {} };
const request = (id: unknown, method: string, params: object = {}) => ({ jsonrpc: "2.0", id, method, params });

/** An unstable agent advertising `caps`, with a handler for every unstable method; `extra` overrides. */
function agent(caps: AgentCapabilities, extra: Partial<AgentHandler> = {}): AgentHandler {
  return {
    initialize: () => ({ protocolVersion: 1, agentCapabilities: caps }),
    newSession: () => ({ sessionId: "s1" }),
    prompt: () => ({ stopReason: "end_turn" }),
    forkSession: () => ({ sessionId: "s2" }),
    archiveSession: () => ({}),
    unarchiveSession: () => ({}),
    sessionStatus: () => ({ status: "saved" }),
    setSessionTitle: (p) => ({ title: p.title }),
    authStatus: () => ({ state: "authenticated" }),
    listProviders: () => ({ providers: [] }),
    setProvider: () => ({}),
    disableProvider: () => ({}),
    ...extra,
  };
}

async function initialized(handler: AgentHandler, options: Parameters<typeof rawDriver>[1] = {}) {
  const d = rawDriver((t, o) => connectAgent(handler, t, o), options);
  d.send(request("init", "initialize", init));
  expect((await d.next()).result).toMatchObject({ protocolVersion: 1 });
  return d;
}

/** A client connection driven raw: the test answers its initialize with `caps`. */
async function clientOf(caps: AgentCapabilities, handler: Partial<ClientHandler> = {}) {
  const d = rawDriver((t, o) => connectClient({ requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {}, ...handler }, t, o));
  const initialize = d.conn.agent.initialize(init);
  const sent = await d.next();
  d.send({ jsonrpc: "2.0", id: sent.id, result: { protocolVersion: 1, agentCapabilities: caps } });
  await initialize;
  return d;
}

const gated = [
  ["session/fork", "sessionCapabilities.fork", { sessionId: "s1", cwd: "/w", mcpServers: [] }, { sessionCapabilities: { fork: {} } }],
  ["session/archive", "sessionCapabilities.archive", { sessionId: "s1" }, { sessionCapabilities: { archive: {} } }],
  ["session/unarchive", "sessionCapabilities.archive", { sessionId: "s1" }, { sessionCapabilities: { archive: {} } }],
  ["session/status", "sessionCapabilities.status", { sessionId: "s1" }, { sessionCapabilities: { status: {} } }],
  ["session/set_title", "sessionCapabilities.title", { sessionId: "s1", title: "T" }, { sessionCapabilities: { title: {} } }],
  ["auth/status", "auth.status", {}, { auth: { status: {} } }],
  ["providers/list", "providers", {}, { providers: {} }],
  ["providers/set", "providers", { providerId: "p", apiType: "openai", baseUrl: "https://example.com" }, { providers: {} }],
  ["providers/disable", "providers", { providerId: "p" }, { providers: {} }],
] as const;

describe("the unstable methods' capability gates", () => {
  it.each(gated)("[ACP-SESSION-401] [ACP-SESSION-402] [ACP-SESSION-404] [ACP-SESSION-406] [ACP-AUTH-402] [ACP-PROVIDERS-401] answers %s -32601 naming agentCapabilities.%s when not advertised, and serves it once advertised", async (wire, capability, params, caps) => {
    const bare = await initialized(agent({}));
    bare.send(request(1, wire, params));
    expect(await bare.next()).toMatchObject({ id: 1, error: { code: -32601, data: { reason: `agentCapabilities.${capability} was not advertised by the agent` } } });
    const advertised = await initialized(agent(caps as AgentCapabilities));
    advertised.send(request(2, wire, params));
    expect(await advertised.next()).toMatchObject({ id: 2, result: {} });
  });

  it("[ACP-SESSION-401] [ACP-PROVIDERS-401] refuses session/fork and providers/list locally, unsent, on a client whose agent did not advertise them", async () => {
    const d = await clientOf({});
    await expect(d.conn.agent.forkSession({ sessionId: "s1", cwd: "/w", mcpServers: [] })).rejects.toMatchObject({ code: -32601 });
    await expect(d.conn.agent.listProviders({})).rejects.toMatchObject({ code: -32601 });
    expect(await d.sync()).toEqual([]);
  });
});

describe("session/archive", () => {
  it("[ACP-SESSION-403] cancels the session's running prompt as session/close does: its signal aborts and it is answered cancelled", async () => {
    let turn!: AgentContext;
    const d = await initialized(agent({ sessionCapabilities: { archive: {} } }, { prompt: (_p, ctx) => new Promise((resolve) => ((turn = ctx), ctx.signal.addEventListener("abort", () => resolve({ stopReason: "end_turn" })))) }));
    d.send(request(1, "session/prompt", { sessionId: "s1", prompt: [{ type: "text", text: "hi" }] }));
    await d.sync();
    d.send(request(2, "session/archive", { sessionId: "s1" }));
    const answers = [await d.next(), await d.next()];
    expect(turn.signal.aborted).toBe(true);
    expect(answers.find((a) => a.id === 1)).toEqual({ jsonrpc: "2.0", id: 1, result: { stopReason: "cancelled" } });
    expect(answers.find((a) => a.id === 2)).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
  });
});

describe("auth/status and auth/status_update", () => {
  it("[ACP-AUTH-401] answers auth/status before authenticate on an agent that requires authentication, while session/new gets -32000", async () => {
    const d = await initialized(agent({ auth: { status: {} } }), { connection: { authRequired: true } });
    d.send(request(1, "session/new", { cwd: "/w", mcpServers: [] }));
    expect(await d.next()).toMatchObject({ id: 1, error: { code: -32000 } });
    d.send(request(2, "auth/status", {}));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 2, result: { state: "authenticated" } });
  });

  it("[ACP-AUTH-402] delivers auth/status_update only from an agent that advertised auth.status; from another it is dropped with a diagnostic", async () => {
    const seen: unknown[] = [];
    const update = { jsonrpc: "2.0", method: "auth/status_update", params: { state: "unauthenticated" } };
    const quiet = await clientOf({}, { authStatusUpdate: (p) => void seen.push(p) });
    quiet.send(update);
    expect(await quiet.sync()).toEqual([]);
    expect(seen).toEqual([]);
    expect(quiet.diagnostics.map((x) => x.kind)).toContain("gated_notification");
    const advertised = await clientOf({ auth: { status: {} } }, { authStatusUpdate: (p) => void seen.push(p) });
    advertised.send(update);
    await advertised.sync();
    expect(seen).toEqual([{ state: "unauthenticated" }]);
  });
});

describe("open enums", () => {
  it("[ACP-PROVIDERS-402] passes an unknown LLM protocol identifier to providers/set instead of rejecting it -32602", async () => {
    const got: unknown[] = [];
    const d = await initialized(agent({ providers: {} }, { setProvider: (p) => (got.push(p.apiType), {}) }));
    d.send(request(1, "providers/set", { providerId: "p", apiType: "_example.com/llm", baseUrl: "https://example.com" }));
    d.send(request(2, "providers/set", { providerId: "p", apiType: "future-protocol", baseUrl: "https://example.com" }));
    expect([(await d.next()).result, (await d.next()).result]).toEqual([{}, {}]);
    expect(got).toEqual(["_example.com/llm", "future-protocol"]);
  });
});
