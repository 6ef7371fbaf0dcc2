// Registered extensions pass the same gates as table rows (DESIGN §4.6–§4.8, §5), and
// `_` methods nobody registered still reach extMethod / extNotification.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openConnection } from "../../src/connection/connect.ts";
import type { Protocol } from "../../src/protocol.ts";
import { connectAgent, defineExtension, memoryPair, protocol } from "../../src/index.ts";
import { testAgent, testClient } from "../support/handlers.ts";
import { notification, request, rpcError } from "../support/messages.ts";
import { initializedPair } from "../support/pair.ts";
import { initializedRawClient, rawAgent } from "../support/raw-peer.ts";
import { echo, progress, secret } from "./fixtures.ts";

const secretHandler = secret.handle(() => ({ ok: true }));

describe("the capability gate of a registered extension", () => {
  it("answers -32601 with data.reason naming the capability path when the handling side did not advertise it", async () => {
    const d = rawAgent(testAgent().handler, { connection: { extensions: [secretHandler] } });
    await d.initialize();
    d.send(request(1, "_example.com/secret", { invalid: "params are not even looked at" }));
    expect(await d.next()).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32601, message: "Method not found", data: { method: "_example.com/secret", reason: "agentCapabilities._meta.example.com.secret was not advertised by the agent" } },
    });
  });

  it("serves the method once the handling side advertised the path under _meta", async () => {
    const agent = testAgent({}, { protocolVersion: 1, agentCapabilities: { _meta: { "example.com": { secret: true } } } });
    const { client } = await initializedPair(agent.handler, testClient().handler, {}, { agent: { extensions: [secretHandler] } });
    expect(await client.request(secret, {})).toEqual({ ok: true });
  });

  it("refuses to send the request when the peer did not advertise the path, writing nothing", async () => {
    const d = await initializedRawClient(testClient().handler);
    const error = await rpcError(d.conn.request(secret, {}));
    expect(error.toJSON()).toEqual({
      code: -32601,
      message: "Method not found",
      data: { method: "_example.com/secret", reason: "agentCapabilities._meta.example.com.secret was not advertised by the agent; not sent" },
    });
    expect(await d.sync()).toEqual([]);
  });

  it("refuses to send a gated notification the peer did not advertise, and drops one that arrives anyway", async () => {
    const gated = defineExtension({ wire: "_example.com/tick", params: z.object({}), capability: ["_meta", "tick"] });
    const ticks: unknown[] = [];
    const d = rawAgent(testAgent().handler, { connection: { extensions: [gated.handle((p) => void ticks.push(p))] } });
    await d.initialize();
    d.send(notification("_example.com/tick", {}));
    expect(await d.sync()).toEqual([]);
    expect(ticks).toEqual([]);
    expect(d.diagnostics.filter((x) => x.kind === "gated_notification").map((x) => x.message)).toEqual(['dropped "_example.com/tick": agentCapabilities._meta.tick was not advertised by the agent']);
    const refused = await rpcError(d.conn.notify(gated, {}));
    expect(refused.code).toBe(-32601);
  });
});

describe("the initialization and auth gates of a registered extension", () => {
  it("answers -32600 before initialize, as for every table row", async () => {
    const d = rawAgent(testAgent().handler, { connection: { extensions: [echo.handle((p) => ({ text: p.text }))] } });
    d.send(request(1, "_example.com/echo", { text: "early" }));
    expect(await d.next()).toMatchObject({ id: 1, error: { code: -32600, message: "Not initialized: the first request must be initialize" } });
  });

  it("answers -32000 to an auth extension before authenticate when the agent requires authentication, and serves it after", async () => {
    const whoami = defineExtension({ wire: "_example.com/whoami", params: z.object({}), result: z.object({ user: z.string() }), auth: true });
    const open = defineExtension({ wire: "_example.com/open", params: z.object({}), result: z.object({}) });
    const d = rawAgent(testAgent().handler, { connection: { authRequired: true, extensions: [whoami.handle(() => ({ user: "ada" })), open.handle(() => ({}))] } });
    await d.initialize();
    d.send(request(1, "_example.com/whoami", {}));
    expect(await d.next()).toMatchObject({ id: 1, error: { code: -32000 } });
    d.send(request(2, "_example.com/open", {}));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    d.send(request(3, "authenticate", { methodId: "token" }));
    expect(await d.next()).toMatchObject({ id: 3, result: {} });
    d.send(request(4, "_example.com/whoami", {}));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 4, result: { user: "ada" } });
  });
});

describe("unregistered extension methods", () => {
  it("still reach extMethod and extNotification, wire names unchanged, next to registered ones", async () => {
    const agent = testAgent();
    const d = rawAgent(agent.handler, { connection: { extensions: [echo.handle((p) => ({ text: p.text })), progress.handle(() => undefined)] } });
    await d.initialize();
    d.send(request(1, "_other/thing", { a: 1 }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { method: "_other/thing", params: { a: 1 } } });
    d.send(notification("_other/note", {}));
    d.send(request(2, "_example.com/echo", { text: "registered" }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 2, result: { text: "registered" } });
    expect(agent.calls).toEqual(["initialize", "extMethod:_other/thing", "extNotification:_other/note"]);
  });

  it("answer -32601 when the registered name differs only by kind (a notification definition does not serve requests)", async () => {
    const { extMethod, ...withoutExtMethod } = testAgent().handler;
    void extMethod;
    const d = rawAgent(withoutExtMethod, { connection: { extensions: [progress.handle(() => undefined)] } });
    await d.initialize();
    d.send(request(1, "_example.com/progress", { sessionId: "s", percent: 1 }));
    expect(await d.next()).toMatchObject({ id: 1, error: { code: -32601, data: { method: "_example.com/progress" } } });
  });
});

describe("registering extensions", () => {
  const transport = () => memoryPair()[0];

  it("refuses a wire registered twice for the same kind", () => {
    const twice = [echo.handle((p) => ({ text: p.text })), echo.handle(() => ({ text: "" }))];
    expect(() => connectAgent(testAgent().handler, transport(), { extensions: twice })).toThrow('extension request "_example.com/echo" is registered twice');
  });

  it("refuses a wire the method table already routes (a table with its own _ row)", () => {
    const withRow: Protocol = { ...protocol, inboundRow: (side, kind, wire) => protocol.inboundRow(side, kind, wire === "_x" ? "session/new" : wire) } as Protocol;
    const clash = defineExtension({ wire: "_x", params: z.object({}), result: z.object({}) });
    expect(() => openConnection(withRow, "agent", {}, transport(), { extensions: [clash.handle(() => ({}))] })).toThrow('extension request "_x" is already a row of the method table');
  });

  it("refuses definitions whose wire lacks the _ prefix or whose validator is neither a schema nor a guard", () => {
    expect(() => defineExtension({ wire: "echo" as `_${string}`, params: z.object({}) })).toThrow('extension wire "echo" must start with "_" (it is sent exactly as given)');
    expect(() => defineExtension({ wire: "_echo", params: {} as never })).toThrow('params of "_echo" must be a Standard Schema (zod, valibot, arktype, …) or a type guard');
  });
});
