// Conformance: extensibility (_meta, unknown fields, _ methods, unknown notifications, $/
// notifications) and the extensible enums of elicitation (extensibility.mdx, elicitation.mdx, schema
// "other" variants). Test names carry the catalogue ids.
import { describe, expect, it } from "vitest";
import type { CreateElicitationRequest, SessionNotification } from "../../src/index.ts";
import { params, testAgent, testClient } from "../support/handlers.ts";
import { initializedPair } from "../support/pair.ts";
import { initializedRawClient, rawAgent } from "../support/raw-peer.ts";
import { notification, request } from "./support.ts";

const meta = { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", vendor: { nested: [1, { deep: null }], flag: true }, n: 3.5 };

describe("_meta", () => {
  it("[ACP-META-001] carries _meta on request params, nested objects and results through to handler and caller", async () => {
    const seen: unknown[] = [];
    const agent = testAgent({
      prompt: (p) => {
        seen.push(p._meta, p.prompt[0]?._meta);
        return { stopReason: "end_turn", _meta: meta };
      },
    });
    const { client } = await initializedPair(agent.handler, testClient().handler);
    const answer = await client.agent.prompt({ sessionId: "s", prompt: [{ type: "text", text: "hi", _meta: meta }], _meta: meta });
    expect(answer).toEqual({ stopReason: "end_turn", _meta: meta });
    expect(seen).toEqual([meta, meta]);
  });

  it("[ACP-META-001] carries _meta on notifications and inside updates to the client's handler", async () => {
    const updates: SessionNotification[] = [];
    const d = await initializedRawClient(testClient({ sessionUpdate: (n) => void updates.push(n) }).handler);
    const update = { sessionId: "s", _meta: meta, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x", _meta: meta }, _meta: meta } };
    d.send(notification("session/update", update));
    expect(await d.sync()).toEqual([]);
    expect(updates).toEqual([update]);
  });

  it("[ACP-META-102] passes any values under _meta through unchanged, and never rejects a message for them", async () => {
    // Written as JSON text so "__proto__" is an own key, as it is on the wire.
    const metaJson = '{"":"","__proto__":{"polluted":true},"constructor":"c","list":[null,[],{}],"big":123456789012,"neg":-0.5,"text":"line\\nbreak"}';
    const expected: unknown = JSON.parse(metaJson);
    const seen: unknown[] = [];
    const d = rawAgent(testAgent({ newSession: (p) => (seen.push(p._meta), { sessionId: "s", _meta: p._meta ?? null }) }).handler, { connection: { leniency: "strict" } });
    await d.initialize();
    d.send(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[],"_meta":${metaJson}}}`);
    const answer = await d.next();
    expect(JSON.stringify(answer.result)).toBe(`{"sessionId":"s","_meta":${metaJson}}`);
    expect(seen).toEqual([expected]);
    expect(Object.keys(seen[0] as object)).toContain("__proto__");
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("[ACP-META-102] drops a _meta that is not an object, as the schema's default-on-error says, and serves the request", async () => {
    const seen: unknown[] = [];
    const d = rawAgent(testAgent({ newSession: (p) => (seen.push("_meta" in p ? p._meta : "absent"), { sessionId: "s" }) }).handler);
    await d.initialize();
    d.send(request(1, "session/new", { ...params.newSession(), _meta: "not an object" }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { sessionId: "s" } });
    expect(seen).toEqual(["absent"]);
  });
});

describe("unknown fields", () => {
  it("[ACP-EXT-101] accepts unknown fields at the root of params and results and inside capabilities, and keeps them", async () => {
    const seen: unknown[] = [];
    const agent = testAgent({ initialize: (p) => (seen.push(p), { protocolVersion: 1, agentCapabilities: { loadSession: false, futureCapability: { level: 2 } }, futureRoot: "x" } as never) });
    const d = rawAgent(agent.handler, { connection: { leniency: "strict" } });
    d.send(request(1, "initialize", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, futureFs: 1 }, futureCap: {} }, futureField: [1, 2] }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { protocolVersion: 1, agentCapabilities: { loadSession: false, futureCapability: { level: 2 } }, futureRoot: "x" } });
    expect(seen).toEqual([{ protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, futureFs: 1 }, futureCap: {} }, futureField: [1, 2] }]);

    const c = await initializedRawClient(testClient().handler, {}, {}, { connection: { leniency: "strict" } });
    const created = c.conn.agent.newSession(params.newSession());
    const sent = await c.next();
    c.send({ jsonrpc: "2.0", id: sent.id, result: { sessionId: "s", futureList: [{ a: 1 }] } });
    expect(await created).toEqual({ sessionId: "s", futureList: [{ a: 1 }] });
  });

  it("[ACP-EXT-101] delivers a session/update whose update carries unknown fields", async () => {
    const updates: SessionNotification[] = [];
    const d = await initializedRawClient(testClient({ sessionUpdate: (n) => void updates.push(n) }).handler, {}, {}, { connection: { leniency: "strict" } });
    const update = { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x", futureAnnotation: 1 }, futureField: "y" } };
    d.send(notification("session/update", update));
    expect(await d.sync()).toEqual([]);
    expect(updates).toEqual([update]);
  });
});

describe("custom methods", () => {
  it("[ACP-EXT-102] routes _ requests and notifications to extMethod and extNotification with the wire name unchanged", async () => {
    const agent = testAgent();
    const d = rawAgent(agent.handler);
    await d.initialize();
    d.send(request(1, "_zed.dev/workspace/buffers", { a: 1 }));
    d.send(notification("__double/underscore", { b: 2 }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { method: "_zed.dev/workspace/buffers", params: { a: 1 } } });
    expect(await d.sync()).toEqual([]);
    expect(agent.calls).toEqual(["initialize", "extMethod:_zed.dev/workspace/buffers", "extNotification:__double/underscore"]);
  });

  it("[ACP-EXT-102] sends _ requests and notifications with the wire name unchanged, never adding or stripping the underscore", async () => {
    const d = await initializedRawClient(testClient().handler);
    const call = d.conn.request("_vendor/ping", { n: 1 });
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, method: "_vendor/ping", params: { n: 1 } });
    d.send({ jsonrpc: "2.0", id: 1, result: { pong: true } });
    expect(await call).toEqual({ pong: true });
    await d.conn.notify("_vendor/event", { e: 2 });
    expect(await d.next()).toEqual({ jsonrpc: "2.0", method: "_vendor/event", params: { e: 2 } });
  });

  it("[ACP-EXT-102] still sends a method without the underscore that is not in the table, reporting it as unknown_message", async () => {
    const d = await initializedRawClient(testClient().handler);
    void (d.conn.request as (wire: string, p: unknown) => Promise<unknown>)("vendor/ping", {});
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, method: "vendor/ping", params: {} });
    expect(d.diagnostics.map((x) => x.kind)).toEqual(["unknown_message"]);
  });

  it("[ACP-EXT-001] answers every custom request exactly once with its id: the result, the thrown error, or -32601 without extMethod", async () => {
    const agent = testAgent({
      extMethod: (method) => {
        if (method === "_throws") throw new Error("private");
        return { ok: method };
      },
    });
    const d = rawAgent(agent.handler);
    await d.initialize();
    d.send(request("a", "_works", {}));
    d.send(request("b", "_throws", {}));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: "a", result: { ok: "_works" } });
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: "b", error: { code: -32603, message: "Internal error" } });
    expect(await d.sync()).toEqual([]);

    const bare = testAgent().handler;
    delete (bare as { extMethod?: unknown }).extMethod;
    const e = rawAgent(bare);
    await e.initialize();
    e.send(request(7, "_nobody/home", {}));
    expect(await e.next()).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32601, message: "Method not found", data: { method: "_nobody/home" } } });
  });
});

describe("unrecognized notifications", () => {
  it("[ACP-EXT-201] ignores unknown notifications, custom or not, without an answer, and keeps serving", async () => {
    const handler = testClient().handler;
    const d = await initializedRawClient(handler);
    d.send(notification("_vendor/unhandled", { x: 1 }));
    d.send(notification("session/future_notification", { sessionId: "s" }));
    d.send(notification("terminal/output", { sessionId: "s", terminalId: "t" }));
    expect(await d.sync()).toEqual([]);
    expect(d.diagnostics.map((x) => x.kind)).toEqual(["unknown_notification", "unknown_notification", "unknown_notification"]);
    d.send(request(1, "session/request_permission", params.permission("s")));
    expect(await d.next()).toMatchObject({ id: 1, result: { outcome: { outcome: "selected" } } });
  });

  it("[ACP-EXT-203] ignores $/ notifications other than $/cancel_request, and answers a $/ request -32601", async () => {
    const agent = testAgent();
    const d = rawAgent(agent.handler);
    await d.initialize();
    d.send(notification("$/progress", { token: 1, value: 50 }));
    d.send(notification("$/setTrace", { value: "off" }));
    expect(await d.sync()).toEqual([]);
    expect(agent.calls).toEqual(["initialize"]);
    d.send(request(2, "$/ping", {}));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 2, error: { code: -32601, message: "Method not found", data: { method: "$/ping" } } });
  });
});

describe("extensible elicitation enums", () => {
  const elicitingClient = async () => {
    const seen: unknown[] = [];
    const d = await initializedRawClient(testClient({ createElicitation: (p) => (seen.push(p), { action: "decline" }) }).handler, { elicitation: { form: {}, url: {} } });
    return { d, seen };
  };

  it("[ACP-ENUM-101] hands an unknown elicitation mode to the handler as sent, never as form or url", async () => {
    const { d, seen } = await elicitingClient();
    const custom = { sessionId: "s", mode: "_vendor/qr", message: "Scan this", payload: { code: "abc" } };
    d.send(request(1, "elicitation/create", custom));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { action: "decline" } });
    expect(seen).toEqual([custom]);
    expect((seen[0] as CreateElicitationRequest).mode).toBe("_vendor/qr");
  });

  it("[ACP-ENUM-101] rejects a malformed known mode with -32602 instead of reading it as a custom one", async () => {
    const { d, seen } = await elicitingClient();
    d.send(request(1, "elicitation/create", { sessionId: "s", mode: "form", message: "Name?" }));
    expect(await d.next()).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(seen).toEqual([]);
  });

  it("[ACP-ENUM-102] resolves the agent's elicitation call with an unknown action exactly as the client sent it", async () => {
    const results: unknown[] = [];
    const d = rawAgent(
      testAgent({
        prompt: async (p, ctx) => {
          results.push(await ctx.peer.createElicitation({ sessionId: p.sessionId, mode: "form", message: "Name?", requestedSchema: { type: "object", properties: {} } }));
          return { stopReason: "end_turn" };
        },
      }).handler,
    );
    await d.initialize(params.initialize({ elicitation: { form: {} } }));
    d.send(request(1, "session/prompt", params.prompt("s")));
    const ask = await d.next();
    d.send({ jsonrpc: "2.0", id: ask.id, result: { action: "_snooze", until: "tomorrow" } });
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { stopReason: "end_turn" } });
    expect(results).toEqual([{ action: "_snooze", until: "tomorrow" }]);
  });

  it("[ACP-ENUM-103] hands a requested property of unknown type to the handler unchanged", async () => {
    const { d, seen } = await elicitingClient();
    const form = {
      sessionId: "s",
      mode: "form",
      message: "Pick",
      requestedSchema: { type: "object", properties: { colour: { type: "_color", palette: ["red"] }, name: { type: "string" } } },
    };
    d.send(request(1, "elicitation/create", form));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { action: "decline" } });
    expect(seen).toEqual([form]);
  });

  it("[ACP-ELICIT-118] passes elicitation ids through unchanged in both directions", async () => {
    const id = "elic:7f3a/ü?x=1&y=%20 ";
    const completed: unknown[] = [];
    const asked: unknown[] = [];
    const client = testClient({
      createElicitation: (p) => (asked.push((p as { elicitationId?: unknown }).elicitationId), { action: "accept" }),
      completeElicitation: (p) => void completed.push(p.elicitationId),
    });
    const agent = testAgent({
      prompt: async (p, ctx) => {
        await ctx.peer.createElicitation({ sessionId: p.sessionId, mode: "url", message: "Sign in", url: "https://example.com/login", elicitationId: id });
        await ctx.peer.completeElicitation({ elicitationId: id });
        return { stopReason: "end_turn" };
      },
    });
    const { client: conn } = await initializedPair(agent.handler, client.handler, { elicitation: { url: {} } });
    expect(await conn.agent.prompt(params.prompt("s"))).toEqual({ stopReason: "end_turn" });
    await new Promise((resolve) => setImmediate(resolve));
    expect({ asked, completed }).toEqual({ asked: [id], completed: [id] });
  });
});
