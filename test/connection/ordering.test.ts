// DESIGN §7 and PITFALLS 1–3: arrival order, per-session serial lanes, answers after earlier updates, no deadlock.
import { describe, expect, it } from "vitest";
import type { ClientContext, SessionNotification } from "../../src/index.ts";
import { deferred, delay, until, within } from "../support/async.ts";
import { chunkText, params, testAgent, testClient } from "../support/handlers.ts";
import { initializedPair } from "../support/pair.ts";
import { initializedRawClient } from "../support/raw-peer.ts";

const update = (sessionId: string, text: string) => ({ jsonrpc: "2.0", method: "session/update", params: params.update(sessionId, text) });

describe("updates before a prompt's answer", () => {
  it.each([{ chunkBytes: undefined }, { chunkBytes: 7 }])("are all delivered, in order, before the prompt call resolves (chunkBytes $chunkBytes)", async ({ chunkBytes }) => {
    const agent = testAgent({
      prompt: async (p, ctx) => {
        for (let i = 1; i <= 5; i++) await ctx.peer.sessionUpdate(params.update(p.sessionId, `u${i}`));
        return { stopReason: "end_turn" };
      },
    });
    const delivered: string[] = [];
    const client = testClient({
      sessionUpdate: async (n) => {
        delivered.push(chunkText(n) ?? "?");
        await delay(3);
      },
    });
    const { client: conn } = await initializedPair(agent.handler, client.handler, {}, chunkBytes === undefined ? {} : { chunkBytes });
    const { sessionId } = await conn.agent.newSession(params.newSession());
    const seenAtAnswer = await conn.agent.prompt(params.prompt(sessionId)).then((answer) => ({ answer, delivered: [...delivered] }));
    expect(seenAtAnswer).toEqual({ answer: { stopReason: "end_turn" }, delivered: ["u1", "u2", "u3", "u4", "u5"] });
  });

  it("are written by the agent before its answer even when the handler does not await them", async () => {
    const agent = testAgent({
      prompt: (p, ctx) => {
        for (let i = 1; i <= 3; i++) void ctx.peer.sessionUpdate(params.update(p.sessionId, `u${i}`));
        return { stopReason: "end_turn" };
      },
    });
    const delivered: string[] = [];
    const { client } = await initializedPair(agent.handler, testClient({ sessionUpdate: (n) => void delivered.push(chunkText(n) ?? "?") }).handler);
    const { sessionId } = await client.agent.newSession(params.newSession());
    const seen = await client.agent.prompt(params.prompt(sessionId)).then(() => [...delivered]);
    expect(seen).toEqual(["u1", "u2", "u3"]);
  });
});

describe("arrival order", () => {
  it("runs the continuation of a call answered in the same chunk before the update that followed the answer (pitfall 1)", async () => {
    const log: string[] = [];
    const client = testClient({ sessionUpdate: (n) => void log.push(`update ${chunkText(n)}`) });
    const d = await initializedRawClient(client.handler);
    const created = d.conn.agent.newSession(params.newSession()).then((r) => void log.push(`answer ${r.sessionId}`));
    const sent = await d.next();
    d.write(`${JSON.stringify({ jsonrpc: "2.0", id: sent.id, result: { sessionId: "s1" } })}\n${JSON.stringify(update("s1", "first"))}\n`);
    await created;
    await until(() => log.length === 2, "both handled");
    expect(log).toEqual(["answer s1", "update first"]);
  });

  it("delivers an update for a session the client has not seen yet (pitfall 10)", async () => {
    const seen: string[] = [];
    const d = await initializedRawClient(testClient({ sessionUpdate: (n) => void seen.push(n.sessionId) }).handler);
    d.send(update("never-created", "x"));
    await until(() => seen.length === 1, "update delivered");
    expect(seen).toEqual(["never-created"]);
    expect(d.diagnostics.map((x) => x.kind)).toEqual(["unknown_session"]);
  });

  it("answers an oversized line after the request that preceded it, when both follow a response in one chunk", async () => {
    const d = await initializedRawClient(testClient().handler, {}, {}, { connection: { maxMessageBytes: 100 } });
    const call = d.conn.request("_x", {});
    const sent = await d.next();
    const lines = [
      { jsonrpc: "2.0", id: sent.id, result: {} },
      { jsonrpc: "2.0", id: "r", method: "foo/bar" },
    ].map((m) => JSON.stringify(m));
    d.write(`${lines.join("\n")}\n${"x".repeat(200)}\n`);
    await call;
    const answers = [await d.next(), await d.next()];
    expect(answers.map((a) => [a.id, a.error?.code])).toEqual([
      ["r", -32601],
      [null, -32700],
    ]);
  });
});

describe("session lanes", () => {
  it("run one session's updates one after another, and another session's concurrently", async () => {
    const releaseA = deferred();
    const events: string[] = [];
    const client = testClient({
      sessionUpdate: async (n) => {
        const label = `${n.sessionId}:${chunkText(n)}`;
        events.push(`start ${label}`);
        if (label === "A:1") await releaseA.promise;
        events.push(`end ${label}`);
      },
    });
    const d = await initializedRawClient(client.handler);
    d.send(update("A", "1"));
    d.send(update("A", "2"));
    d.send(update("B", "1"));
    await until(() => events.includes("end B:1"), "session B delivered while A is blocked");
    expect(events).toEqual(["start A:1", "start B:1", "end B:1"]);
    expect(d.conn.stats().busyLanes).toBe(1);
    releaseA.resolve();
    await until(() => events.length === 6, "session A drained");
    expect(events.slice(3)).toEqual(["end A:1", "start A:2", "end A:2"]);
    expect(d.conn.stats().busyLanes).toBe(0);
  });

  it("do not deadlock when an update handler makes a nested request through ctx.peer and awaits it (pitfall 3)", async () => {
    const agent = testAgent({
      prompt: async (p, ctx) => {
        await ctx.peer.sessionUpdate(params.update(p.sessionId, "needs a mode"));
        return { stopReason: "end_turn" };
      },
    });
    const nested: unknown[] = [];
    const client = testClient({
      sessionUpdate: async (n: SessionNotification, ctx: ClientContext) => {
        nested.push(await ctx.peer.setSessionMode({ sessionId: n.sessionId, modeId: "code" }));
      },
    });
    const { client: conn } = await initializedPair(agent.handler, client.handler);
    const { sessionId } = await conn.agent.newSession(params.newSession());
    expect(await within(conn.agent.prompt(params.prompt(sessionId)), "prompt with a nested request", 2000)).toEqual({ stopReason: "end_turn" });
    expect(nested).toEqual([{}]);
    expect(agent.calls).toEqual(["initialize", "newSession", "prompt", "setSessionMode"]);
  });

  // The same call after awaits, and the requests it makes the agent send back: deadlock.test.ts.
  it("do not deadlock when the nested request goes through the outer connection object", async () => {
    const agent = testAgent({
      prompt: async (p, ctx) => {
        await ctx.peer.sessionUpdate(params.update(p.sessionId, "needs a mode"));
        return { stopReason: "end_turn" };
      },
    });
    const holder: { conn?: { agent: { setSessionMode(p: { sessionId: string; modeId: string }): Promise<unknown> } } } = {};
    const client = testClient({
      sessionUpdate: async (n) => {
        await holder.conn?.agent.setSessionMode({ sessionId: n.sessionId, modeId: "code" });
      },
    });
    const pair = await initializedPair(agent.handler, client.handler);
    holder.conn = pair.client;
    const { sessionId } = await pair.client.agent.newSession(params.newSession());
    const done = pair.client.agent.prompt(params.prompt(sessionId));
    try {
      expect(await within(done, "prompt with a nested request through conn.agent", 1000)).toEqual({ stopReason: "end_turn" });
    } finally {
      pair.client.close();
    }
  });
});
