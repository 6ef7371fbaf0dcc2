// Conformance: JSON-RPC 2.0 messages and errors (overview.mdx "Error Handling", schema RequestId,
// Error, ErrorCode, extensibility.mdx). Test names carry the catalogue ids.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ErrorCode, RpcError, type ErrorObject } from "../../src/index.ts";
import { track } from "../support/async.ts";
import { params, testAgent, testClient } from "../support/handlers.ts";
import { initializedRawClient, rawAgent, rawClient, type WireLine } from "../support/raw-peer.ts";
import { notification, request, rpcError } from "./support.ts";

const schemaUrl = new URL("../../node_modules/@agentclientprotocol/sdk/schema/v1/schema.json", import.meta.url);

describe("the JSON-RPC 2.0 envelope", () => {
  it.each([
    ["missing", undefined],
    ['"1.0"', "1.0"],
    ["the number 2", 2],
  ])("[ACP-JSONRPC-101] answers a request whose jsonrpc is %s with -32600, keeping its id", async (_name, version) => {
    const agent = testAgent();
    const d = rawAgent(agent.handler);
    await d.initialize();
    const body: Record<string, unknown> = { id: 7, method: "session/new", params: params.newSession() };
    if (version !== undefined) body.jsonrpc = version;
    d.send(body);
    expect(await d.next()).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32600, data: { errors: [{ path: "/jsonrpc" }] } } });
    expect(agent.calls).toEqual(["initialize"]);
  });

  it('[ACP-JSONRPC-101] writes jsonrpc "2.0" on every request, notification, result and error it sends', async () => {
    const d = rawAgent(
      testAgent({
        async prompt(p, ctx) {
          await ctx.peer.sessionUpdate(params.update(p.sessionId, "x"));
          await ctx.peer.requestPermission(params.permission(p.sessionId));
          return { stopReason: "end_turn" };
        },
      }).handler,
    );
    await d.initialize();
    d.send(request(1, "session/prompt", params.prompt("s")));
    const update = await d.next();
    const ask = await d.next();
    d.send("junk");
    const parseError = await d.next();
    d.send({ jsonrpc: "2.0", id: ask.id, result: { outcome: { outcome: "selected", optionId: "allow" } } });
    const answer = await d.next();
    expect([update.method, ask.method, parseError.error?.code, answer.result]).toEqual(["session/update", "session/request_permission", -32700, { stopReason: "end_turn" }]);
    const lines = d.text.trim().split("\n");
    expect(lines).toHaveLength(5);
    for (const line of lines) expect((JSON.parse(line) as WireLine).jsonrpc).toBe("2.0");
  });
});

describe("request ids", () => {
  it.each([
    ["true", true],
    ["an object", { n: 1 }],
    ["an array", [1]],
    ["a fraction", 1.5],
    ["an integer beyond 2^53", 2 ** 53 + 2],
    // Stricter than the schema (which allows null): JSON-RPC discourages null ids and uses null for unknown-id answers.
    ["null", null],
  ])("[ACP-JSONRPC-102] answers a request whose id is %s with -32600 and id null, running no handler", async (_name, id) => {
    const agent = testAgent();
    const d = rawAgent(agent.handler);
    await d.initialize();
    d.send(request(id, "session/new", params.newSession()));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request: id must be a string or an integer" } });
    expect(agent.calls).toEqual(["initialize"]);
  });

  it("[ACP-JSONRPC-102] handles a message with a method and no id as a notification, never answered", async () => {
    const agent = testAgent();
    const d = rawAgent(agent.handler);
    await d.initialize();
    d.send(notification("_note", { n: 1 }));
    expect(await d.sync()).toEqual([]);
    expect(agent.calls).toEqual(["initialize", "extNotification:_note"]);
  });

  it.each([["1"], [1], [""], [0], [-5], [2 ** 53 - 1], ["ünïcode id"]])("[ACP-JSONRPC-001] echoes the request id %j exactly, type included", async (id) => {
    const d = rawAgent(testAgent().handler);
    await d.initialize();
    d.send(request(id, "session/new", params.newSession()));
    const answer = await d.next();
    expect(answer).toEqual({ jsonrpc: "2.0", id, result: { sessionId: "sess-1" } });
    expect(typeof answer.id).toBe(typeof id);
  });

  it('[ACP-JSONRPC-001] settles a pending call only with a response whose id matches in type: "0" does not answer 0', async () => {
    const d = rawClient(testClient().handler);
    const call = track(d.conn.agent.initialize(params.initialize()));
    const sent = await d.next();
    expect(sent.id).toBe(0);
    d.send({ jsonrpc: "2.0", id: "0", result: { protocolVersion: 1, agentCapabilities: {} } });
    await d.sync();
    expect(call.state).toBe("pending");
    expect(d.diagnostics.map((x) => x.kind)).toEqual(["unknown_response"]);
    d.send({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, agentCapabilities: {} } });
    await d.sync();
    expect(call.state).toBe("resolved");
  });

  it("[ACP-JSONRPC-103] numbers outbound requests with integers counting up from 0, on both sides", async () => {
    const c = await initializedRawClient(testClient().handler);
    void c.conn.agent.newSession(params.newSession());
    void c.conn.agent.newSession(params.newSession());
    void c.conn.request("_ext", {});
    expect([(await c.next()).id, (await c.next()).id, (await c.next()).id]).toEqual([1, 2, 3]);

    const d = rawAgent(testAgent().handler);
    await d.initialize();
    void d.conn.client.requestPermission(params.permission("s"));
    void d.conn.request("_ext", {});
    expect([(await d.next()).id, (await d.next()).id]).toEqual([0, 1]);
  });
});

describe("responses", () => {
  it("[ACP-JSONRPC-002] answers with exactly one of result and error, result null when a handler returns nothing", async () => {
    const d = rawAgent(
      testAgent({
        extMethod: (method) => {
          if (method === "_fail") throw new RpcError(-32002, "Resource not found");
          return undefined as never;
        },
      }).handler,
    );
    await d.initialize();
    d.send(request(1, "_nothing", {}));
    d.send(request(2, "_fail", {}));
    const [ok, failed] = [await d.next(), await d.next()];
    expect(Object.keys(ok).sort()).toEqual(["id", "jsonrpc", "result"]);
    expect(ok.result).toBeNull();
    expect(Object.keys(failed).sort()).toEqual(["error", "id", "jsonrpc"]);
    expect(failed.error).toEqual({ code: -32002, message: "Resource not found" });
  });

  it.each([
    ["both result and error", { result: {}, error: { code: -32603, message: "x" } }],
    ["neither result nor error", {}],
  ])("[ACP-JSONRPC-002] does not take a message with %s as the response, and does not answer it", async (_name, body) => {
    const d = rawClient(testClient().handler);
    const call = track(d.conn.agent.initialize(params.initialize()));
    const sent = await d.next();
    d.send({ jsonrpc: "2.0", id: sent.id, ...body });
    expect(await d.sync()).toEqual(Object.keys(body).length === 0 ? [{ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request: not a JSON-RPC 2.0 message" } }] : []);
    if (Object.keys(body).length === 0) {
      expect(call.state).toBe("pending");
      d.send({ jsonrpc: "2.0", id: sent.id, result: { protocolVersion: 1, agentCapabilities: {} } });
      await d.sync();
      expect(call.state).toBe("resolved");
    } else {
      // Both: the call fails at once with an error naming the malformed answer, rather than waiting forever.
      expect(call.state).toBe("rejected");
      expect((call.error as Error).message).toContain('has both "result" and "error"');
    }
  });
});

describe("notifications", () => {
  it("[ACP-JSONRPC-003] writes nothing for an unknown, invalid, gated or failing notification on the client", async () => {
    const client = testClient({
      sessionUpdate: (n) => {
        if (n.sessionId === "boom") throw new Error("handler failed");
      },
      completeElicitation: () => undefined,
    });
    const d = await initializedRawClient(client.handler);
    d.send(notification("foo/bar", {}));
    d.send(notification("session/update", { sessionId: 5 }));
    d.send(notification("elicitation/complete", { elicitationId: "e" }));
    d.send(notification("session/update", params.update("boom", "x")));
    d.send(notification("_unhandled", {}));
    expect(await d.sync()).toEqual([]);
    expect(d.diagnostics.map((x) => x.kind)).toEqual(["unknown_notification", "invalid_notification", "gated_notification", "unknown_session", "handler_error", "unknown_notification"]);
  });

  it("[ACP-JSONRPC-003] writes nothing for notifications on the agent, before and after initialize, even when the handler throws", async () => {
    const d = rawAgent(
      testAgent({
        extNotification: () => {
          throw new Error("nope");
        },
      }).handler,
    );
    d.send(notification("session/cancel", { sessionId: "s" }));
    d.send(notification("_early", {}));
    await d.initialize();
    d.send(notification("session/cancel", {}));
    d.send(notification("session/prompt", params.prompt("s")));
    d.send(notification("_late", {}));
    expect(await d.sync()).toEqual([]);
  });
});

describe("unknown methods", () => {
  it.each([["session/unknown"], ["_vendor/thing"], ["constructor"]])("[ACP-JSONRPC-004] answers %s with -32601 naming the method", async (method) => {
    const handler = testAgent().handler;
    delete (handler as { extMethod?: unknown }).extMethod;
    const d = rawAgent(handler);
    await d.initialize();
    d.send(request(4, method, {}));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 4, error: { code: -32601, message: "Method not found", data: { method } } });
  });
});

describe("robustness", () => {
  it("[ACP-JSONRPC-005] keeps serving after a parse error, an invalid request, invalid params and a throwing handler", async () => {
    const d = rawAgent(
      testAgent({
        setSessionMode: () => {
          throw new Error("internal detail");
        },
      }).handler,
    );
    await d.initialize();
    d.send("{oops");
    d.send({ jsonrpc: "2.0", id: true, method: "session/new" });
    d.send(request(1, "session/new", { cwd: 3 }));
    d.send(request(2, "session/set_mode", { sessionId: "s", modeId: "m" }));
    d.send(request(3, "session/new", params.newSession()));
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await d.next()).error?.code);
    expect(codes).toEqual([-32700, -32600, -32602, -32603]);
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 3, result: { sessionId: "sess-1" } });
  });

  it.each([
    ["text", "not json"],
    ["a truncated object", '{"jsonrpc":"2.0","id":1,"method":'],
    ["a trailing comma", '{"jsonrpc":"2.0","id":1,}'],
    ["nesting deeper than maxDepth", `${"[".repeat(200)}${"]".repeat(200)}`],
  ])("[ACP-INFO-PARSE-001] answers %s with -32700 and id null, then serves the next line", async (_name, line) => {
    const d = rawAgent(testAgent().handler);
    await d.initialize();
    d.send(line);
    expect(await d.next()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    d.send(request(2, "session/new", params.newSession()));
    expect(await d.next()).toMatchObject({ id: 2, result: { sessionId: "sess-1" } });
  });

  it("[ACP-INFO-PARSE-001] answers a line longer than maxMessageBytes with -32700 and id null, then serves the next line", async () => {
    const d = rawAgent(testAgent().handler, { connection: { maxMessageBytes: 200 } });
    await d.initialize();
    d.send(request(1, "_big", { text: "x".repeat(500) }));
    expect(await d.next()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    d.send(request(2, "session/new", params.newSession()));
    expect(await d.next()).toMatchObject({ id: 2, result: { sessionId: "sess-1" } });
  });

  it.each([
    ["a number", "42"],
    ["a string", '"hello"'],
    ["null", "null"],
    ["an empty object", "{}"],
    ["an object without method, result or error", '{"jsonrpc":"2.0","id":5}'],
    ["a method that is not a string", '{"jsonrpc":"2.0","id":5,"method":5}'],
  ])("[ACP-INFO-INVALIDREQ-001] answers %s with -32600 and id null", async (_name, line) => {
    const agent = testAgent();
    const d = rawAgent(agent.handler);
    await d.initialize();
    d.send(line);
    expect(await d.next()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
    expect(agent.calls).toEqual(["initialize"]);
  });

  it("[ACP-INFO-INVALIDREQ-001] keeps the id of a request whose envelope is invalid", async () => {
    const d = rawAgent(testAgent().handler);
    await d.initialize();
    d.send({ jsonrpc: "2.0", id: "r-9", method: "session/new", params: [params.newSession()] });
    expect(await d.next()).toEqual({
      jsonrpc: "2.0",
      id: "r-9",
      error: { code: -32600, message: "Invalid request: params must be an object when present", data: { errors: [{ path: "/params", message: "must be an object when present" }] } },
    });
  });
});

/**
 * Provokes every failure the router answers by itself, plus one handler
 * RpcError and one handler crash, and returns each error as written.
 */
async function routerErrors(): Promise<Record<string, ErrorObject>> {
  const agent = testAgent(
    {
      setSessionMode: () => {
        throw new Error("secret internals");
      },
      setSessionConfigOption: () => {
        throw RpcError.resourceNotFound("file:///x");
      },
    },
    { protocolVersion: 1, agentCapabilities: {} },
  );
  const d = rawAgent(agent.handler, { connection: { authRequired: true } });
  const out: Record<string, ErrorObject> = {};
  const answer = async (label: string, line: string | object) => {
    d.send(line);
    const got = await d.next();
    out[label] = got.error as ErrorObject;
  };
  await answer("not initialized", request(1, "session/new", params.newSession()));
  await d.initialize();
  await answer("parse error", "{");
  await answer("batch", "[1]");
  await answer("unusable id", { jsonrpc: "2.0", id: {}, method: "session/new" });
  await answer("bad envelope", { jsonrpc: "1.0", id: 2, method: "session/new" });
  await answer("unknown method", request(3, "nope"));
  await answer("capability not advertised", request(4, "session/load", {}));
  await answer("authentication required", request(5, "session/new", params.newSession()));
  await answer("invalid params", request(6, "authenticate", { methodId: 5 }));
  d.send(request(7, "authenticate", { methodId: "m" }));
  await d.next();
  await answer("handler crashed", request(8, "session/set_mode", { sessionId: "s", modeId: "m" }));
  await answer("resource not found", request(9, "session/set_config_option", { sessionId: "s", configId: "c", value: "v" }));
  const cancelled = rawAgent(testAgent({ extMethod: (_m, _p, ctx) => new Promise((_r, reject) => ctx.signal.addEventListener("abort", () => reject(new Error("aborted")))) }).handler);
  await cancelled.initialize();
  cancelled.send(request(1, "_slow", {}));
  await cancelled.sync();
  cancelled.send(notification("$/cancel_request", { requestId: 1 }));
  out["request cancelled"] = (await cancelled.next()).error as ErrorObject;
  return out;
}

describe("error objects", () => {
  it("[ACP-ERROR-101] writes an integer code in every error the router builds", async () => {
    const errors = await routerErrors();
    expect(Object.keys(errors)).toHaveLength(12);
    for (const [label, error] of Object.entries(errors)) expect([label, Number.isInteger(error.code)]).toEqual([label, true]);
  });

  it("[ACP-ERROR-101] rejects a call answered with a non-integer error code as a malformed response", async () => {
    const d = rawClient(testClient().handler);
    const call = d.conn.agent.initialize(params.initialize());
    const sent = await d.next();
    d.send({ jsonrpc: "2.0", id: sent.id, error: { code: -32000.5, message: "odd" } });
    const error = await rpcError(call);
    expect([error.code, error.message]).toEqual([-32603, "Malformed error response from peer"]);
  });

  // A thrown RpcError with a non-integer code is answered -32603: JSON-RPC codes are integers.
  it("[ACP-ERROR-101] writes an integer code when a handler throws an RpcError with a fractional or NaN code", async () => {
    const d = rawAgent(
      testAgent({
        setSessionMode: () => {
          throw new RpcError(1.5, "fraction");
        },
        setSessionConfigOption: () => {
          throw new RpcError(Number.NaN, "not a number");
        },
      }).handler,
    );
    await d.initialize();
    d.send(request(1, "session/set_mode", { sessionId: "s", modeId: "m" }));
    d.send(request(2, "session/set_config_option", { sessionId: "s", configId: "c", value: "v" }));
    const codes = [(await d.next()).error?.code, (await d.next()).error?.code];
    expect(codes.map((code) => Number.isInteger(code))).toEqual([true, true]);
  });

  it("[ACP-ERROR-001] keeps the router's own error messages to one short line", async () => {
    const errors = await routerErrors();
    for (const [label, error] of Object.entries(errors)) {
      expect([label, error.message.includes("\n"), error.message.length <= 80]).toEqual([label, false, true]);
    }
    expect(errors["handler crashed"]).toEqual({ code: -32603, message: "Internal error" });
  });

  it("[ACP-ERROR-102] exports exactly the error codes the schema defines", () => {
    const schema = JSON.parse(readFileSync(schemaUrl, "utf8")) as { $defs: { ErrorCode: { anyOf: { const?: number; title: string }[] } } };
    const variants = schema.$defs.ErrorCode.anyOf;
    // Every variant but the open-ended "Other" integer names one code.
    expect(variants.filter((v) => v.const === undefined).map((v) => v.title)).toEqual(["Other"]);
    const fromSchema = variants.flatMap((v) => (v.const === undefined ? [] : [v.const])).sort((a, b) => a - b);
    expect(Object.values(ErrorCode).sort((a, b) => a - b)).toEqual(fromSchema);
  });

  it("[ACP-ERROR-102] answers each failure with its predefined code", async () => {
    const errors = await routerErrors();
    const codes = Object.fromEntries(Object.entries(errors).map(([label, e]) => [label, e.code]));
    expect(codes).toEqual({
      "not initialized": ErrorCode.InvalidRequest,
      "parse error": ErrorCode.ParseError,
      batch: ErrorCode.InvalidRequest,
      "unusable id": ErrorCode.InvalidRequest,
      "bad envelope": ErrorCode.InvalidRequest,
      "unknown method": ErrorCode.MethodNotFound,
      "capability not advertised": ErrorCode.MethodNotFound,
      "authentication required": ErrorCode.AuthRequired,
      "invalid params": ErrorCode.InvalidParams,
      "handler crashed": ErrorCode.InternalError,
      "resource not found": ErrorCode.ResourceNotFound,
      "request cancelled": ErrorCode.RequestCancelled,
    });
  });
});
