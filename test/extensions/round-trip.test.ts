// Extensions without codegen: a definition shared by both sides, handled through
// the `extensions` option and called through `conn.request` / `conn.notify`.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineExtension, RpcError, type ClientPeer } from "../../src/index.ts";
import { params, testAgent, testClient } from "../support/handlers.ts";
import { until } from "../support/async.ts";
import { rpcError } from "../support/messages.ts";
import { initializedPair } from "../support/pair.ts";
import { echo, lookup, progress, sum } from "./fixtures.ts";

describe("a runtime-registered extension request", () => {
  it("reaches its handler with the params its schema produced and answers the result its schema produced", async () => {
    const seen: unknown[] = [];
    const agentExtensions = [
      echo.handle((p) => {
        seen.push(p);
        return { text: p.text.repeat(p.times) };
      }),
    ];
    const { client } = await initializedPair(testAgent().handler, testClient().handler, {}, { agent: { extensions: agentExtensions } });
    const answer = await client.request(echo, { text: "ab", times: 2 });
    expect(answer).toEqual({ text: "abab", length: 4 });
    // The schema's default fills `times` on the handling side.
    expect(await client.request(echo, { text: "x" })).toEqual({ text: "x", length: 1 });
    expect(seen).toEqual([
      { text: "ab", times: 2 },
      { text: "x", times: 1 },
    ]);
  });

  it("gives the handler the usual context: request id, session id, signal and the typed peer", async () => {
    const where = defineExtension({ wire: "_example.com/where", params: z.object({ sessionId: z.string() }), result: z.object({}) });
    let context: { requestId: unknown; sessionId: unknown; aborted: boolean; peerHasSessionUpdate: boolean } | undefined;
    const handled = where.handle<ClientPeer>((_, ctx) => {
      context = { requestId: ctx.requestId, sessionId: ctx.sessionId, aborted: ctx.signal.aborted, peerHasSessionUpdate: typeof ctx.peer.sessionUpdate === "function" };
      return {};
    });
    const { client } = await initializedPair(testAgent().handler, testClient().handler, {}, { agent: { extensions: [handled] } });
    expect(await client.request(where, { sessionId: "sess-9" })).toEqual({});
    expect(context).toEqual({ requestId: 1, sessionId: "sess-9", aborted: false, peerHasSessionUpdate: true });
  });

  it("works with plain type guards for params and result", async () => {
    const { client } = await initializedPair(testAgent().handler, testClient().handler, {}, { agent: { extensions: [sum.handle((p) => ({ total: p.numbers.reduce((a, b) => a + b, 0) }))] } });
    expect(await client.request(sum, { numbers: [1, 2, 3] })).toEqual({ total: 6 });
  });

  it("validates params with an async Standard Schema before the handler runs", async () => {
    const names = new Map([["u1", "Ada"]]);
    const handled = lookup.handle(({ id }) => {
      const name = names.get(id);
      if (name === undefined) throw RpcError.resourceNotFound(`user:${id}`);
      return { name };
    });
    const { client } = await initializedPair(testAgent().handler, testClient().handler, {}, { agent: { extensions: [handled] } });
    expect(await client.request(lookup, { id: "u1" })).toEqual({ name: "Ada" });
    const invalid = await rpcError(client.request(lookup, { id: "" }));
    expect(invalid.toJSON()).toEqual({ code: -32602, message: "Invalid params", data: { errors: [{ path: "/id", message: "must be a non-empty string" }] } });
  });

  it("answers a handler's RpcError(-32002) as -32002 with its data", async () => {
    const handled = lookup.handle(({ id }) => {
      throw RpcError.resourceNotFound(`user:${id}`);
    });
    const { client } = await initializedPair(testAgent().handler, testClient().handler, {}, { agent: { extensions: [handled] } });
    const error = await rpcError(client.request(lookup, { id: "u2" }));
    expect(error.toJSON()).toEqual({ code: -32002, message: "Resource not found", data: { uri: "user:u2" } });
  });

  it("can be handled by the client and called by the agent", async () => {
    const { agent } = await initializedPair(testAgent().handler, testClient().handler, {}, { client: { extensions: [echo.handle((p) => ({ text: p.text.toUpperCase() }))] } });
    expect(await agent.request(echo, { text: "up" })).toEqual({ text: "UP", length: 2 });
  });
});

describe("a runtime-registered extension notification", () => {
  it("reaches its handler with validated params and the session in its context", async () => {
    const seen: [number, string | undefined][] = [];
    const handled = progress.handle((p, ctx) => {
      seen.push([p.percent, ctx.sessionId]);
    });
    const { agent, client } = await initializedPair(testAgent().handler, testClient().handler, {}, { client: { extensions: [handled] } });
    const { sessionId } = await client.agent.newSession(params.newSession());
    await agent.notify(progress, { sessionId, percent: 50 });
    await agent.notify(progress, { sessionId, percent: 100 });
    await until(() => seen.length === 2, "both notifications delivered");
    expect(seen).toEqual([
      [50, "sess-1"],
      [100, "sess-1"],
    ]);
  });
});
