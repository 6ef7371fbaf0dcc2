// Conformance: ACP v2 (docs/conformance-v2.md): transports, request ids, JSON-RPC batches,
// initialization and version negotiation, the session capability, prompt turns, cancellation and
// extensibility, on acp-router/v2 connections and the version router. Test names carry the ids.
import { describe, expect, it } from "vitest";
import { connectAgent as connectAgentV1, memoryPair as memoryPairV1 } from "../../src/index.ts";
import { connectAgent, connectClient, memoryPair, protocol, type AgentContext, type AgentHandler, type ClientHandler } from "../../src/v2/index.ts";
import { negotiateClient, routeAgent } from "../../src/versions/index.ts";
import { rawDriver } from "../support/raw-peer.ts";
import { bytePipe, type ByteTransportKind } from "./support.ts";

const info = { name: "conformance", version: "1" };
const init = { protocolVersion: 2, info, capabilities: {} };
const request = (id: unknown, method: string, params: object = {}) => ({ jsonrpc: "2.0", id, method, params });
const note = (method: string, params: object = {}) => ({ jsonrpc: "2.0", method, params });
const prompt = (sessionId: string) => ({ sessionId, prompt: [{ type: "text", text: "hi" }] });

/** A v2 agent advertising capabilities.session, echoing extension requests; `extra` overrides. */
function agent(extra: Partial<AgentHandler> = {}): AgentHandler {
  return {
    initialize: () => ({ protocolVersion: 2, info, capabilities: { session: {} } }),
    newSession: () => ({ sessionId: "s1" }),
    prompt: () => ({ messageId: "m1" }),
    extMethod: (_method, params) => params,
    ...extra,
  };
}
const client: ClientHandler = { requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} };

/** A raw driver around a v2 agent connection, initialized. */
async function initialized(handler: AgentHandler = agent(), options: Parameters<typeof rawDriver>[1] = {}) {
  const d = rawDriver((t, o) => connectAgent(handler, t, o), options);
  d.send(request("init", "initialize", init));
  expect((await d.next()).result).toMatchObject({ protocolVersion: 2 });
  return d;
}

/** A raw driver around routeAgent with a v2 route only. */
const routed = (handler: AgentHandler = agent()) => rawDriver((t, o) => routeAgent(t, { v2: { protocol, handler } }, o));

describe("v2 transports", () => {
  it.each(["nodeStreamTransport", "webStreamTransport"] as ByteTransportKind[])("[ACP-TRANSPORT-301] [ACP-TRANSPORT-304] decodes UTF-8 split inside a character and answers in UTF-8 over %s", async (kind) => {
    const pipe = bytePipe(kind);
    connectAgent(agent(), pipe.transport);
    const bytes = new TextEncoder().encode(`${JSON.stringify(request(1, "initialize", init))}\n${JSON.stringify(request(2, "_x/echo", { text: "héllo ✓" }))}\n`);
    const cut = bytes.indexOf(0xe2) + 1; // inside the three bytes of ✓
    await pipe.feed(bytes.slice(0, cut));
    await pipe.feed(bytes.slice(cut));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const lines = new TextDecoder("utf-8", { fatal: true })
      .decode(pipe.output())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: number; result: unknown });
    expect(lines.find((l) => l.id === 2)?.result).toEqual({ text: "héllo ✓" });
  });

  it("[ACP-TRANSPORT-302] writes every message and every batch answer as one line, newlines in strings escaped", async () => {
    const d = await initialized();
    d.send(request(1, "_x/echo", { text: "a\nb" }));
    d.send([request(2, "_x/echo", { text: "c\nd" }), request(3, "_x/echo", {})]);
    expect((await d.next()).result).toEqual({ text: "a\nb" });
    expect((await d.nextBatch()).map((a) => a.id)).toEqual([2, 3]);
    const lines = d.text.split("\n").filter((l) => l !== "");
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it("[ACP-TRANSPORT-303] writes only JSON-RPC 2.0 messages, before and after routing, whatever it was sent", async () => {
    const d = routed();
    d.send("not json");
    d.send(request(1, "session/new", { cwd: "/w" }));
    d.send(request(2, "initialize", init));
    d.send("{");
    d.send([]);
    d.send(request(3, "session/new", { cwd: "/w" }));
    for (let i = 0; i < 6; i++) await d.next();
    const lines = d.text.split("\n").filter((l) => l !== "");
    expect(lines).toHaveLength(6);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
  });
});

describe("v2 request ids", () => {
  it("[ACP-JSONRPC-301] answers a request with a null id -32600 with id null and runs no handler, before and after routing", async () => {
    const calls: string[] = [];
    const d = routed(agent({ newSession: () => (calls.push("newSession"), { sessionId: "s1" }) }));
    d.send(request(null, "initialize", init));
    expect(await d.next()).toMatchObject({ id: null, error: { code: -32600 } });
    d.send(request(1, "initialize", init));
    await d.next();
    d.send(request(null, "session/new", { cwd: "/w" }));
    expect(await d.next()).toMatchObject({ id: null, error: { code: -32600, message: "Invalid request: id must be a string or an integer" } });
    expect(calls).toEqual([]);
  });

  it("[ACP-JSONRPC-302] answers with the id it received: strings, the empty string, negative and exponent-notation integers; an id beyond 2^53 is rejected, not answered with another id", async () => {
    const d = await initialized();
    d.write('{"jsonrpc":"2.0","id":"x-1","method":"_x/echo","params":{}}\n{"jsonrpc":"2.0","id":"","method":"_x/echo","params":{}}\n');
    d.write('{"jsonrpc":"2.0","id":-7,"method":"_x/echo","params":{}}\n{"jsonrpc":"2.0","id":1e3,"method":"_x/echo","params":{}}\n');
    d.write('{"jsonrpc":"2.0","id":9007199254740993,"method":"_x/echo","params":{}}\n');
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await d.next()).id);
    expect(ids).toEqual(["x-1", "", -7, 1000, null]);
  });

  it("[ACP-JSONRPC-303] never has two pending outbound requests with one id, and answers an inbound id still in flight -32600", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const d = await initialized(agent({ extMethod: async (_m, p) => (await held, p) }));
    d.send(request(5, "_x/slow", {}));
    d.send(request(5, "_x/slow", {}));
    expect(await d.next()).toMatchObject({ id: 5, error: { code: -32600, message: "Invalid request: a request with this id is still in flight" } });
    release();
    expect(await d.next()).toMatchObject({ id: 5, result: {} });

    const c = rawDriver((t, o) => connectClient(client, t, o));
    const first = c.conn.agent.initialize(init);
    const second = c.conn.agent.initialize(init);
    const [a, b] = [await c.next(), await c.next()];
    expect(a.id).not.toEqual(b.id);
    for (const sent of [a, b]) c.send({ jsonrpc: "2.0", id: sent.id, result: { protocolVersion: 2, info, capabilities: {} } });
    await Promise.all([first, second]);
  });
});

describe("v2 batches", () => {
  it("[ACP-JSONRPC-304] [ACP-JSONRPC-306] [ACP-JSONRPC-307] [ACP-JSONRPC-312] accepts a mixed batch by default and answers its requests in one array once the slowest is done, nothing for the notification", async () => {
    const notes: string[] = [];
    const d = await initialized(
      agent({
        extMethod: async (method, params) => (method === "_x/slow" ? await new Promise((resolve) => setTimeout(() => resolve(params), 20)) : params) as object,
        extNotification: (method) => void notes.push(method),
      }),
    );
    d.send([request(1, "_x/slow", { n: 1 }), note("_x/note"), request(2, "_x/echo", { n: 2 })]);
    const answers = await d.nextBatch();
    expect([...answers].sort((x, y) => Number(x.id) - Number(y.id))).toEqual([
      { jsonrpc: "2.0", id: 1, result: { n: 1 } },
      { jsonrpc: "2.0", id: 2, result: { n: 2 } },
    ]);
    expect(notes).toEqual(["_x/note"]);
    expect(await d.sync()).toEqual([]);
  });

  it("[ACP-JSONRPC-305] answers an empty batch with one -32600 object, id null, not an array", async () => {
    const d = await initialized();
    d.send("[]");
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request: empty batch" } });
  });

  it("[ACP-JSONRPC-307] [ACP-JSONRPC-308] writes nothing for a batch of notifications only, not an empty array", async () => {
    const d = await initialized();
    d.send([note("_x/note"), note("session/cancel", { sessionId: "s1" })]);
    expect(await d.sync()).toEqual([]);
    expect(d.text).not.toContain("[]");
  });

  it("[ACP-JSONRPC-309] answers each invalid entry -32600 with id null inside the array and serves the others", async () => {
    const d = await initialized();
    d.send([1, request(null, "_x/echo"), [request(9, "_x/echo")], request(4, "_x/echo", { ok: true })]);
    const answers = await d.nextBatch();
    expect(answers.map((a) => [a.id, a.error?.code ?? "result"])).toEqual([
      [null, -32600],
      [null, -32600],
      [null, -32600],
      [4, "result"],
    ]);
  });

  it.each(["initialize", "auth/login", "session/new", "session/resume", "session/prompt"])("[ACP-JSONRPC-310] answers %s inside a batch -32600 with its id and serves the rest of the batch", async (method) => {
    const d = await initialized();
    d.send([request(1, method, {}), request(2, "_x/echo", {})]);
    expect(await d.nextBatch()).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32600, message: `Invalid request: "${method}" may not be sent in a batch` } },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
  });
});

describe("v2 initialization and version negotiation", () => {
  it("[ACP-INIT-301] answers a session request before initialize -32600, before routing and on a v2 connection", async () => {
    const r = routed();
    r.send(request(1, "session/new", { cwd: "/w" }));
    expect(await r.next()).toMatchObject({ id: 1, error: { code: -32600 } });
    const d = rawDriver((t, o) => connectAgent(agent(), t, o));
    d.send(request(2, "session/new", { cwd: "/w" }));
    expect(await d.next()).toMatchObject({ id: 2, error: { code: -32600, message: "Not initialized: the first request must be initialize" } });
  });

  it("[ACP-INIT-302] serves initialize again before the first other request, the latest one's capabilities in force, and refuses it -32600 after one", async () => {
    let seen: AgentContext["clientCapabilities"];
    const d = rawDriver((t, o) => connectAgent(agent({ newSession: (_p, ctx) => ((seen = ctx.clientCapabilities), { sessionId: "s1" }) }), t, o));
    d.send(request(1, "initialize", { ...init, capabilities: { elicitation: { form: {} } } }));
    await d.next();
    d.send(request(2, "initialize", { ...init, capabilities: { _meta: { second: true } } }));
    expect((await d.next()).result).toMatchObject({ protocolVersion: 2 });
    d.send(request(3, "session/new", { cwd: "/w" }));
    expect((await d.next()).result).toEqual({ sessionId: "s1" });
    expect(seen).toEqual({ _meta: { second: true } });
    d.send(request(4, "initialize", init));
    expect(await d.next()).toMatchObject({ id: 4, error: { code: -32600, message: "Invalid request: initialize may not be repeated after another request" } });
  });

  it("[ACP-INIT-303] hands a v2 agent an initialize naming 2 when the client asks for a newer version, so it answers the latest it supports", async () => {
    const asked: unknown[] = [];
    const d = routed(agent({ initialize: (p) => (asked.push(p.protocolVersion), { protocolVersion: 2, info, capabilities: { session: {} } }) }));
    d.send(request(1, "initialize", { ...init, protocolVersion: 7 }));
    expect((await d.next()).result).toMatchObject({ protocolVersion: 2 });
    expect(asked).toEqual([2]);
  });

  it("[ACP-INIT-304] answers an initialize naming no version the agent serves -32022 with {requested, supported}, and serves the next initialize", async () => {
    const d = routed();
    d.send(request(1, "initialize", { ...init, protocolVersion: 1 }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32022, message: "Unsupported protocol version", data: { requested: 1, supported: [2] } } });
    d.send(request(2, "initialize", init));
    expect((await d.next()).result).toMatchObject({ protocolVersion: 2 });
  });

  it("[ACP-INIT-305] rejects, naming the version, when the agent answers one the client does not offer, and closes the transport", async () => {
    const [a, b] = memoryPairV1();
    const v1 = connectAgentV1({ initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }), newSession: () => ({ sessionId: "s" }), prompt: () => ({ stopReason: "end_turn" }) }, a);
    await expect(negotiateClient(b, { v2: { protocol, handler: client, initialize: init } })).rejects.toThrow(/protocol version 1/);
    expect((await v1.closed).error).toBeUndefined();
  });

  it("[ACP-INIT-306] [ACP-SESSION-301] gates every session method by capabilities.session: -32601 naming it from an agent that omitted it, refused locally by the client", async () => {
    const d = await initialized(agent({ initialize: () => ({ protocolVersion: 2, info, capabilities: {} }) }));
    d.send(request(1, "session/new", { cwd: "/w" }));
    expect(await d.next()).toMatchObject({ id: 1, error: { code: -32601, data: { reason: "capabilities.session was not advertised by the agent" } } });
    const [x, y] = memoryPair();
    connectAgent(agent({ initialize: () => ({ protocolVersion: 2, info, capabilities: {} }) }), x);
    const conn = connectClient(client, y);
    await conn.agent.initialize(init);
    await expect(conn.agent.newSession({ cwd: "/w" })).rejects.toMatchObject({ code: -32601 });
    await expect(conn.agent.listSessions({})).rejects.toMatchObject({ code: -32601 });
  });

  it("[ACP-INIT-307] answers a v2 initialize without info -32602", async () => {
    const d = rawDriver((t, o) => connectAgent(agent(), t, o));
    d.send(request(1, "initialize", { protocolVersion: 2, capabilities: {} }));
    expect(await d.next()).toMatchObject({ id: 1, error: { code: -32602 } });
  });
});

describe("v2 prompt turns and cancellation", () => {
  /** An agent whose prompt hands its context out: the turn stays open after the acknowledgement. */
  function turnAgent(extra: Partial<AgentHandler> = {}) {
    const turns: AgentContext[] = [];
    return { turns, handler: agent({ prompt: (_p, ctx) => (turns.push(ctx), { messageId: "m1" }), ...extra }) };
  }

  it("[ACP-PROMPT-301] [ACP-PROMPT-308] answers the acknowledgement as soon as the handler returns and keeps the turn open until the agent's idle state_update", async () => {
    const { turns, handler } = turnAgent();
    const d = await initialized(handler);
    d.send(request(1, "session/prompt", prompt("s1")));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { messageId: "m1" } });
    const turn = turns[0] as AgentContext;
    await turn.peer.sessionUpdate({ sessionId: "s1", update: { sessionUpdate: "state_update", state: "running" } });
    d.send(note("session/cancel", { sessionId: "s1" }));
    await d.sync();
    expect(turn.signal.aborted).toBe(true);
  });

  it("[ACP-CANCEL-301] aborts the acknowledged turn's signal on session/cancel, and no longer once the idle state_update ended it", async () => {
    const { turns, handler } = turnAgent();
    const d = await initialized(handler);
    d.send(request(1, "session/prompt", prompt("s1")));
    await d.next();
    const first = turns[0] as AgentContext;
    await first.peer.sessionUpdate({ sessionId: "s1", update: { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" } });
    await d.next();
    d.send(note("session/cancel", { sessionId: "s1" }));
    await d.sync();
    expect(first.signal.aborted).toBe(false);
    d.send(request(2, "session/prompt", prompt("s1")));
    await d.next();
    d.send(note("session/cancel", { sessionId: "s1" }));
    await d.sync();
    expect((turns[1] as AgentContext).signal.aborted).toBe(true);
  });

  it("[ACP-SESSION-302] aborts the session's running turn before the session/close handler runs", async () => {
    let abortedAtClose: boolean | undefined;
    const { turns, handler } = turnAgent({ closeSession: () => ((abortedAtClose = turns[0]?.signal.aborted), {}) });
    const d = await initialized(handler);
    d.send(request(1, "session/prompt", prompt("s1")));
    await d.next();
    d.send(request(2, "session/close", { sessionId: "s1" }));
    expect(await d.next()).toMatchObject({ id: 2, result: {} });
    expect(abortedAtClose).toBe(true);
  });

  it("[ACP-CANCEL-303] answers a request cancelled by $/cancel_request exactly once: -32800 when its handler gives up, its result when it completes anyway", async () => {
    const giveUp = (signal: AbortSignal) => new Promise<object>((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
    const d = await initialized(agent({ extMethod: async (method, _p, ctx) => (method === "_x/partial" ? (await giveUp(ctx.signal).catch(() => undefined), { partial: true }) : giveUp(ctx.signal)) }));
    d.send(request(7, "_x/forever", {}));
    d.send(request(8, "_x/partial", {}));
    await d.sync();
    d.send(note("$/cancel_request", { requestId: 7 }));
    d.send(note("$/cancel_request", { requestId: 7 }));
    d.send(note("$/cancel_request", { requestId: 8 }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32800, message: "Request cancelled" } });
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 8, result: { partial: true } });
    expect(await d.sync()).toEqual([]);
  });

  it.each([
    ["tool_call/cancel", "tool_call_update", "toolCallId", "t1"],
    ["terminal/cancel", "terminal_update", "terminalId", "term1"],
  ] as const)("[ACP-CANCEL-304] [ACP-CANCEL-305] refuses %s locally, unsent, until the object's latest update advertises capabilities.cancel, and again once one clears it", async (wire, update, key, id) => {
    const d = rawDriver((t, o) => connectClient(client, t, o));
    const initialize = d.conn.agent.initialize(init);
    const sent = await d.next();
    d.send({ jsonrpc: "2.0", id: sent.id, result: { protocolVersion: 2, info, capabilities: { session: {} } } });
    await initialize;
    const cancel = () => (wire === "tool_call/cancel" ? d.conn.agent.cancelToolCall({ sessionId: "s1", toolCallId: id }) : d.conn.agent.cancelTerminal({ sessionId: "s1", terminalId: id }));
    await expect(cancel()).rejects.toMatchObject({ code: -32601 });
    d.send(note("session/update", { sessionId: "s1", update: { sessionUpdate: update, [key]: id, capabilities: { cancel: {} } } }));
    await d.sync();
    const call = cancel();
    const out = await d.next();
    expect(out).toMatchObject({ method: wire, params: { [key]: id } });
    d.send({ jsonrpc: "2.0", id: out.id, result: {} });
    expect(await call).toEqual({});
    d.send(note("session/update", { sessionId: "s1", update: { sessionUpdate: update, [key]: id, capabilities: { cancel: null } } }));
    await d.sync();
    await expect(cancel()).rejects.toMatchObject({ code: -32601 });
  });
});

describe("v2 extensibility", () => {
  it("[ACP-EXT-301] [ACP-EXT-302] serves a custom request with its handler's result under the request's id, and -32601 with the id when no handler takes it", async () => {
    const d = await initialized();
    d.send(request("e-1", "_example.com/echo", { a: 1 }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: "e-1", result: { a: 1 } });
    const withoutExt = agent();
    delete withoutExt.extMethod;
    const bare = await initialized(withoutExt);
    bare.send(request("e-2", "_example.com/echo", {}));
    expect(await bare.next()).toMatchObject({ id: "e-2", error: { code: -32601 } });
  });

  it("[ACP-EXT-303] ignores an unrecognized notification: no answer, a diagnostic", async () => {
    const d = await initialized(agent());
    d.send(note("_example.com/unknown", {}));
    d.send(note("session/unknown", {}));
    expect(await d.sync()).toEqual([]);
    expect(d.diagnostics.map((x) => x.kind)).toContain("unknown_notification");
  });
});
