// acp-router/v2: the v2 table's columns at work on a real connection.
import { describe, expect, it } from "vitest";
import { connectAgent, connectClient, memoryPair, type AgentContext, type AgentHandler, type ClientHandler } from "../../src/v2/index.ts";
import { rawDriver } from "../support/raw-peer.ts";

const info = { name: "test", version: "1" };
const initParams = { protocolVersion: 2, info, capabilities: {} };

function agent(extra: Partial<AgentHandler> = {}): AgentHandler {
  return {
    initialize: () => ({ protocolVersion: 2, info, capabilities: { session: {} } }),
    newSession: () => ({ sessionId: "s1" }),
    prompt: () => ({ messageId: "m1" }),
    ...extra,
  };
}
const client: ClientHandler = { requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} };
const line = (id: number | string, method: string, params: object) => ({ jsonrpc: "2.0", id, method, params });

describe("a v2 prompt turn", () => {
  it("answers the acknowledgement at once, keeps ctx.signal live, and a session/cancel after the answer aborts it", async () => {
    let turn!: AgentContext;
    const d = rawDriver((t, o) => connectAgent(agent({ prompt: (_p, ctx) => ((turn = ctx), { messageId: "m1" }) }), t, o));
    d.send(line(1, "initialize", initParams));
    expect((await d.next()).result).toMatchObject({ protocolVersion: 2, capabilities: { session: {} } });
    d.send(line(2, "session/prompt", { sessionId: "s1", prompt: [{ type: "text", text: "hi" }] }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 2, result: { messageId: "m1" } });
    expect(turn.signal.aborted).toBe(false);
    d.send({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s1" } });
    await d.sync();
    expect(turn.signal.aborted).toBe(true);
  });

  it("ends the turn with the agent's idle state_update, so a later session/cancel no longer reaches it", async () => {
    let turn!: AgentContext;
    const d = rawDriver((t, o) => connectAgent(agent({ prompt: (_p, ctx) => ((turn = ctx), { messageId: "m1" }) }), t, o));
    d.send(line(1, "initialize", initParams));
    await d.next();
    d.send(line(2, "session/prompt", { sessionId: "s1", prompt: [{ type: "text", text: "hi" }] }));
    await d.next();
    await turn.peer.sessionUpdate({ sessionId: "s1", update: { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" } });
    expect((await d.next()).method).toBe("session/update");
    d.send({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s1" } });
    await d.sync();
    expect(turn.signal.aborted).toBe(false);
  });
});

describe("v2 initialize", () => {
  it("carries capabilities on both sides: the client's outbound gate reads the agent's capabilities.session", async () => {
    const [a, b] = memoryPair();
    connectAgent(agent({ initialize: () => ({ protocolVersion: 2, info, capabilities: {} }) }), a);
    const conn = connectClient(client, b);
    await conn.agent.initialize(initParams);
    await expect(conn.agent.newSession({ cwd: "/w" })).rejects.toMatchObject({ code: -32601 });
  });

  it("may repeat before the first other request, and is refused with -32600 after one", async () => {
    const d = rawDriver((t, o) => connectAgent(agent(), t, o));
    d.send(line(1, "initialize", initParams));
    await d.next();
    d.send(line(2, "initialize", initParams));
    expect((await d.next()).result).toMatchObject({ protocolVersion: 2 });
    d.send(line(3, "session/new", { cwd: "/w" }));
    expect((await d.next()).result).toEqual({ sessionId: "s1" });
    d.send(line(4, "initialize", initParams));
    expect(await d.next()).toMatchObject({ id: 4, error: { code: -32600 } });
  });
});

describe("per-object cancellation gates", () => {
  it("refuses tool_call/cancel locally until the tool call's latest update advertises capabilities.cancel", async () => {
    const d = rawDriver((t, o) => connectClient(client, t, o));
    const init = d.conn.agent.initialize(initParams);
    const sent = await d.next();
    d.send({ jsonrpc: "2.0", id: sent.id, result: { protocolVersion: 2, info, capabilities: { session: {} } } });
    await init;
    await expect(d.conn.agent.cancelToolCall({ sessionId: "s1", toolCallId: "t1" })).rejects.toMatchObject({ code: -32601 });
    d.send({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "tool_call_update", toolCallId: "t1", capabilities: { cancel: {} } } } });
    await d.sync();
    const cancel = d.conn.agent.cancelToolCall({ sessionId: "s1", toolCallId: "t1" });
    const out = await d.next();
    expect(out).toMatchObject({ method: "tool_call/cancel", params: { toolCallId: "t1" } });
    d.send({ jsonrpc: "2.0", id: out.id, result: {} });
    expect(await cancel).toEqual({});
  });
});

describe("batches on a v2 connection", () => {
  it("are accepted by default, as ACP v2 follows JSON-RPC 2.0 batches: one array of answers, nothing for the notifications", async () => {
    const d = rawDriver((t, o) => connectAgent(agent({ extMethod: (_m, p) => p }), t, o));
    d.send(line(1, "initialize", initParams));
    await d.next();
    d.send([line(2, "_x/echo", { n: 2 }), { jsonrpc: "2.0", method: "_x/note", params: {} }, line(3, "_x/echo", { n: 3 })]);
    expect(await d.nextBatch()).toEqual([
      { jsonrpc: "2.0", id: 2, result: { n: 2 } },
      { jsonrpc: "2.0", id: 3, result: { n: 3 } },
    ]);
  });

  it("are still rejected whole with one -32600 when the connection says batches: reject", async () => {
    const d = rawDriver((t, o) => connectAgent(agent({ extMethod: (_m, p) => p }), t, o), { connection: { batches: "reject" } });
    d.send(line(1, "initialize", initParams));
    await d.next();
    d.send([line(2, "_x/echo", {})]);
    expect(await d.next()).toMatchObject({ id: null, error: { code: -32600, message: "Invalid request: batches are not supported" } });
  });
});

describe("batches on a v2 connection that accepts them", () => {
  it("answers a session/prompt inside a batch with -32600 and serves the batch's other requests", async () => {
    const d = rawDriver((t, o) => connectAgent(agent(), t, o), { connection: { batches: "accept" } });
    d.send(line(1, "initialize", initParams));
    await d.next();
    d.send([line(2, "session/prompt", { sessionId: "s1", prompt: [{ type: "text", text: "hi" }] }), line(3, "session/list", {})]);
    const answers = await d.nextBatch();
    expect(answers.find((a) => a.id === 2)?.error?.code).toBe(-32600);
    expect(answers.find((a) => a.id === 3)?.error?.code).toBe(-32601);
  });
});
