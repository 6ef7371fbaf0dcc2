// Our agent, their client: test/fixtures/router-agent.ts (acp-router's serveStdio) runs as a real
// subprocess and is driven by the official SDK client (@agentclientprotocol/sdk 2.4.0) over pipes.
// The SDK client validates everything it receives with its own zod schemas; every describe ends by
// checking that it rejected nothing we sent.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as acp from "@agentclientprotocol/sdk";
import type { AnyMessage, ClientCapabilities } from "@agentclientprotocol/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The SDK's own zod schemas (not in its package exports, so imported by path): the SDK does not
// validate responses, so the final test runs every response we sent through them itself.
import * as sdkZod from "../../node_modules/@agentclientprotocol/sdk/dist/v1/schema/zod.gen.js";
import { startSdkClient, type SdkClient } from "../peers/sdk-client.ts";
import { until } from "../support/async.ts";
import { onSdkDropIn } from "../support/sdk-drop-in.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const agentPath = fileURLToPath(new URL("../fixtures/router-agent.ts", import.meta.url));
const schemaPath = fileURLToPath(new URL("../../node_modules/@agentclientprotocol/sdk/schema/v1/schema.json", import.meta.url));

/** Every `sessionUpdate` tag of the pinned schema, in schema order. */
const schemaUpdateKinds: string[] = (JSON.parse(readFileSync(schemaPath, "utf8")) as { $defs: { SessionUpdate: { oneOf: Array<{ properties: { sessionUpdate: { const: string } } }> } } }).$defs.SessionUpdate.oneOf.map((v) => v.properties.sessionUpdate.const);

const fullCapabilities: ClientCapabilities = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
  // The schema: agents send `notice` / `compaction_*` updates only to clients advertising these.
  session: { notices: {}, compaction: {} },
};

/** The wire id of the last request the SDK client sent with `method`. */
const lastRequestId = (c: SdkClient, method: string): unknown => c.outbound.flatMap((m) => ("method" in m && m.method === method && "id" in m ? [m.id] : [])).at(-1);
/** Index in the inbound wire log of the response to `id`. */
const responseIndex = (c: SdkClient, id: unknown): number => c.inbound.findIndex((m) => !("method" in m) && "id" in m && m.id === id);
const isUpdateFor = (m: AnyMessage, sessionId: string): boolean => "method" in m && m.method === "session/update" && (m.params as { sessionId?: unknown } | undefined)?.sessionId === sessionId;
/** The SDK's zod schema for the result of each agent method. */
const resultSchemas: Record<string, { safeParse(v: unknown): { success: boolean; data?: unknown; error?: unknown } }> = {
  initialize: sdkZod.zInitializeResponse,
  authenticate: sdkZod.zAuthenticateResponse,
  logout: sdkZod.zLogoutResponse,
  "session/new": sdkZod.zNewSessionResponse,
  "session/load": sdkZod.zLoadSessionResponse,
  "session/list": sdkZod.zListSessionsResponse,
  "session/resume": sdkZod.zResumeSessionResponse,
  "session/close": sdkZod.zCloseSessionResponse,
  "session/delete": sdkZod.zDeleteSessionResponse,
  "session/set_mode": sdkZod.zSetSessionModeResponse,
  "session/set_config_option": sdkZod.zSetSessionConfigOptionResponse,
  "session/prompt": sdkZod.zPromptResponse,
};

/** Paths of `sent` that `parsed` dropped or changed (defaults zod added are fine). */
function lostPaths(sent: unknown, parsed: unknown, path: string): string[] {
  if (Array.isArray(sent)) {
    if (!Array.isArray(parsed) || parsed.length !== sent.length) return [path || "/"];
    return sent.flatMap((v, i) => lostPaths(v, parsed[i], `${path}/${i}`));
  }
  if (typeof sent === "object" && sent !== null) {
    if (typeof parsed !== "object" || parsed === null) return [path || "/"];
    const p = parsed as Record<string, unknown>;
    return Object.entries(sent).flatMap(([k, v]) => (k in p ? lostPaths(v, p[k], `${path}/${k}`) : [`${path}/${k}`]));
  }
  return Object.is(sent, parsed) ? [] : [path || "/"];
}

/**
 * Every result and session/update our agent wrote, parsed with the SDK's zod schemas: returns the
 * ones that fail, or that parsing changed (zod strips unknown keys and silently replaces invalid
 * optional fields, so "accepted" alone could hide a repair).
 */
function sdkSchemaComplaints(c: SdkClient): Array<{ method: string; issue: unknown }> {
  const methodById = new Map<unknown, string>();
  for (const m of c.outbound) if ("method" in m && "id" in m) methodById.set(m.id, m.method);
  const complaints: Array<{ method: string; issue: unknown }> = [];
  const check = (method: string, schema: (typeof resultSchemas)[string], value: unknown) => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) complaints.push({ method, issue: parsed.error });
    else {
      const changed = lostPaths(value, parsed.data, "");
      if (changed.length > 0) complaints.push({ method, issue: { changed } });
    }
  };
  for (const m of c.inbound) {
    if ("method" in m) {
      if (m.method === "session/update") check(m.method, sdkZod.zSessionNotification, m.params);
    } else if ("result" in m) {
      const method = methodById.get(m.id);
      const schema = method === undefined ? undefined : resultSchemas[method];
      if (schema) check(method as string, schema, m.result);
    }
  }
  return complaints;
}

/** A promise's rejection, for asserting JSON-RPC error codes from the SDK's RequestError. */
const rejection = (p: Promise<unknown>): Promise<{ code?: number; message?: string; data?: unknown }> =>
  p.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error as { code?: number; message?: string; data?: unknown },
  );

describe("an acp-router agent driven by the official SDK client over stdio", () => {
  let c: SdkClient;
  let init: acp.InitializeResponse;
  const cwd = repoRoot.replace(/\/$/, "");

  beforeAll(async () => {
    c = await startSdkClient(process.execPath, ["--import", "tsx", agentPath], { cwd: repoRoot, fs: { mode: "memory", files: { "/virtual/a.txt": "A" } } });
    init = await c.initialize({ protocolVersion: 65535, clientCapabilities: fullCapabilities });
  });
  afterAll(async () => {
    const exit = await c?.close();
    expect(exit?.code).toBe(0); // the agent exits on its own when stdin ends
  });

  const chunksOf = (sessionId: string) => c.chunks(sessionId);
  const newSession = async (dir = cwd) => (await c.newSession({ cwd: dir })).sessionId;

  it("answers initialize with an unsupported protocolVersion (65535) with its latest version, 1, and its capabilities", () => {
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities).toEqual({
      loadSession: true,
      promptCapabilities: { image: false, audio: false, embeddedContext: true },
      sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {} },
      auth: { logout: {} },
    });
    expect(init.authMethods).toEqual([{ id: "token", name: "Token", description: "A test token" }]);
    expect(init.agentInfo).toEqual({ name: "router-agent", version: "0.0.0" });
  });

  it("authenticates with an advertised method and rejects an unknown one with -32602", async () => {
    expect(await c.authenticate({ methodId: "token" })).toEqual({});
    const e = await rejection(c.authenticate({ methodId: "password" }));
    expect(e.code).toBe(-32602);
  });

  it("answers logout, which it advertised through auth.logout", async () => {
    expect(await c.logout()).toEqual({});
  });

  it("creates sessions with unique ids, their modes and config options", async () => {
    const first = await c.newSession({ cwd });
    const second = await c.newSession({ cwd });
    expect(first.sessionId).toMatch(/^r-sess-\d+$/);
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(first.modes?.currentModeId).toBe("ask");
    expect(first.modes?.availableModes.map((m) => m.id)).toEqual(["ask", "code"]);
    expect(first.configOptions).toEqual([
      {
        type: "select",
        id: "model",
        name: "Model",
        category: "model",
        currentValue: "fast",
        options: [
          { value: "fast", name: "Fast" },
          { value: "smart", name: "Smart" },
        ],
      },
    ]);
  });

  it("streams every SessionUpdate variant of the schema during session/prompt, all before the answer", async () => {
    const sid = await newSession();
    expect(await c.promptText(sid, "updates")).toEqual({ stopReason: "end_turn" });
    const kinds = c.updates.filter((u) => u.sessionId === sid).map((u) => u.update.sessionUpdate);
    expect(schemaUpdateKinds).toHaveLength(14);
    expect(kinds).toEqual(schemaUpdateKinds);
    // On the wire: all 14 updates precede the prompt's answer.
    const answerAt = responseIndex(c, lastRequestId(c, "session/prompt"));
    const updateIndexes = c.inbound.flatMap((m, i) => (isUpdateFor(m, sid) ? [i] : []));
    expect(updateIndexes).toHaveLength(14);
    expect(Math.max(...updateIndexes)).toBeLessThan(answerAt);
    const usage = c.updates.find((u) => u.sessionId === sid && u.update.sessionUpdate === "usage_update")?.update;
    expect(usage).toEqual({ sessionUpdate: "usage_update", used: 1200, size: 200000, cost: { amount: 0.01, currency: "USD" } });
  });

  it("switches the session mode and reports current_mode_update before answering session/set_mode", async () => {
    const sid = await newSession();
    expect(await c.setSessionMode({ sessionId: sid, modeId: "code" })).toEqual({});
    const answerAt = responseIndex(c, lastRequestId(c, "session/set_mode"));
    const updateAt = c.inbound.findIndex((m) => isUpdateFor(m, sid));
    expect(updateAt).toBeGreaterThan(-1);
    expect(updateAt).toBeLessThan(answerAt);
    expect(c.updates.filter((u) => u.sessionId === sid).map((u) => u.update)).toEqual([{ sessionUpdate: "current_mode_update", currentModeId: "code" }]);
    const e = await rejection(c.setSessionMode({ sessionId: sid, modeId: "nope" }));
    expect(e.code).toBe(-32602);
  });

  it("answers session/set_config_option with the complete option list carrying the new value", async () => {
    const sid = await newSession();
    const res = await c.setSessionConfigOption({ sessionId: sid, configId: "model", value: "smart" });
    expect(res.configOptions).toHaveLength(1);
    expect(res.configOptions[0]).toMatchObject({ id: "model", type: "select", currentValue: "smart" });
  });

  it("replays the history as session/update notifications that the SDK client saw before session/load resolved", async () => {
    const sid = await newSession();
    await c.promptText(sid, "echo first");
    await c.promptText(sid, "echo second");
    const before = c.updates.length;
    // Raw SDK request (no helper flush): snapshot what the client's handler has seen when the load resolves.
    const seenAtAnswer = await c.agent.request(acp.methods.agent.session.load, { sessionId: sid, cwd, mcpServers: [] }).then((res) => ({
      res,
      replayed: c.updates
        .slice(before)
        .filter((u) => u.sessionId === sid)
        .map((u) => u.update),
    }));
    expect(seenAtAnswer.replayed).toEqual([
      { sessionUpdate: "user_message_chunk", content: { type: "text", text: "echo first" } },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "first" } },
      { sessionUpdate: "user_message_chunk", content: { type: "text", text: "echo second" } },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "second" } },
    ]);
    expect(seenAtAnswer.res.modes?.currentModeId).toBe("ask");
    const e = await rejection(c.loadSession({ sessionId: "r-sess-unknown", cwd, mcpServers: [] }));
    expect(e.code).toBe(-32002);
  });

  it("lists sessions, filtered by cwd", async () => {
    const sid = await newSession("/tmp/acp-router-list-test");
    const all = await c.listSessions();
    expect(all.sessions.map((s) => s.sessionId)).toContain(sid);
    const filtered = await c.listSessions({ cwd: "/tmp/acp-router-list-test" });
    expect(filtered.sessions).toEqual([{ sessionId: sid, cwd: "/tmp/acp-router-list-test", title: expect.stringMatching(/^Session \d+$/), updatedAt: "1970-01-01T00:00:00.000Z" }]);
    expect((await c.listSessions({ cwd: "/nowhere" })).sessions).toEqual([]);
  });

  it("resumes a session without replaying its history", async () => {
    const sid = await newSession();
    await c.promptText(sid, "echo remember me");
    const before = c.updates.length;
    const res = await c.resumeSession({ sessionId: sid, cwd });
    expect(res.modes?.currentModeId).toBe("ask");
    expect(c.updates.slice(before)).toEqual([]);
  });

  it("ends a turn with stopReason cancelled on session/cancel, sending no update for it after the answer", async () => {
    const sid = await newSession();
    const pending = c.promptText(sid, "slow");
    await until(() => chunksOf(sid).length >= 2, "two ticks", 10_000);
    await c.cancel(sid);
    expect(await pending).toEqual({ stopReason: "cancelled" });
    const answerAt = responseIndex(c, lastRequestId(c, "session/prompt"));
    const lastUpdate = c.inbound.findLastIndex((m) => isUpdateFor(m, sid));
    expect(lastUpdate).toBeLessThan(answerAt);
    expect(chunksOf(sid).slice(0, 2)).toEqual(["tick 1", "tick 2"]);
  });

  it("ends a turn with stopReason cancelled when the SDK's cancellationSignal sends $/cancel_request", async () => {
    const sid = await newSession();
    const ac = new AbortController();
    const pending = c.promptText(sid, "slow", { cancellationSignal: ac.signal });
    await until(() => chunksOf(sid).length >= 1, "one tick", 10_000);
    ac.abort();
    expect(await pending).toEqual({ stopReason: "cancelled" });
    const id = lastRequestId(c, "session/prompt");
    expect(c.outbound.filter((m) => "method" in m && m.method === "$/cancel_request")).toEqual([{ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: id } }]);
  });

  it("cancels a running turn on session/close, then forgets the session", async () => {
    const sid = await newSession();
    const pending = c.promptText(sid, "slow");
    await until(() => chunksOf(sid).length >= 1, "one tick", 10_000);
    expect(await c.closeSession({ sessionId: sid })).toEqual({});
    expect(await pending).toEqual({ stopReason: "cancelled" });
    const e = await rejection(c.promptText(sid, "echo gone"));
    expect(e.code).toBe(-32002);
  });

  it("deletes a session, and deleting an unknown session succeeds silently", async () => {
    const sid = await newSession();
    expect(await c.deleteSession({ sessionId: sid })).toEqual({});
    expect((await c.listSessions()).sessions.map((s) => s.sessionId)).not.toContain(sid);
    expect(await c.deleteSession({ sessionId: "r-sess-never" })).toEqual({});
  });

  it("asks the SDK client for permission and reports the selected option", async () => {
    const sid = await newSession();
    c.permission = "allow";
    expect(await c.promptText(sid, "permission")).toEqual({ stopReason: "end_turn" });
    expect(chunksOf(sid).at(-1)).toBe("outcome:selected:allow");
    expect(c.permissionRequests.at(-1)?.options.map((o) => o.kind)).toEqual(["allow_once", "reject_once"]);
  });

  it("sends $/cancel_request for its pending permission request when the SDK client sends session/cancel", async () => {
    const sid = await newSession();
    let sawAbort = false;
    c.permission = (_req, signal) =>
      new Promise((resolve) =>
        signal.addEventListener("abort", () => {
          sawAbort = true;
          resolve({ outcome: "cancelled" });
        }),
      );
    const before = c.permissionRequests.length;
    const pending = c.promptText(sid, "permission");
    await until(() => c.permissionRequests.length > before, "the permission request", 10_000);
    await c.cancel(sid);
    expect(await pending).toEqual({ stopReason: "cancelled" });
    expect(sawAbort).toBe(true);
    expect(chunksOf(sid).at(-1)).toBe("outcome:cancelled");
    const permissionId = c.inbound.flatMap((m) => ("method" in m && m.method === "session/request_permission" && "id" in m ? [m.id] : [])).at(-1);
    // On the drop-in SDK the client answers its pending permission request itself when it sends
    // session/cancel (ACP prompt-turn; docs/sdk-drop-in.md), so the agent has nothing left to cancel.
    const cancels = onSdkDropIn ? [] : [{ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: permissionId } }];
    expect(c.inbound.filter((m) => "method" in m && m.method === "$/cancel_request")).toEqual(cancels);
    c.permission = "allow";
  });

  it("round-trips an extension request and receives an extension notification, method names verbatim", async () => {
    expect(await c.extMethod("_example.com/echo", { a: [1, 2], b: "x" })).toEqual({ a: [1, 2], b: "x" });
    await c.extNotification("_example.com/note", { hello: "agent" });
    expect(await c.extMethod("_example.com/notes", {})).toEqual({ notes: [{ hello: "agent" }] });
    const e = await rejection(c.extMethod("_example.com/missing", {}));
    expect(e.code).toBe(-32601);
  });

  it("lets an agent handler see the client's capabilities and call the fs/read_text_file the client advertised", async () => {
    const sid = await newSession();
    await c.promptText(sid, "caps");
    expect(JSON.parse(chunksOf(sid).at(-1) ?? "null")).toEqual(fullCapabilities);
    await c.promptText(sid, "read /virtual/a.txt");
    expect(chunksOf(sid).at(-1)).toBe("A");
    await c.promptText(sid, "read /virtual/missing.txt");
    expect(chunksOf(sid).at(-1)).toBe("error:-32002:Resource not found: /virtual/missing.txt");
  });

  it("never made the SDK client's validation reject anything: no protocol errors, no dropped updates, no -32602", () => {
    expect(c.protocolErrors()).toEqual([]);
    expect(c.droppedUpdates()).toBe(0);
    expect(c.outgoingErrors.filter((e) => e.error.code === -32602)).toEqual([]);
    expect(c.updates.length).toBeGreaterThan(20);
  });

  it("wrote only results and updates that the SDK's own zod schemas parse without dropping or changing anything", () => {
    const results = c.inbound.filter((m) => "result" in m).length;
    expect(results).toBeGreaterThan(30);
    expect(sdkSchemaComplaints(c)).toEqual([]);
  });
});

describe("an acp-router agent that requires authentication, driven by the SDK client", () => {
  let c: SdkClient;
  let init: acp.InitializeResponse;
  const cwd = repoRoot.replace(/\/$/, "");

  beforeAll(async () => {
    c = await startSdkClient(process.execPath, ["--import", "tsx", agentPath, "--auth-required"], { cwd: repoRoot });
    init = await c.initialize({ protocolVersion: 1 });
  });
  afterAll(async () => {
    await c?.close();
  });

  it("answers a supported protocolVersion (1) with that same version", () => {
    expect(init.protocolVersion).toBe(1);
  });

  it("answers session/new -32000 until authenticate succeeded, and again after logout", async () => {
    expect(await rejection(c.newSession({ cwd }))).toMatchObject({ code: -32000, message: "Authentication required" });
    expect(await c.authenticate({ methodId: "token" })).toEqual({});
    expect((await c.newSession({ cwd })).sessionId).toMatch(/^r-sess-\d+$/);
    expect(await c.logout()).toEqual({});
    expect((await rejection(c.newSession({ cwd }))).code).toBe(-32000);
  });

  it("withholds notice and compaction updates from a client that did not advertise session.notices / session.compaction", async () => {
    await c.authenticate({ methodId: "token" });
    const { sessionId } = await c.newSession({ cwd });
    await c.promptText(sessionId, "updates");
    const kinds = c.updates.filter((u) => u.sessionId === sessionId).map((u) => u.update.sessionUpdate);
    expect(kinds).toEqual(schemaUpdateKinds.filter((k) => !["notice", "compaction_update", "compaction_summary_chunk"].includes(k)));
  });

  it("never made the SDK client's validation reject anything", () => {
    expect(c.protocolErrors()).toEqual([]);
    expect(c.droppedUpdates()).toBe(0);
  });
});

describe("an acp-router agent that advertises no optional capability, driven by the SDK client (which gates nothing)", () => {
  let c: SdkClient;
  const cwd = repoRoot.replace(/\/$/, "");

  beforeAll(async () => {
    c = await startSdkClient(process.execPath, ["--import", "tsx", agentPath, "--caps=none"], { cwd: repoRoot });
    const init = await c.initialize({ protocolVersion: 1 });
    expect(init.agentCapabilities).toEqual({});
  });
  afterAll(async () => {
    await c?.close();
  });

  it("answers -32601 naming the capability for every gated method, although the fixture implements them all", async () => {
    const { sessionId } = await c.newSession({ cwd });
    const calls: Array<[string, string, Promise<unknown>]> = [
      ["logout", "auth.logout", c.logout()],
      ["session/load", "loadSession", c.loadSession({ sessionId, cwd, mcpServers: [] })],
      ["session/list", "sessionCapabilities.list", c.listSessions()],
      ["session/resume", "sessionCapabilities.resume", c.resumeSession({ sessionId, cwd })],
      ["session/close", "sessionCapabilities.close", c.closeSession({ sessionId })],
      ["session/delete", "sessionCapabilities.delete", c.deleteSession({ sessionId })],
    ];
    for (const [method, capability, call] of calls) {
      const e = await rejection(call);
      expect(e, method).toMatchObject({ code: -32601, message: "Method not found", data: { method, reason: expect.stringContaining(capability) } });
    }
    // The session was neither closed nor deleted: it still answers prompts.
    expect(await c.promptText(sessionId, "echo still here")).toEqual({ stopReason: "end_turn" });
  });

  it("never made the SDK client's validation reject anything", () => {
    expect(c.protocolErrors()).toEqual([]);
    expect(c.droppedUpdates()).toBe(0);
  });
});
