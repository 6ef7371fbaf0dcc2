// DESIGN §4 and §6: a request whose id is still in flight is rejected, so the first call keeps
// its entry: `$/cancel_request` reaches it, and it is answered exactly once with its own result.
import { describe, expect, it } from "vitest";
import { deferred, until } from "../support/async.ts";
import { params, testAgent, testClient } from "../support/handlers.ts";
import { notification, request } from "../support/messages.ts";
import { initializedRawClient, rawAgent } from "../support/raw-peer.ts";

/** An agent whose `_hold` calls wait for `release` (or their signal) and answer which call they were. */
function holdingAgent() {
  const release = deferred();
  const started: unknown[] = [];
  const aborted: unknown[] = [];
  const agent = testAgent({
    extMethod: async (method, p, ctx) => {
      if (method !== "_hold") return { method };
      started.push(p.call);
      ctx.signal.addEventListener("abort", () => aborted.push(p.call));
      await Promise.race([release.promise, new Promise((resolve) => ctx.signal.addEventListener("abort", resolve))]);
      return { call: p.call, aborted: ctx.signal.aborted };
    },
  });
  return { agent, release, started, aborted };
}

describe("a request whose id is still in flight", () => {
  it("is rejected -32600 with its id, and its handler never runs", async () => {
    const { agent, release, started } = holdingAgent();
    const d = rawAgent(agent.handler);
    await d.initialize();
    d.send(request(7, "_hold", { call: "first" }));
    d.send(request(7, "_hold", { call: "second" }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32600, message: "Invalid request: a request with this id is still in flight" } });
    expect(started).toEqual(["first"]);
    release.resolve();
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 7, result: { call: "first", aborted: false } });
  });

  it("leaves $/cancel_request targeting the first call", async () => {
    const { agent, aborted } = holdingAgent();
    const d = rawAgent(agent.handler);
    await d.initialize();
    d.send(request(7, "_hold", { call: "first" }));
    d.send(request(7, "_hold", { call: "second" }));
    expect(await d.next()).toMatchObject({ id: 7, error: { code: -32600 } });
    d.send(notification("$/cancel_request", { requestId: 7 }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 7, result: { call: "first", aborted: true } });
    expect(aborted).toEqual(["first"]);
  });

  it("gives each accepted call one answer, and accepts the id again once the first call was answered", async () => {
    const { agent, release, started } = holdingAgent();
    const d = rawAgent(agent.handler);
    await d.initialize();
    d.send(request(7, "_hold", { call: "first" }));
    d.send(request(7, "_other", {}));
    expect(await d.next()).toMatchObject({ id: 7, error: { code: -32600 } });
    release.resolve();
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 7, result: { call: "first", aborted: false } });
    d.send(request(7, "_hold", { call: "third" }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 7, result: { call: "third", aborted: false } });
    expect(started).toEqual(["first", "third"]);
    expect(await d.sync()).toEqual([]);
    expect(d.conn.stats().inFlightInbound).toBe(0);
  });

  it('matches by id and type: a string "7" is another id than the number 7', async () => {
    const { agent, release } = holdingAgent();
    const d = rawAgent(agent.handler);
    await d.initialize();
    d.send(request(7, "_hold", { call: "number" }));
    d.send(request("7", "_hold", { call: "string" }));
    expect(await d.sync()).toEqual([]);
    release.resolve();
    const answers = [await d.next(), await d.next()];
    expect(answers).toEqual([
      { jsonrpc: "2.0", id: 7, result: { call: "number", aborted: false } },
      { jsonrpc: "2.0", id: "7", result: { call: "string", aborted: false } },
    ]);
  });

  it("is rejected while the first call still waits behind its session's slow update, which then runs once", async () => {
    const releaseUpdate = deferred();
    const client = testClient({ sessionUpdate: () => releaseUpdate.promise });
    const d = await initializedRawClient(client.handler);
    d.send(notification("session/update", params.update("s1", "slow")));
    d.send(request(3, "session/request_permission", params.permission("s1")));
    d.send(request(3, "session/request_permission", params.permission("s1")));
    expect(await d.next()).toMatchObject({ id: 3, error: { code: -32600 } });
    releaseUpdate.resolve();
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 3, result: { outcome: { outcome: "selected", optionId: "allow" } } });
    await until(() => d.conn.stats().busyLanes === 0, "lane drained");
    expect(client.calls).toEqual(["sessionUpdate", "requestPermission"]);
  });
});
