// Conformance: cancellation of prompt turns and of single requests, and permission requests during
// cancellation (prompt-turn.mdx "Cancellation", cancellation.mdx, tool-calls.mdx). Test names carry
// the catalogue ids.
import { describe, expect, it } from "vitest";
import { RpcError, type SessionNotification } from "../../src/index.ts";
import { deferred, track, until } from "../support/async.ts";
import { params, testAgent, testClient } from "../support/handlers.ts";
import { initializedPair } from "../support/pair.ts";
import { initializedRawClient, rawAgent } from "../support/raw-peer.ts";
import { notification, request, rpcError } from "./support.ts";

/** Rejects with `reason(signal)` once the signal aborts. */
function rejectOnAbort(signal: AbortSignal, reason: (signal: AbortSignal) => unknown = (s) => s.reason): Promise<never> {
  return new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(reason(signal)), { once: true }));
}

/** An agent with a prompt ("turn") and a config write ("cfg") of session "s" running, each rejecting when its signal aborts. */
async function promptAndConfigRunning(): Promise<ReturnType<typeof rawAgent>> {
  const d = rawAgent(
    testAgent({
      prompt: (_p, ctx) => rejectOnAbort(ctx.signal),
      setSessionConfigOption: (_p, ctx) => rejectOnAbort(ctx.signal, () => new Error("config write interrupted")),
    }).handler,
  );
  await d.initialize();
  d.send(request("turn", "session/prompt", params.prompt("s")));
  d.send(request("cfg", "session/set_config_option", { sessionId: "s", configId: "c", value: "v" }));
  await d.sync();
  return d;
}

const cancelNote = (sessionId: string) => notification("session/cancel", { sessionId });
const cancelRequest = (requestId: unknown) => notification("$/cancel_request", { requestId });

describe("session/cancel on the wire", () => {
  it("[ACP-CANCEL-205] is sent by the client as a notification without an id", async () => {
    const d = await initializedRawClient(testClient().handler);
    await d.conn.agent.cancel({ sessionId: "s" });
    const line = await d.next();
    expect(line).toEqual({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s" } });
    expect("id" in line).toBe(false);
  });

  it("[ACP-CANCEL-205] is never answered by the agent, for a running turn, an idle session or without a sessionId", async () => {
    const d = rawAgent(testAgent({ prompt: (_p, ctx) => rejectOnAbort(ctx.signal) }).handler);
    await d.initialize();
    d.send(request(1, "session/prompt", params.prompt("s")));
    await d.sync();
    d.send(cancelNote("s"));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { stopReason: "cancelled" } });
    d.send(cancelNote("idle"));
    d.send(notification("session/cancel", {}));
    d.send({ jsonrpc: "2.0", method: "session/cancel" });
    expect(await d.sync()).toEqual([]);
  });
});

describe("an agent receiving session/cancel", () => {
  it("[ACP-CANCEL-101] aborts the signals of that session's running handlers as soon as the line is read, even while its notification lane is busy", async () => {
    const laneBusy = deferred();
    const signals: AbortSignal[] = [];
    const d = rawAgent(
      testAgent({
        prompt: (_p, ctx) => (signals.push(ctx.signal), new Promise(() => undefined)),
        setSessionMode: (_p, ctx) => (signals.push(ctx.signal), new Promise(() => undefined)),
        extNotification: () => laneBusy.promise,
      }).handler,
    );
    await d.initialize();
    d.send(request(1, "session/prompt", params.prompt("s")));
    d.send(request(2, "session/set_mode", { sessionId: "s", modeId: "m" }));
    d.send(request(3, "session/prompt", params.prompt("other")));
    d.send(notification("_slow/progress", { sessionId: "s" }));
    d.send(cancelNote("s"));
    await d.sync();
    expect(signals.map((s) => s.aborted)).toEqual([true, true, false]);
    laneBusy.resolve();
  });

  it('[ACP-CANCEL-001] answers the pending prompt {stopReason:"cancelled"} when its handler gives up on the abort', async () => {
    const d = rawAgent(testAgent({ prompt: (_p, ctx) => rejectOnAbort(ctx.signal) }).handler);
    await d.initialize();
    d.send(request(1, "session/prompt", params.prompt("s")));
    await d.sync();
    d.send(cancelNote("s"));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { stopReason: "cancelled" } });
  });

  it("[ACP-CANCEL-001] sends the cancelled result a handler returns itself, _meta included", async () => {
    const d = rawAgent(
      testAgent({
        prompt: async (_p, ctx) => {
          await rejectOnAbort(ctx.signal).catch(() => undefined);
          return { stopReason: "cancelled", _meta: { partial: true } };
        },
      }).handler,
    );
    await d.initialize();
    d.send(request(1, "session/prompt", params.prompt("s")));
    await d.sync();
    d.send(cancelNote("s"));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { stopReason: "cancelled", _meta: { partial: true } } });
  });

  it("[ACP-CANCEL-001] answers cancelled even when the handler ignores the abort and returns end_turn, keeping its other fields", async () => {
    const finish = deferred();
    const d = rawAgent(
      testAgent({
        prompt: async () => {
          await finish.promise;
          return { stopReason: "end_turn", _meta: { tokens: 3 } };
        },
      }).handler,
    );
    await d.initialize();
    d.send(request(1, "session/prompt", params.prompt("s")));
    await d.sync();
    d.send(cancelNote("s"));
    await d.sync();
    finish.resolve();
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { stopReason: "cancelled", _meta: { tokens: 3 } } });
  });

  it("[ACP-CANCEL-001] leaves the stop reason alone when session/cancel arrives after the answer was written", async () => {
    const d = rawAgent(testAgent({ prompt: async () => ({ stopReason: "end_turn" }) }).handler);
    await d.initialize();
    d.send(request(1, "session/prompt", params.prompt("s")));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { stopReason: "end_turn" } });
    d.send(cancelNote("s"));
    d.send(request(2, "session/prompt", params.prompt("s")));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 2, result: { stopReason: "end_turn" } });
  });

  it("[ACP-CLOSE-002] cancels the session's running prompt before session/close reaches the handler", async () => {
    const signals = new Map<string, AbortSignal>();
    const seenByClose: boolean[] = [];
    const d = rawAgent(
      testAgent(
        {
          prompt: (p, ctx) => (signals.set(p.sessionId, ctx.signal), rejectOnAbort(ctx.signal)),
          closeSession: (p) => (seenByClose.push(signals.get(p.sessionId)?.aborted === true, signals.get("other")?.aborted === true), {}),
        },
        { protocolVersion: 1, agentCapabilities: { sessionCapabilities: { close: {} } } },
      ).handler,
    );
    await d.initialize();
    d.send(request(1, "session/prompt", params.prompt("s")));
    d.send(request(2, "session/prompt", params.prompt("other")));
    await d.sync();
    d.send(request(3, "session/close", { sessionId: "s" }));
    const answers = [await d.next(), await d.next()];
    expect(answers).toContainEqual({ jsonrpc: "2.0", id: 1, result: { stopReason: "cancelled" } });
    expect(answers).toContainEqual({ jsonrpc: "2.0", id: 3, result: {} });
    expect(seenByClose).toEqual([true, false]);
  });

  it.each([
    ["the signal's AbortError", (s: AbortSignal) => s.reason],
    ["a plain Error", () => new Error("model stream aborted")],
    ["a string", () => "aborted"],
    ["RpcError -32800", () => RpcError.requestCancelled()],
  ])('[ACP-CANCEL-102] answers {stopReason:"cancelled"}, not an error, when the cancelled prompt throws %s', async (_name, reason) => {
    const d = rawAgent(testAgent({ prompt: (_p, ctx) => rejectOnAbort(ctx.signal, reason) }).handler);
    await d.initialize();
    d.send(request("turn", "session/prompt", params.prompt("s")));
    await d.sync();
    d.send(cancelNote("s"));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: "turn", result: { stopReason: "cancelled" } });
  });

  it("[ACP-CANCEL-002] writes the updates a cancelled prompt sends before it settles ahead of its answer, and nothing after it", async () => {
    const d = rawAgent(
      testAgent({
        prompt: async (p, ctx) => {
          await rejectOnAbort(ctx.signal).catch(() => undefined);
          void ctx.peer.sessionUpdate({ sessionId: p.sessionId, update: { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "failed" } });
          void ctx.peer.sessionUpdate(params.update(p.sessionId, "stopped"));
          throw ctx.signal.reason;
        },
      }).handler,
    );
    await d.initialize();
    d.send(request(1, "session/prompt", params.prompt("s")));
    await d.sync();
    d.send(cancelNote("s"));
    const lines = [await d.next(), await d.next(), await d.next()];
    expect(lines.map((l) => l.method ?? l.result)).toEqual(["session/update", "session/update", { stopReason: "cancelled" }]);
    expect(await d.sync()).toEqual([]);
  });

  it("[ACP-CANCEL-002] resolves the client's prompt call only after the updates sent before the cancelled answer were handled", async () => {
    const handled: string[] = [];
    const agent = testAgent({
      prompt: async (p, ctx) => {
        await rejectOnAbort(ctx.signal).catch(() => undefined);
        for (const n of [1, 2, 3]) void ctx.peer.sessionUpdate(params.update(p.sessionId, `late ${n}`));
        return { stopReason: "cancelled" };
      },
    });
    const client = testClient({
      sessionUpdate: async (n: SessionNotification) => {
        await new Promise((resolve) => setTimeout(resolve, 2));
        if (n.update.sessionUpdate === "agent_message_chunk" && n.update.content.type === "text") handled.push(n.update.content.text);
      },
    });
    const { client: conn } = await initializedPair(agent.handler, client.handler);
    const turn = conn.agent.prompt(params.prompt("s"));
    await until(() => agent.calls.includes("prompt"), "the turn started");
    await conn.agent.cancel({ sessionId: "s" });
    expect(await turn.then((answer) => ({ answer, handled: [...handled] }))).toEqual({ answer: { stopReason: "cancelled" }, handled: ["late 1", "late 2", "late 3"] });
  });
});

describe("a client that sent session/cancel", () => {
  it("[ACP-CANCEL-103] keeps delivering the session's tool call updates that arrive afterwards", async () => {
    const updates: SessionNotification[] = [];
    const d = await initializedRawClient(testClient({ sessionUpdate: (n) => void updates.push(n) }).handler);
    await d.conn.agent.cancel({ sessionId: "s" });
    await d.next();
    const late = [
      { sessionId: "s", update: { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" } },
      { sessionId: "s", update: { sessionUpdate: "tool_call", toolCallId: "t2", title: "Read file", status: "failed" } },
    ];
    for (const u of late) d.send(notification("session/update", u));
    expect(await d.sync()).toEqual([]);
    expect(updates).toEqual(late);
    expect(d.diagnostics.filter((x) => x.kind !== "unknown_session")).toEqual([]);
  });

  it("[ACP-PERM-101] answers every pending permission request of that session cancelled at once, aborts their handlers, and leaves other sessions' requests pending", async () => {
    const signals = new Map<string, AbortSignal>();
    const client = testClient({
      requestPermission: (p, ctx) => {
        signals.set(String(ctx.requestId), ctx.signal);
        return new Promise(() => undefined);
      },
    });
    const d = await initializedRawClient(client.handler);
    d.send(request("p1", "session/request_permission", params.permission("s")));
    d.send(request("p2", "session/request_permission", params.permission("s")));
    d.send(request("q1", "session/request_permission", params.permission("other")));
    expect(await d.sync()).toEqual([]);
    await d.conn.agent.cancel({ sessionId: "s" });
    const lines = [await d.next(), await d.next(), await d.next()];
    expect(lines).toEqual(
      expect.arrayContaining([
        { jsonrpc: "2.0", id: "p1", result: { outcome: { outcome: "cancelled" } } },
        { jsonrpc: "2.0", id: "p2", result: { outcome: { outcome: "cancelled" } } },
        { jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s" } },
      ]),
    );
    expect(await d.sync()).toEqual([]);
    expect([signals.get("p1")?.aborted, signals.get("p2")?.aborted, signals.get("q1")?.aborted]).toEqual([true, true, false]);
  });

  it("[ACP-PERM-102] answers a permission request cancelled through $/cancel_request with the cancelled outcome", async () => {
    const client = testClient({ requestPermission: (_p, ctx) => rejectOnAbort(ctx.signal) });
    const d = await initializedRawClient(client.handler);
    d.send(request(9, "session/request_permission", params.permission("s")));
    await d.sync();
    d.send(cancelRequest(9));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 9, result: { outcome: { outcome: "cancelled" } } });
  });

  it("[ACP-PERM-102] lets the agent's turn end cancelled: its permission call resolves with the cancelled outcome", async () => {
    const asked = deferred();
    let outcome: unknown;
    const agent = testAgent({
      prompt: async (p, ctx) => {
        const answer = await ctx.peer.requestPermission(params.permission(p.sessionId));
        outcome = answer.outcome;
        return { stopReason: answer.outcome.outcome === "cancelled" ? "cancelled" : "end_turn" };
      },
    });
    const client = testClient({ requestPermission: () => (asked.resolve(), new Promise(() => undefined)) });
    const { client: conn } = await initializedPair(agent.handler, client.handler);
    const turn = conn.agent.prompt(params.prompt("s"));
    await asked.promise;
    await conn.agent.cancel({ sessionId: "s" });
    expect(await turn).toEqual({ stopReason: "cancelled" });
    expect(outcome).toEqual({ outcome: "cancelled" });
  });
});

describe("$/cancel_request", () => {
  it("[ACP-CANCEL-105] answers -32800 exactly once when the cancelled handler rejects, however often it is cancelled", async () => {
    const d = rawAgent(testAgent({ extMethod: (_m, _p, ctx) => rejectOnAbort(ctx.signal) }).handler);
    await d.initialize();
    d.send(request(5, "_slow", {}));
    await d.sync();
    d.send(cancelRequest(5));
    d.send(cancelRequest(5));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 5, error: { code: -32800, message: "Request cancelled" } });
    d.send(cancelRequest(5));
    d.send(cancelRequest(404));
    expect(await d.sync()).toEqual([]);
  });

  it("[ACP-CANCEL-105] sends the handler's own result when it completes despite the cancel", async () => {
    const d = rawAgent(
      testAgent({
        extMethod: async (_m, _p, ctx) => {
          await rejectOnAbort(ctx.signal).catch(() => undefined);
          return { partial: ["a", "b"] };
        },
      }).handler,
    );
    await d.initialize();
    d.send(request("x", "_work", {}));
    await d.sync();
    d.send(cancelRequest("x"));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: "x", result: { partial: ["a", "b"] } });
  });

  it("[ACP-CANCEL-106] passes the cancellation on to a nested call the handler made with ctx.signal", async () => {
    const d = rawAgent(
      testAgent({
        prompt: async (p, ctx) => {
          await ctx.peer.requestPermission(params.permission(p.sessionId), { signal: ctx.signal });
          return { stopReason: "end_turn" };
        },
      }).handler,
    );
    await d.initialize();
    d.send(request("outer", "session/prompt", params.prompt("s")));
    const nested = await d.next();
    expect(nested.method).toBe("session/request_permission");
    d.send(cancelRequest("outer"));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: nested.id } });
    d.send({ jsonrpc: "2.0", id: nested.id, error: { code: -32800, message: "Request cancelled" } });
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: "outer", result: { stopReason: "cancelled" } });
  });

  it("[ACP-CANCEL-106] cancels the agent's own pending requests of a session on session/cancel, without ctx.signal", async () => {
    const d = rawAgent(
      testAgent({
        prompt: async (p, ctx) => {
          await Promise.all([ctx.peer.readTextFile({ sessionId: p.sessionId, path: "/w/a" }), ctx.peer.createTerminal({ sessionId: p.sessionId, command: "make" })]);
          return { stopReason: "end_turn" };
        },
      }).handler,
    );
    await d.initialize(params.initialize({ fs: { readTextFile: true }, terminal: true }));
    d.send(request(1, "session/prompt", params.prompt("s")));
    const read = await d.next();
    const terminal = await d.next();
    d.send(cancelNote("s"));
    expect([await d.next(), await d.next()]).toEqual([
      { jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: read.id } },
      { jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: terminal.id } },
    ]);
  });

  it("[ACP-CANCEL-107] writes the notifications a cancelled handler sends before it settles ahead of its answer", async () => {
    const d = rawAgent(
      testAgent({
        extMethod: async (_m, p, ctx) => {
          await rejectOnAbort(ctx.signal).catch(() => undefined);
          void ctx.peer.sessionUpdate(params.update(String(p.sessionId), "flushed"));
          void ctx.peer.sessionUpdate(params.update(String(p.sessionId), "flushed again"));
          throw ctx.signal.reason;
        },
      }).handler,
    );
    await d.initialize();
    d.send(request(1, "_index", { sessionId: "s" }));
    await d.sync();
    d.send(cancelRequest(1));
    const lines = [await d.next(), await d.next(), await d.next()];
    expect(lines.map((l) => l.method ?? l.error?.code)).toEqual(["session/update", "session/update", -32800]);
  });

  it("[ACP-CANCEL-108] keeps an aborted outbound call pending until the peer's one answer, and settles with that answer", async () => {
    const d = await initializedRawClient(testClient().handler);
    const controller = new AbortController();
    const turn = track(d.conn.agent.prompt(params.prompt("s"), { signal: controller.signal }));
    const sent = await d.next();
    controller.abort();
    controller.abort();
    expect(await d.next()).toEqual({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: sent.id } });
    expect(await d.sync()).toEqual([]);
    expect(turn.state).toBe("pending");
    d.send({ jsonrpc: "2.0", id: sent.id, result: { stopReason: "cancelled" } });
    await d.sync();
    expect([turn.state, turn.value]).toEqual(["resolved", { stopReason: "cancelled" }]);

    const other = new AbortController();
    const call = d.conn.agent.setSessionMode({ sessionId: "s", modeId: "m" }, { signal: other.signal });
    const sentMode = await d.next();
    other.abort();
    await d.next();
    d.send({ jsonrpc: "2.0", id: sentMode.id, error: { code: -32800, message: "Request cancelled" } });
    expect((await rpcError(call)).code).toBe(-32800);
  });

  it("[ACP-CANCEL-108] with timeoutMs sends $/cancel_request and rejects locally with -32800", async () => {
    const d = await initializedRawClient(testClient().handler);
    const call = d.conn.agent.prompt(params.prompt("s"), { timeoutMs: 20 });
    const sent = await d.next();
    const error = await rpcError(call);
    expect([error.code, await d.next()]).toEqual([-32800, { jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: sent.id } }]);
    expect(d.conn.stats()).toMatchObject({ pendingOutbound: 0, timers: 0 });
  });

  it("[ACP-CANCEL-109] answers -32800 for another handler of a session that session/cancel aborted", async () => {
    const d = await promptAndConfigRunning();
    d.send(cancelNote("s"));
    const answers = [await d.next(), await d.next()];
    expect(answers).toEqual(
      expect.arrayContaining([
        { jsonrpc: "2.0", id: "turn", result: { stopReason: "cancelled" } },
        { jsonrpc: "2.0", id: "cfg", error: { code: -32800, message: "Request cancelled" } },
      ]),
    );
  });

  it("[ACP-CANCEL-109] answers the requests still running when the peer ends its input: the prompt with its cancelled result, another handler -32800", async () => {
    const d = await promptAndConfigRunning();
    d.end();
    expect([await d.next(), await d.next()]).toEqual([
      { jsonrpc: "2.0", id: "turn", result: { stopReason: "cancelled" } },
      { jsonrpc: "2.0", id: "cfg", error: { code: -32800, message: "Request cancelled" } },
    ]);
  });

  it("[ACP-CANCEL-109] answers -32800 when a handler cancels on its own with RpcError.requestCancelled()", async () => {
    const d = rawAgent(
      testAgent({
        extMethod: async () => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          throw RpcError.requestCancelled();
        },
      }).handler,
    );
    await d.initialize();
    d.send(request(3, "_budgeted", {}));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 3, error: { code: -32800, message: "Request cancelled" } });
  });
});
