// DESIGN §5 and §6: a connection-wide default timeout, a timeout distinguishable from the
// peer's cancellation, and a malformed answer (both result and error) that fails the call
// instead of leaving it waiting.
import { describe, expect, it } from "vitest";
import { ErrorCode, RequestTimeoutError, RpcError } from "../../src/index.ts";
import { track, turn } from "../support/async.ts";
import { params, testClient } from "../support/handlers.ts";
import { notification, rpcError } from "../support/messages.ts";
import { initializedRawClient, rawClient } from "../support/raw-peer.ts";

describe("requestTimeoutMs (the connection's default timeout)", () => {
  it("times out initialize against a silent agent with RequestTimeoutError and sends $/cancel_request", async () => {
    const d = rawClient(testClient().handler, { connection: { requestTimeoutMs: 5 } });
    const call = d.conn.agent.initialize(params.initialize());
    const sent = await d.next();
    expect(sent.method).toBe("initialize");
    const error = await rpcError(call);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect([error.name, error.code, error.message, (error as RequestTimeoutError).timeoutMs, (error as RequestTimeoutError).method]).toEqual(["RequestTimeoutError", -32800, 'Request "initialize" timed out after 5 ms', 5, "initialize"]);
    expect(await d.next()).toEqual(notification("$/cancel_request", { requestId: sent.id }));
    expect(d.conn.stats()).toMatchObject({ pendingOutbound: 0, timers: 0 });
  });

  it("is replaced by a call's own timeoutMs, and timeoutMs: Infinity waits without a timer", async () => {
    const d = await initializedRawClient(testClient().handler, {}, {}, { connection: { requestTimeoutMs: 60_000 } });
    const quick = d.conn.request("_quick", {}, { timeoutMs: 5 });
    const quickSent = await d.next();
    expect((await rpcError(quick)).message).toBe('Request "_quick" timed out after 5 ms');
    expect(await d.next()).toEqual(notification("$/cancel_request", { requestId: quickSent.id }));
    const unbounded = d.conn.request("_unbounded", {}, { timeoutMs: Infinity });
    const sent = await d.next();
    expect(d.conn.stats()).toMatchObject({ pendingOutbound: 1, timers: 0 });
    d.send({ jsonrpc: "2.0", id: sent.id, result: { done: true } });
    expect(await unbounded).toEqual({ done: true });
  });

  it("arms a timer for ordinary requests but not for session/prompt, whose turn lasts as long as the agent works", async () => {
    const d = await initializedRawClient(testClient().handler, {}, {}, { connection: { requestTimeoutMs: 60_000 } });
    const prompt = track(d.conn.agent.prompt(params.prompt("s1")));
    await d.next();
    expect(d.conn.stats()).toMatchObject({ pendingOutbound: 1, timers: 0 });
    const mode = track(d.conn.agent.setSessionMode({ sessionId: "s1", modeId: "code" }));
    await d.next();
    expect(d.conn.stats()).toMatchObject({ pendingOutbound: 2, timers: 1 });
    d.conn.close();
    await turn();
    expect([prompt.state, mode.state]).toEqual(["rejected", "rejected"]);
  });

  it("is off by default: no timer is armed", async () => {
    const d = await initializedRawClient(testClient().handler);
    const call = track(d.conn.request("_slow", {}));
    await d.next();
    expect(d.conn.stats()).toMatchObject({ pendingOutbound: 1, timers: 0 });
    d.conn.close();
    await turn();
    expect(call.state).toBe("rejected");
  });
});

describe("a timeout and the peer's cancellation", () => {
  it("are told apart by type, though both carry -32800", async () => {
    const d = await initializedRawClient(testClient().handler);
    const timedOut = rpcError(d.conn.request("_a", {}, { timeoutMs: 1 }));
    await d.next();
    const cancelled = d.conn.request("_b", {});
    const sent = await d.next();
    d.send({ jsonrpc: "2.0", id: sent.id, error: { code: -32800, message: "Request cancelled" } });
    const peerError = await rpcError(cancelled);
    const timeoutError = await timedOut;
    expect([timeoutError.code, peerError.code]).toEqual([ErrorCode.RequestCancelled, ErrorCode.RequestCancelled]);
    expect([timeoutError instanceof RequestTimeoutError, peerError instanceof RequestTimeoutError]).toEqual([true, false]);
    expect(timeoutError).toBeInstanceOf(RpcError);
  });
});

describe("an answer with both result and error (JSON-RPC 2.0 §5 allows exactly one)", () => {
  it("rejects the pending call it names with a clear error, without any timeout set", async () => {
    const d = await initializedRawClient(testClient().handler);
    const call = d.conn.request("_x", {});
    const sent = await d.next();
    d.send({ jsonrpc: "2.0", id: sent.id, result: { ok: true }, error: { code: 1, message: "no" } });
    const error = await rpcError(call);
    expect([error.code, error.message]).toEqual([-32603, 'Invalid response to "_x" from the agent: it has both "result" and "error" (JSON-RPC 2.0 §5 allows exactly one)']);
    expect(d.diagnostics.map((x) => x.kind)).toEqual(["invalid_result"]);
    expect(await d.sync()).toEqual([]);
    expect(d.conn.stats().pendingOutbound).toBe(0);
  });

  it("is still dropped with a diagnostic, unanswered, when its id names no pending call", async () => {
    const d = await initializedRawClient(testClient().handler);
    d.send({ jsonrpc: "2.0", id: 99, result: {}, error: { code: 1, message: "no" } });
    expect(await d.sync()).toEqual([]);
    expect(d.diagnostics.map((x) => x.kind)).toEqual(["unknown_response"]);
  });
});
