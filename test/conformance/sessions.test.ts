// Conformance: session setup, load, resume, close, list, config options and prompt content
// (session-setup.mdx, session-list.mdx, session-config-options.mdx, prompt-turn.mdx, content.mdx).
// Test names carry the catalogue ids; "enforced on receipt" requirements are checked on the
// receiving connection, which is where acp-router enforces them.
import { describe, expect, it } from "vitest";
import { RpcError, type ClientHandler, type ContentBlock, type SessionNotification } from "../../src/index.ts";
import { delay } from "../support/async.ts";
import { chunkText, params, testAgent, testClient } from "../support/handlers.ts";
import { initializedPair } from "../support/pair.ts";
import { initializedRawClient, rawAgent } from "../support/raw-peer.ts";
import { allAgentMethods, notification, request } from "./support.ts";

const everySessionCapability = { loadSession: true, sessionCapabilities: { list: {}, delete: {}, resume: {}, close: {} } };

/** A raw agent advertising every session capability, with recording handlers. */
async function sessionAgent(overrides: Parameters<typeof testAgent>[0] = {}) {
  const agent = testAgent({ ...allAgentMethods, ...overrides }, { protocolVersion: 1, agentCapabilities: everySessionCapability });
  const d = rawAgent(agent.handler);
  await d.initialize();
  return { agent, d };
}

/** The paths named in a -32602 answer's data.errors. */
function invalidPaths(answer: { error?: { code: number; data?: unknown } }): string[] {
  expect(answer.error?.code).toBe(-32602);
  return ((answer.error?.data as { errors: { path: string }[] }).errors ?? []).map((e) => e.path);
}

describe("session/load params", () => {
  it.each([
    ["sessionId", { cwd: "/w", mcpServers: [] }],
    ["cwd", { sessionId: "s", mcpServers: [] }],
    ["mcpServers", { sessionId: "s", cwd: "/w" }],
  ])("[ACP-LOAD-101] answers session/load without %s with -32602 naming it, before the handler runs", async (field, p) => {
    const { agent, d } = await sessionAgent();
    d.send(request(1, "session/load", p));
    expect(invalidPaths(await d.next())).toEqual([`/${field}`]);
    expect(agent.calls).toEqual(["initialize"]);
  });

  it("[ACP-LOAD-101] serves session/load carrying all three, and repairs a null mcpServers to [] as the schema allows", async () => {
    const seen: unknown[] = [];
    const { d } = await sessionAgent({ loadSession: (p) => (seen.push(p), {}) });
    d.send(request(1, "session/load", { sessionId: "s", cwd: "/w", mcpServers: [] }));
    d.send(request(2, "session/load", { sessionId: "s", cwd: "/w", mcpServers: null }));
    expect([await d.next(), await d.next()]).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
    expect(seen).toEqual([
      { sessionId: "s", cwd: "/w", mcpServers: [] },
      { sessionId: "s", cwd: "/w", mcpServers: [] },
    ]);
  });
});

describe("session/load replay", () => {
  it("[ACP-LOAD-002] writes every update the load handler sent before its answer, and resolves loadSession only after the client handled them", async () => {
    const handled: string[] = [];
    const agent = testAgent(
      {
        loadSession: async (p, ctx) => {
          for (const text of ["one", "two", "three"]) void ctx.peer.sessionUpdate(params.update(p.sessionId, text));
          return {};
        },
      },
      { protocolVersion: 1, agentCapabilities: { loadSession: true } },
    );
    const client: ClientHandler = testClient({
      sessionUpdate: async (n: SessionNotification) => {
        await delay(5);
        handled.push(chunkText(n) ?? "?");
      },
    }).handler;
    const { client: conn } = await initializedPair(agent.handler, client);
    const seenAtAnswer = await conn.agent.loadSession({ sessionId: "old", cwd: "/w", mcpServers: [] }).then(() => [...handled]);
    expect(seenAtAnswer).toEqual(["one", "two", "three"]);
  });

  it("[ACP-LOAD-002] puts the replayed updates on the wire before the session/load answer", async () => {
    const { d } = await sessionAgent({
      loadSession: (p, ctx) => {
        void ctx.peer.sessionUpdate(params.update(p.sessionId, "a"));
        void ctx.peer.sessionUpdate(params.update(p.sessionId, "b"));
        return {};
      },
    });
    d.send(request("load", "session/load", { sessionId: "s", cwd: "/w", mcpServers: [] }));
    const lines = [await d.next(), await d.next(), await d.next()];
    expect(lines.map((l) => l.method ?? `answer ${String(l.id)}`)).toEqual(["session/update", "session/update", "answer load"]);
  });
});

describe("session/resume and session/close params", () => {
  it.each([
    ["sessionId", { cwd: "/w" }],
    ["cwd", { sessionId: "s" }],
  ])("[ACP-RESUME-101] answers session/resume without %s with -32602 naming it", async (field, p) => {
    const { agent, d } = await sessionAgent();
    d.send(request(1, "session/resume", p));
    expect(invalidPaths(await d.next())).toEqual([`/${field}`]);
    d.send(request(2, "session/resume", { sessionId: "s", cwd: "/w" }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(agent.calls).toEqual(["initialize", "resumeSession"]);
  });

  it("[ACP-CLOSE-101] answers session/close without a sessionId with -32602, and serves it with one", async () => {
    const { agent, d } = await sessionAgent();
    d.send(request(1, "session/close", {}));
    expect(invalidPaths(await d.next())).toEqual(["/sessionId"]);
    d.send(request(2, "session/close", { sessionId: "s" }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(agent.calls).toEqual(["initialize", "closeSession"]);
  });

  it("[ACP-CLOSE-102] writes the resource-not-found error a close handler throws for an unknown session, data included", async () => {
    const { d } = await sessionAgent({
      closeSession: (p) => {
        throw new RpcError(-32002, "Resource not found", { sessionId: p.sessionId });
      },
    });
    d.send(request(1, "session/close", { sessionId: "gone" }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32002, message: "Resource not found", data: { sessionId: "gone" } } });
  });
});

/** Sends a request through a raw client whose agent advertised every session capability, answers it with `result`, and returns the outcome. */
async function answerWith(result: unknown, call: (d: Awaited<ReturnType<typeof initializedRawClient>>) => Promise<unknown>, leniency: "repair" | "strict" = "repair") {
  const d = await initializedRawClient(testClient().handler, {}, everySessionCapability, { connection: { leniency } });
  const pending = call(d).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error: error as { code: number; message: string; data?: unknown } }),
  );
  const sent = await d.next();
  d.send({ jsonrpc: "2.0", id: sent.id, result });
  return { outcome: await pending, diagnostics: d.diagnostics };
}

const sessionInfo = (sessionId: string) => ({ sessionId, cwd: "/w" });

describe("session/list results", () => {
  it("[ACP-LIST-103] hands the caller the sessions and nextCursor, dropping only an invalid session entry", async () => {
    const { outcome, diagnostics } = await answerWith({ sessions: [sessionInfo("a"), { sessionId: 7 }, sessionInfo("b")], nextCursor: "c2" }, (d) => d.conn.agent.listSessions({}));
    expect(outcome).toEqual({ ok: true, value: { sessions: [sessionInfo("a"), sessionInfo("b")], nextCursor: "c2" } });
    expect(diagnostics.at(-1)).toMatchObject({ kind: "repaired", data: { repairs: [{ path: "/sessions/1", action: "dropped_item" }] } });
  });

  it("[ACP-LIST-103] rejects a session/list result without a sessions array", async () => {
    for (const bad of [{}, { nextCursor: "c" }]) {
      const { outcome } = await answerWith(bad, (d) => d.conn.agent.listSessions({}));
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect([outcome.error.code, outcome.error.message]).toEqual([-32603, 'Invalid result for "session/list" from the agent']);
    }
  });

  it("[ACP-LIST-103] repairs a sessions value that is not an array to [] (the schema's default-on-error), as the official SDK does", async () => {
    const { outcome, diagnostics } = await answerWith({ sessions: "none" }, (d) => d.conn.agent.listSessions({}));
    expect(outcome).toEqual({ ok: true, value: { sessions: [] } });
    expect(diagnostics.at(-1)).toMatchObject({ kind: "repaired", data: { repairs: [{ path: "/sessions", action: "default" }] } });
  });

  it("[ACP-LIST-002] delivers an empty sessions array as empty, and never hands the caller a result that lacks one", async () => {
    expect((await answerWith({ sessions: [] }, (d) => d.conn.agent.listSessions({ cwd: "/nowhere" }))).outcome).toEqual({ ok: true, value: { sessions: [] } });
    expect((await answerWith({}, (d) => d.conn.agent.listSessions({}))).outcome).toMatchObject({ ok: false, error: { code: -32603, data: { errors: [{ path: "/sessions" }] } } });
  });

  it("[ACP-LIST-106] passes cursors through byte for byte in both directions", async () => {
    const cursor = "eyJwYWdlIjoyfQ==/ü+%2F?&#\u0000end";
    const next = "  opaque:next/🌍  ";
    const seen: unknown[] = [];
    const agent = testAgent({ listSessions: (p) => (seen.push(p.cursor), { sessions: [], nextCursor: next }) }, { protocolVersion: 1, agentCapabilities: everySessionCapability });
    const { client } = await initializedPair(agent.handler, testClient().handler);
    expect(await client.agent.listSessions({ cursor })).toEqual({ sessions: [], nextCursor: next });
    expect(seen).toEqual([cursor]);
  });
});

const select = (id: string, extra: Record<string, unknown> = {}) => ({ id, name: id.toUpperCase(), type: "select", currentValue: "x", options: [{ value: "x", name: "X" }], ...extra });

describe("config options", () => {
  it("[ACP-CONFIG-101] drops a received config option that has no current value, keeping the others, with a diagnostic", async () => {
    const { currentValue: _dropped, ...noValue } = select("b");
    const { outcome, diagnostics } = await answerWith({ sessionId: "s", configOptions: [select("a"), noValue, select("c")] }, (d) => d.conn.agent.newSession(params.newSession()));
    expect(outcome).toEqual({ ok: true, value: { sessionId: "s", configOptions: [select("a"), select("c")] } });
    expect(diagnostics.at(-1)).toMatchObject({ kind: "repaired", data: { repairs: [{ path: "/configOptions/1", action: "dropped_item" }] } });
  });

  it('[ACP-CONFIG-101] rejects a set_config_option result with an option lacking its current value under leniency: "strict"', async () => {
    const { currentValue: _dropped, ...noValue } = select("b");
    const { outcome } = await answerWith({ configOptions: [noValue] }, (d) => d.conn.agent.setSessionConfigOption({ sessionId: "s", configId: "b", value: "x" }), "strict");
    expect(outcome).toMatchObject({ ok: false, error: { code: -32603 } });
  });

  it("[ACP-CONFIG-103] accepts config options with a missing, null, known, custom or future category, unchanged", async () => {
    const options = [select("a"), select("b", { category: null }), select("c", { category: "model" }), select("d", { category: "_vendor_tab" }), select("e", { category: "future_kind" })];
    const { outcome, diagnostics } = await answerWith({ sessionId: "s", configOptions: options }, (d) => d.conn.agent.newSession(params.newSession()));
    expect(outcome).toEqual({ ok: true, value: { sessionId: "s", configOptions: options } });
    expect(diagnostics).toEqual([]);
  });

  it("[ACP-CONFIG-104] drops a config option of an unknown type from a result and from a config_option_update, keeping the rest", async () => {
    const slider = { id: "z", name: "Z", type: "_slider", currentValue: 3 };
    const { outcome } = await answerWith({ sessionId: "s", configOptions: [slider, select("a")] }, (d) => d.conn.agent.newSession(params.newSession()));
    expect(outcome).toEqual({ ok: true, value: { sessionId: "s", configOptions: [select("a")] } });

    const updates: SessionNotification[] = [];
    const d = await initializedRawClient(testClient({ sessionUpdate: (n) => void updates.push(n) }).handler);
    d.send(notification("session/update", { sessionId: "s", update: { sessionUpdate: "config_option_update", configOptions: [select("a"), slider] } }));
    expect(await d.sync()).toEqual([]);
    expect(updates).toEqual([{ sessionId: "s", update: { sessionUpdate: "config_option_update", configOptions: [select("a")] } }]);
  });
});

describe("prompt content every agent accepts", () => {
  const text: ContentBlock = { type: "text", text: "Explain this" };
  const link: ContentBlock = { type: "resource_link", uri: "file:///w/main.ts", name: "main.ts", mimeType: "text/x-typescript" };

  it.each([
    ["no prompt capabilities at all", {}],
    ["every prompt capability false", { promptCapabilities: { image: false, audio: false, embeddedContext: false } }],
  ])("[ACP-PROMPT-003] delivers text and resource_link blocks to the prompt handler unchanged with %s", async (_name, agentCapabilities) => {
    const seen: unknown[] = [];
    const d = rawAgent(testAgent({ prompt: (p) => (seen.push(p.prompt), { stopReason: "end_turn" }) }, { protocolVersion: 1, agentCapabilities }).handler);
    await d.initialize();
    d.send(request(1, "session/prompt", { sessionId: "s", prompt: [text, link] }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { stopReason: "end_turn" } });
    expect(seen).toEqual([[text, link]]);
  });

  it("[ACP-PROMPT-101] delivers a prompt of text blocks unchanged to an agent that advertised no prompt capabilities", async () => {
    const seen: unknown[] = [];
    const agent = testAgent({ prompt: (p) => (seen.push(p.prompt), { stopReason: "end_turn" }) }, { protocolVersion: 1, agentCapabilities: {} });
    const { client } = await initializedPair(agent.handler, testClient().handler);
    const blocks: ContentBlock[] = [text, { type: "text", text: "**markdown** and `code`\nsecond line", annotations: { priority: 1 } }];
    expect(await client.agent.prompt({ sessionId: "s", prompt: blocks })).toEqual({ stopReason: "end_turn" });
    expect(seen).toEqual([blocks]);
  });
});

describe("the prompt answer", () => {
  it("[ACP-PROMPT-001] rejects a session/prompt result without a stopReason string; an unknown one passes with a diagnostic (strict: rejected)", async () => {
    for (const bad of [{}, { stopReason: null }, { stopReason: 3 }]) {
      const { outcome } = await answerWith(bad, (d) => d.conn.agent.prompt(params.prompt("s")));
      expect(outcome).toMatchObject({ ok: false, error: { code: -32603, message: 'Invalid result for "session/prompt" from the agent' } });
    }
    // A newer agent's stop reason is forward-compatible (issue 21; docs/compatibility.md).
    const newer = await answerWith({ stopReason: "done" }, (d) => d.conn.agent.prompt(params.prompt("s")));
    expect(newer.outcome).toEqual({ ok: true, value: { stopReason: "done" } });
    expect(newer.diagnostics.at(-1)).toMatchObject({ kind: "repaired", data: { repairs: [{ path: "/stopReason", action: "kept_unknown" }] } });
    const strict = await answerWith({ stopReason: "done" }, (d) => d.conn.agent.prompt(params.prompt("s")), "strict");
    expect(strict.outcome).toMatchObject({ ok: false, error: { code: -32603, message: 'Invalid result for "session/prompt" from the agent' } });
    for (const stopReason of ["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"]) {
      expect((await answerWith({ stopReason }, (d) => d.conn.agent.prompt(params.prompt("s")))).outcome).toEqual({ ok: true, value: { stopReason } });
    }
  });

  it("[ACP-PROMPT-001] answers a turn whose handler fails after $/cancel_request with stopReason cancelled", async () => {
    const d = rawAgent(testAgent({ prompt: (_p, ctx) => new Promise((_r, reject) => ctx.signal.addEventListener("abort", () => reject(new Error("model aborted")))) }).handler);
    await d.initialize();
    d.send(request(1, "session/prompt", params.prompt("s")));
    await d.sync();
    d.send(notification("$/cancel_request", { requestId: 1 }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { stopReason: "cancelled" } });
  });
});

describe("leniency parity with the official SDK (DESIGN section 4, step 9; not a catalogue requirement)", () => {
  // The official SDK 2.4 substitutes [] for an invalid required list (requiredDefaultOnError(..., () => [])); so do we.
  it("repairs a null required list to [] as the official SDK does: sessions in a session/list result, entries in a plan update", async () => {
    const { outcome } = await answerWith({ sessions: null }, (d) => d.conn.agent.listSessions({}));
    const updates: SessionNotification[] = [];
    const d = await initializedRawClient(testClient({ sessionUpdate: (n) => void updates.push(n) }).handler);
    d.send(notification("session/update", { sessionId: "s", update: { sessionUpdate: "plan", entries: null } }));
    await d.sync();
    expect({ outcome, updates }).toEqual({ outcome: { ok: true, value: { sessions: [] } }, updates: [{ sessionId: "s", update: { sessionUpdate: "plan", entries: [] } }] });
  });
});
