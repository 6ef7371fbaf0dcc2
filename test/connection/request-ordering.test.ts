// DESIGN §7: a session-scoped request starts only after that session's earlier notifications
// were handled (a permission request finds the tool call its update announced), while
// requests still run concurrently among themselves.
import { describe, expect, it } from "vitest";
import type { SessionNotification } from "../../src/index.ts";
import { deferred, delay, until, within } from "../support/async.ts";
import { params, testAgent, testClient } from "../support/handlers.ts";
import { request } from "../support/messages.ts";
import { initializedPair } from "../support/pair.ts";
import { initializedRawClient } from "../support/raw-peer.ts";

const toolCall = (sessionId: string, toolCallId: string): SessionNotification => ({ sessionId, update: { sessionUpdate: "tool_call", toolCallId, title: "Read a file" } });
const permission = (sessionId: string, toolCallId: string) => ({ ...params.permission(sessionId), toolCall: { toolCallId } });

describe("a session-scoped request", () => {
  it("finds the tool call that a slow async update handler recorded for the update just before it", async () => {
    const agent = testAgent({
      prompt: async (p, ctx) => {
        await ctx.peer.sessionUpdate(toolCall(p.sessionId, "call-1"));
        const answer = await ctx.peer.requestPermission(permission(p.sessionId, "call-1"));
        return { stopReason: answer.outcome.outcome === "selected" ? "end_turn" : "refusal" };
      },
    });
    const recorded = new Set<string>();
    const client = testClient({
      sessionUpdate: async (n) => {
        await delay(5);
        if (n.update.sessionUpdate === "tool_call") recorded.add(n.update.toolCallId);
      },
      requestPermission: (p) => (recorded.has(p.toolCall.toolCallId) ? { outcome: { outcome: "selected", optionId: "allow" } } : { outcome: { outcome: "cancelled" } }),
    });
    const { client: conn } = await initializedPair(agent.handler, client.handler);
    const { sessionId } = await conn.agent.newSession(params.newSession());
    expect(await within(conn.agent.prompt(params.prompt(sessionId)), "prompt")).toEqual({ stopReason: "end_turn" });
  });

  it("does not wait for another session's notifications", async () => {
    const release = deferred();
    const events: string[] = [];
    const client = testClient({
      sessionUpdate: async (n) => {
        events.push(`update ${n.sessionId}`);
        await release.promise;
      },
      requestPermission: (p) => {
        events.push(`permission ${p.sessionId}`);
        return { outcome: { outcome: "selected", optionId: "allow" } };
      },
    });
    const d = await initializedRawClient(client.handler);
    d.send({ jsonrpc: "2.0", method: "session/update", params: toolCall("A", "call-1") });
    d.send(request(1, "session/request_permission", permission("B", "call-2")));
    expect(await d.next()).toMatchObject({ id: 1, result: { outcome: { outcome: "selected" } } });
    expect(events).toEqual(["update A", "permission B"]);
    release.resolve();
  });

  it("runs concurrently with another request of the same session, both queued behind a slow update (requests are not serialised)", async () => {
    const release = deferred();
    const secondStarted = deferred();
    const client = testClient({
      sessionUpdate: () => release.promise,
      requestPermission: async (p) => {
        if (p.toolCall.toolCallId === "first") await secondStarted.promise;
        else secondStarted.resolve();
        return { outcome: { outcome: "selected", optionId: p.toolCall.toolCallId } };
      },
    });
    const d = await initializedRawClient(client.handler);
    d.send({ jsonrpc: "2.0", method: "session/update", params: toolCall("A", "call-1") });
    d.send(request(1, "session/request_permission", permission("A", "first")));
    d.send(request(2, "session/request_permission", permission("A", "second")));
    expect(await d.sync()).toEqual([]);
    expect(client.calls).toEqual(["sessionUpdate"]);
    release.resolve();
    const answers = [await d.next(), await d.next()];
    expect(answers.map((a) => [a.id, (a.result as { outcome: { optionId: string } }).outcome.optionId])).toEqual([
      [2, "second"],
      [1, "first"],
    ]);
  });

  it("queued behind a slow update, is still cancelled by $/cancel_request and answered once", async () => {
    const release = deferred();
    const client = testClient({
      sessionUpdate: () => release.promise,
    });
    const d = await initializedRawClient(client.handler);
    d.send({ jsonrpc: "2.0", method: "session/update", params: toolCall("A", "call-1") });
    d.send(request(1, "session/request_permission", permission("A", "call-1")));
    d.send({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: 1 } });
    expect(await d.sync()).toEqual([]);
    release.resolve();
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { outcome: { outcome: "cancelled" } } });
    expect(client.calls).toEqual(["sessionUpdate"]);
    await until(() => d.conn.stats().busyLanes === 0, "lane drained");
    expect(await d.sync()).toEqual([]);
  });

  it("queued behind a slow update, is answered cancelled when the client sends session/cancel, and its handler never runs", async () => {
    const release = deferred();
    const client = testClient({ sessionUpdate: () => release.promise });
    const d = await initializedRawClient(client.handler);
    d.send({ jsonrpc: "2.0", method: "session/update", params: toolCall("A", "call-1") });
    d.send(request(1, "session/request_permission", permission("A", "call-1")));
    expect(await d.sync()).toEqual([]);
    await d.conn.agent.cancel({ sessionId: "A" });
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { outcome: { outcome: "cancelled" } } });
    expect(await d.next()).toEqual({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "A" } });
    release.resolve();
    await until(() => d.conn.stats().busyLanes === 0, "lane drained");
    expect(client.calls).toEqual(["sessionUpdate"]);
    expect(await d.sync()).toEqual([]);
  });

  it("queued behind a slow update, is dropped on close without an answer or a leftover", async () => {
    const client = testClient({ sessionUpdate: () => new Promise(() => {}) });
    const d = await initializedRawClient(client.handler);
    d.send({ jsonrpc: "2.0", method: "session/update", params: toolCall("A", "call-1") });
    d.send(request(1, "session/request_permission", permission("A", "call-1")));
    expect(await d.sync()).toEqual([]);
    expect(d.conn.stats()).toMatchObject({ inFlightInbound: 1, busyLanes: 1 });
    d.conn.close();
    expect(d.conn.stats()).toEqual({ pendingOutbound: 0, inFlightInbound: 0, busyLanes: 0, timers: 0, abortListeners: 0 });
    expect(client.calls).toEqual(["sessionUpdate"]);
  });
});
