// Cancellation names its cause (issue 21, item 7): a handler's `ctx.signal.reason`
// is a CancelReason whose `cause` tells a user's cancel from a closing session or
// connection, and an outbound call this side cancelled rejects naming why.
import { describe, expect, it } from "vitest";
import { CancelReason, ConnectionClosedError, RequestCancelledError, RequestTimeoutError, RpcError } from "../../src/index.ts";
import type { AgentHandler, ClientHandler, HandlerContext } from "../../src/index.ts";
import { deferred, until, within } from "../support/async.ts";
import { params, testAgent, testClient } from "../support/handlers.ts";
import { initializedPair } from "../support/pair.ts";

/** Records the reason `ctx.signal` aborts with, then rejects with it (the handler honours the cancel). */
function recordAbort(reasons: unknown[]): (ctx: HandlerContext<unknown>) => Promise<never> {
  return (ctx) =>
    new Promise((_, reject) => {
      ctx.signal.addEventListener("abort", () => {
        reasons.push(ctx.signal.reason);
        reject(ctx.signal.reason);
      });
    });
}

/** The `cause` of each recorded reason, after checking it is an AbortError CancelReason. */
function causes(reasons: readonly unknown[]): string[] {
  return reasons.map((r) => {
    expect(r).toBeInstanceOf(CancelReason);
    expect((r as DOMException).name).toBe("AbortError");
    return (r as CancelReason).cause;
  });
}

/** Settles a promise into a value for `toMatchObject`/`toBeInstanceOf` assertions. */
function outcome(promise: Promise<unknown>): Promise<{ ok: boolean; value?: unknown; error?: unknown }> {
  return within(
    promise.then(
      (value) => ({ ok: true, value }),
      (error: unknown) => ({ ok: false, error }),
    ),
    "call settled",
  );
}

const closeCapable = { protocolVersion: 1, agentCapabilities: { sessionCapabilities: { close: {} } } } as const;

describe("the cause of a cancellation", () => {
  it("is \"cancel_request\" for the peer's $/cancel_request, and the caller's rejection says so", async () => {
    const reasons: unknown[] = [];
    const agent = testAgent({ extMethod: (_m, _p, ctx) => recordAbort(reasons)(ctx) });
    const pair = await initializedPair(agent.handler, testClient().handler);
    const controller = new AbortController();
    const call = outcome(pair.client.request("_slow", {}, { signal: controller.signal }));
    await until(() => agent.calls.includes("extMethod:_slow"), "handler started");
    controller.abort();
    const settled = await call;
    expect(causes(reasons)).toEqual(["cancel_request"]);
    expect(settled.error).toBeInstanceOf(RequestCancelledError);
    expect(settled.error).toMatchObject({ code: -32800, cause: "cancel_request" });
  });

  it('is "session_cancel" for session/cancel, on the turn and on the agent\'s own pending call of that session', async () => {
    const reasons: unknown[] = [];
    const clientReasons: unknown[] = [];
    const agentCall = deferred<{ ok: boolean; error?: unknown }>();
    let pair: Awaited<ReturnType<typeof initializedPair>> | undefined;
    const agent = testAgent({
      prompt: (p, ctx) => {
        void outcome((pair as NonNullable<typeof pair>).agent.request("_ask", { sessionId: p.sessionId })).then(agentCall.resolve);
        return recordAbort(reasons)(ctx);
      },
    });
    const client = testClient({ extMethod: (_m, _p, ctx) => recordAbort(clientReasons)(ctx) } as Partial<ClientHandler>);
    pair = await initializedPair(agent.handler, client.handler);
    const { sessionId } = await pair.client.agent.newSession(params.newSession());
    const prompt = pair.client.agent.prompt(params.prompt(sessionId));
    await until(() => client.calls.includes("extMethod:_ask"), "agent's request reached the client");
    await pair.client.agent.cancel({ sessionId });
    expect(await within(prompt, "prompt")).toEqual({ stopReason: "cancelled" });
    expect(causes(reasons)).toEqual(["session_cancel"]);
    // The client only sees the $/cancel_request the agent sent for its own call.
    expect(causes(clientReasons)).toEqual(["cancel_request"]);
    const settled = await within(agentCall.promise, "agent's call");
    expect(settled.error).toBeInstanceOf(RequestCancelledError);
    expect(settled.error).toMatchObject({ code: -32800, cause: "session_cancel" });
  });

  it('is "session_cancel" for a client handler whose permission request the client cancels by sending session/cancel', async () => {
    const reasons: unknown[] = [];
    const client = testClient({ requestPermission: (_p, ctx) => recordAbort(reasons)(ctx) });
    const agent = testAgent({ prompt: async (p, ctx) => (await ctx.peer.requestPermission(params.permission(p.sessionId)), { stopReason: "end_turn" }) } as Partial<AgentHandler>);
    const pair = await initializedPair(agent.handler, client.handler);
    const { sessionId } = await pair.client.agent.newSession(params.newSession());
    const prompt = pair.client.agent.prompt(params.prompt(sessionId));
    await until(() => client.calls.includes("requestPermission"), "permission asked");
    await pair.client.agent.cancel({ sessionId });
    await within(prompt, "prompt");
    expect(causes(reasons)).toEqual(["session_cancel"]);
  });

  it('is "session_close" for session/close of the running turn\'s session', async () => {
    const reasons: unknown[] = [];
    const agent = testAgent({ prompt: (_p, ctx) => recordAbort(reasons)(ctx), closeSession: () => ({}) }, closeCapable);
    const pair = await initializedPair(agent.handler, testClient().handler);
    const { sessionId } = await pair.client.agent.newSession(params.newSession());
    const prompt = pair.client.agent.prompt(params.prompt(sessionId));
    await until(() => agent.calls.includes("prompt"), "prompt started");
    await within(pair.client.agent.closeSession({ sessionId }), "session/close");
    expect(await within(prompt, "prompt")).toEqual({ stopReason: "cancelled" });
    expect(causes(reasons)).toEqual(["session_close"]);
  });

  it('is "connection_closed" when the connection closes; the closing side answers the caller\'s pending call -32800 first, and a call left pending on the other side rejects with ConnectionClosedError', async () => {
    const reasons: unknown[] = [];
    const agent = testAgent({ extMethod: (_m, _p, ctx) => recordAbort(reasons)(ctx) });
    const pair = await initializedPair(agent.handler, testClient().handler);
    const call = outcome(pair.client.request("_slow", {}));
    await until(() => agent.calls.includes("extMethod:_slow"), "handler started");
    pair.agent.close("test over");
    expect(((await call).error as RpcError).code).toBe(-32800);
    expect(await outcome(pair.client.request("_after", {})).then((o) => o.error)).toBeInstanceOf(ConnectionClosedError);
    await until(() => reasons.length === 1, "handler aborted");
    expect(causes(reasons)).toEqual(["connection_closed"]);
  });

  it('is "timeout" on the rejection of an outbound call whose timeoutMs elapsed; the peer\'s handler sees its $/cancel_request', async () => {
    const reasons: unknown[] = [];
    const agent = testAgent({ extMethod: (_m, _p, ctx) => recordAbort(reasons)(ctx) });
    const pair = await initializedPair(agent.handler, testClient().handler);
    const settled = await outcome(pair.client.request("_slow", {}, { timeoutMs: 5 }));
    expect(settled.error).toBeInstanceOf(RequestTimeoutError);
    expect(settled.error).toBeInstanceOf(RequestCancelledError);
    expect(settled.error).toMatchObject({ code: -32800, cause: "timeout", method: "_slow" });
    await until(() => reasons.length === 1, "handler aborted");
    expect(causes(reasons)).toEqual(["cancel_request"]);
  });

  it("keeps the first cause: a session/close after session/cancel leaves the reason session_cancel", async () => {
    const reasons: unknown[] = [];
    const agent = testAgent({ extMethod: (_m, _p, ctx) => recordAbort(reasons)(ctx), closeSession: () => ({}) }, closeCapable);
    const pair = await initializedPair(agent.handler, testClient().handler);
    const { sessionId } = await pair.client.agent.newSession(params.newSession());
    const call = outcome(pair.client.request("_work", { sessionId }));
    await until(() => agent.calls.includes("extMethod:_work"), "handler started");
    await pair.client.agent.cancel({ sessionId });
    await within(pair.client.agent.closeSession({ sessionId }), "session/close");
    const settled = await call;
    expect(settled.error).toBeInstanceOf(RpcError);
    expect(settled.error).toMatchObject({ code: -32800 });
    expect(causes(reasons)).toEqual(["session_cancel"]);
  });
});
