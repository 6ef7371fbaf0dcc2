// DESIGN §4.6–§4.9 and §5: the init, capability and auth gates (in that order), leniency, and the outbound gate.
import { describe, expect, it } from "vitest";
import { RpcError } from "../../src/index.ts";
import type { InitializeRequest } from "../../src/index.ts";
import { params, testAgent, testClient } from "../support/handlers.ts";
import { connectPair, initializedPair } from "../support/pair.ts";
import { request, rpcError } from "../support/messages.ts";
import { initializedRawClient, rawAgent, rawClient } from "../support/raw-peer.ts";

describe("gate order on the agent", () => {
  it("answers -32601 naming agentCapabilities.loadSession, not -32602, to session/load with invalid params when loadSession was not advertised", async () => {
    const agent = testAgent({ loadSession: () => ({}) });
    const d = rawAgent(agent.handler);
    await d.initialize();
    d.send(request(1, "session/load", { sessionId: 7 }));
    const answer = await d.next();
    expect(answer).toMatchObject({ id: 1, error: { code: -32601, data: { method: "session/load" } } });
    expect((answer.error?.data as { reason: string }).reason).toContain("agentCapabilities.loadSession");
    expect(agent.calls).toEqual(["initialize"]);
  });

  it("answers -32602 to the same invalid params once loadSession is advertised, and serves valid ones", async () => {
    const agent = testAgent({ loadSession: () => ({}) }, { protocolVersion: 1, agentCapabilities: { loadSession: true } });
    const d = rawAgent(agent.handler);
    await d.initialize();
    d.send(request(1, "session/load", { sessionId: 7 }));
    expect(await d.next()).toMatchObject({ id: 1, error: { code: -32602, message: "Invalid params" } });
    d.send(request(2, "session/load", { sessionId: "s", cwd: "/", mcpServers: [] }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(agent.calls).toEqual(["initialize", "loadSession"]);
  });

  it("treats loadSession: false as not advertised", async () => {
    const agent = testAgent({ loadSession: () => ({}) }, { protocolVersion: 1, agentCapabilities: { loadSession: false } });
    const d = rawAgent(agent.handler);
    await d.initialize();
    d.send(request(1, "session/load", { sessionId: "s", cwd: "/", mcpServers: [] }));
    expect(await d.next()).toMatchObject({ id: 1, error: { code: -32601 } });
  });

  it("answers -32600 to requests before initialize and serves them after it", async () => {
    const agent = testAgent();
    const { client } = connectPair(agent.handler, testClient().handler);
    const early = await rpcError(client.agent.newSession(params.newSession()));
    expect(early.code).toBe(-32600);
    await client.agent.initialize(params.initialize());
    expect(await client.agent.newSession(params.newSession())).toEqual({ sessionId: "sess-1" });
    expect(agent.calls).toEqual(["initialize", "newSession"]);
  });

  it("keeps the gate closed when initialize failed", async () => {
    const agent = testAgent({
      initialize: () => {
        throw new RpcError(-32602, "unsupported version");
      },
    });
    const d = rawAgent(agent.handler);
    d.send(request(1, "initialize", params.initialize()));
    expect(await d.next()).toMatchObject({ id: 1, error: { code: -32602, message: "unsupported version" } });
    d.send(request(2, "session/new", params.newSession()));
    expect(await d.next()).toMatchObject({ id: 2, error: { code: -32600 } });
  });

  describe("with authRequired: true", () => {
    it("answers -32000 to session/new and session/prompt before authenticate, and serves session/new after it", async () => {
      const agent = testAgent();
      const pair = connectPair(agent.handler, testClient().handler, { agent: { authRequired: true } });
      const { client } = pair;
      await client.agent.initialize(params.initialize());
      expect((await rpcError(client.agent.newSession(params.newSession()))).code).toBe(-32000);
      expect((await rpcError(client.agent.prompt(params.prompt("s")))).code).toBe(-32000);
      expect(await client.agent.authenticate({ methodId: "token" })).toEqual({});
      expect(await client.agent.newSession(params.newSession())).toEqual({ sessionId: "sess-1" });
      expect(agent.calls).toEqual(["initialize", "authenticate", "newSession"]);
    });

    it("stays locked when authenticate fails", async () => {
      const agent = testAgent({
        authenticate: () => {
          throw RpcError.authRequired("bad token");
        },
      });
      const { client } = connectPair(agent.handler, testClient().handler, { agent: { authRequired: true } });
      await client.agent.initialize(params.initialize());
      expect((await rpcError(client.agent.authenticate({ methodId: "token" }))).message).toBe("bad token");
      expect((await rpcError(client.agent.newSession(params.newSession()))).code).toBe(-32000);
    });

    it("checks the capability gate before the auth gate", async () => {
      const d = rawAgent(testAgent().handler, { connection: { authRequired: true } });
      await d.initialize();
      d.send(request(1, "session/list", {}));
      expect(await d.next()).toMatchObject({ id: 1, error: { code: -32601 } });
    });
  });
});

describe("leniency of initialize params", () => {
  const garbage = { protocolVersion: 1, clientCapabilities: { fs: "garbage" } } as unknown as InitializeRequest;

  it('repairs clientCapabilities.fs "garbage" by default and reports a "repaired" diagnostic', async () => {
    let seen: unknown;
    const agent = testAgent({
      initialize: (p) => {
        seen = p.clientCapabilities;
        return { protocolVersion: 1, agentCapabilities: {} };
      },
    });
    const d = rawAgent(agent.handler);
    d.send(request(1, "initialize", garbage));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { protocolVersion: 1, agentCapabilities: {} } });
    expect(seen).toEqual({ fs: { readTextFile: false, writeTextFile: false } });
    expect(d.diagnostics.map((x) => x.kind)).toEqual(["repaired"]);
    expect(JSON.stringify(d.diagnostics[0]?.data)).toContain("/clientCapabilities/fs");
  });

  it('rejects it with -32602 naming /clientCapabilities/fs under leniency: "strict"', async () => {
    const agent = testAgent();
    const d = rawAgent(agent.handler, { connection: { leniency: "strict" } });
    d.send(request(1, "initialize", garbage));
    const answer = await d.next();
    expect(answer).toMatchObject({ id: 1, error: { code: -32602, message: "Invalid params" } });
    expect((answer.error?.data as { errors: { path: string }[] }).errors.map((e) => e.path)).toContain("/clientCapabilities/fs");
    expect(agent.calls).toEqual([]);
  });
});

describe("the outbound capability gate", () => {
  it("rejects fs/read_text_file locally with -32601 when the client did not advertise it, writing nothing", async () => {
    const d = rawAgent(testAgent().handler);
    await d.initialize(params.initialize({}));
    const before = d.text;
    const error = await rpcError(d.conn.client.readTextFile({ sessionId: "s", path: "/etc/hosts" }));
    expect(error.code).toBe(-32601);
    expect(JSON.stringify(error.data)).toContain("clientCapabilities.fs.readTextFile");
    expect((await rpcError(d.conn.client.createTerminal({ sessionId: "s", command: "ls" }))).code).toBe(-32601);
    expect(await d.sync()).toEqual([]);
    expect(d.text.slice(before.length)).not.toContain("fs/read_text_file");
    expect(d.text.slice(before.length)).not.toContain("terminal/create");
    expect(d.conn.stats().pendingOutbound).toBe(0);
  });

  it("rejects session/load locally on a client whose agent did not advertise loadSession", async () => {
    const d = rawClient(testClient().handler);
    const init = d.conn.agent.initialize(params.initialize());
    const sent = await d.next();
    d.send({ jsonrpc: "2.0", id: sent.id, result: { protocolVersion: 1, agentCapabilities: {} } });
    await init;
    const before = d.text;
    expect(sent.method).toBe("initialize");
    const error = await rpcError(d.conn.agent.loadSession({ sessionId: "s", cwd: "/", mcpServers: [] }));
    expect(error.code).toBe(-32601);
    expect(JSON.stringify(error.data)).toContain("agentCapabilities.loadSession");
    await new Promise((r) => setTimeout(r, 5));
    expect(d.text.slice(before.length)).toBe("");
  });

  // BUG: the agent side never records the client's capabilities from the inbound initialize
  // (src/connection/core.ts afterAnswer() only sets agentCapabilities; clientCapabilities is set
  // only in request() on the client side), so every gated agent→client call (fs/*, terminal/*,
  // elicitation/*) is rejected locally even when the client advertised it, and
  // conn.clientCapabilities / ctx.clientCapabilities stay undefined on the agent.
  it("sends fs/read_text_file when the client advertised fs.readTextFile", async () => {
    const client = testClient({ readTextFile: (p) => ({ content: `contents of ${p.path}` }) });
    const { agent } = await initializedPair(testAgent().handler, client.handler, { fs: { readTextFile: true } });
    expect(await agent.client.readTextFile({ sessionId: "s", path: "/a" })).toEqual({ content: "contents of /a" });
    expect(agent.clientCapabilities).toEqual({ fs: { readTextFile: true } });
  });
});

describe("the inbound capability gate on the client", () => {
  it("answers fs/read_text_file with -32601 naming clientCapabilities.fs.readTextFile when not advertised", async () => {
    const client = testClient({ readTextFile: () => ({ content: "x" }) });
    const d = await initializedRawClient(client.handler, {});
    d.send(request("r1", "fs/read_text_file", { sessionId: "s", path: "/a" }));
    const answer = await d.next();
    expect(answer).toMatchObject({ id: "r1", error: { code: -32601 } });
    expect((answer.error?.data as { reason: string }).reason).toContain("clientCapabilities.fs.readTextFile");
    expect(client.calls).toEqual([]);
  });

  it("serves fs/read_text_file when advertised", async () => {
    const client = testClient({ readTextFile: (p) => ({ content: `read ${p.path}` }) });
    const d = await initializedRawClient(client.handler, { fs: { readTextFile: true } });
    d.send(request("r1", "fs/read_text_file", { sessionId: "s", path: "/a" }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: "r1", result: { content: "read /a" } });
  });
});
