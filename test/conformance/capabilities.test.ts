// Conformance: capability checks before calling a gated method (session-setup.mdx, session-list.mdx,
// session-delete.mdx, authentication.mdx, file-system.mdx, terminals.mdx). Each "MUST check" id is
// bound to a test that the call goes out once advertised and is refused locally otherwise; each
// "MUST NOT call" id to a test that nothing is written and that the peer's own gate answers -32601.
import { describe, expect, it } from "vitest";
import type { AgentCapabilities, ClientCapabilities, ClientConnection, AgentConnection } from "../../src/index.ts";
import { params, testAgent, testClient } from "../support/handlers.ts";
import { initializedRawClient, rawAgent, type RawDriver } from "../support/raw-peer.ts";
import { agentGated, allAgentMethods, allClientMethods, clientGated, request, rpcError, type AgentGatedWire, type ClientGatedWire } from "./support.ts";

/** The client-side call for a gated agent method. */
function callAgent(conn: ClientConnection, wire: AgentGatedWire): Promise<unknown> {
  return conn.request(wire, agentGated[wire].params as never);
}

/** The agent-side call for a gated client method. */
function callClient(conn: AgentConnection, wire: ClientGatedWire): Promise<unknown> {
  return conn.request(wire, clientGated[wire].params as never);
}

/**
 * The client refuses `wire` locally when the agent advertised `without`:
 * RpcError -32601 whose reason names the capability, and nothing written.
 */
async function clientRefuses(wire: AgentGatedWire, without: AgentCapabilities): Promise<void> {
  const d = await initializedRawClient(testClient().handler, {}, without);
  const error = await rpcError(callAgent(d.conn, wire));
  expect(error.code).toBe(-32601);
  expect(error.data).toEqual({ method: wire, reason: `agentCapabilities.${agentGated[wire].capability} was not advertised by the agent; not sent` });
  expect(await d.sync()).toEqual([]);
}

/** The client sends `wire` once the agent advertised `withCaps`, and resolves with the answer. */
async function clientSends(wire: AgentGatedWire, withCaps: AgentCapabilities, result: unknown): Promise<void> {
  const d = await initializedRawClient(testClient().handler, {}, withCaps);
  const call = callAgent(d.conn, wire);
  const sent = await d.next();
  expect(sent).toEqual({ jsonrpc: "2.0", id: 1, method: wire, params: agentGated[wire].params });
  d.send({ jsonrpc: "2.0", id: sent.id, result });
  expect(await call).toEqual(result);
}

/** An agent that did not advertise `wire`'s capability answers it -32601 before decoding (even with invalid params). */
async function agentAnswersNotFound(wire: AgentGatedWire, caps: AgentCapabilities): Promise<void> {
  const agent = testAgent(allAgentMethods, { protocolVersion: 1, agentCapabilities: caps });
  const d = rawAgent(agent.handler);
  await d.initialize();
  d.send(request(1, wire, agentGated[wire].params));
  d.send(request(2, wire, { sessionId: 42, cwd: false }));
  for (const id of [1, 2]) {
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found", data: { method: wire, reason: `agentCapabilities.${agentGated[wire].capability} was not advertised by the agent` } } });
  }
  expect(agent.calls).toEqual(["initialize"]);
}

/** The agent refuses `wire` locally when the client advertised `caps`; nothing is written. */
async function agentRefuses(d: RawDriver<AgentConnection>, wire: ClientGatedWire): Promise<void> {
  const error = await rpcError(callClient(d.conn, wire));
  expect(error.code).toBe(-32601);
  expect(error.data).toEqual({ method: wire, reason: `clientCapabilities.${clientGated[wire].capability} was not advertised by the client; not sent` });
  expect(await d.sync()).toEqual([]);
}

/** A client that did not advertise `wire`'s capability answers it -32601 before decoding. */
async function clientAnswersNotFound(wire: ClientGatedWire, caps: ClientCapabilities): Promise<void> {
  const client = testClient(allClientMethods);
  const d = await initializedRawClient(client.handler, caps);
  d.send(request(1, wire, clientGated[wire].params));
  d.send(request(2, wire, { sessionId: 42 }));
  for (const id of [1, 2]) {
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found", data: { method: wire, reason: `clientCapabilities.${clientGated[wire].capability} was not advertised by the client` } } });
  }
  expect(client.calls).toEqual([]);
}

describe("session/load", () => {
  it("[ACP-AGENTCAP-102] is sent only after the agent's initialize result advertised loadSession", async () => {
    await clientSends("session/load", { loadSession: true }, {});
    await clientRefuses("session/load", {});
  });

  it("[ACP-AGENTCAP-103] is never written when loadSession is false or absent, and an agent that did not advertise it answers -32601", async () => {
    await clientRefuses("session/load", { loadSession: false });
    await clientRefuses("session/load", {});
    await agentAnswersNotFound("session/load", { loadSession: false });
  });
});

describe("session/resume", () => {
  it("[ACP-AGENTCAP-104] is sent only after the agent advertised sessionCapabilities.resume", async () => {
    await clientSends("session/resume", { sessionCapabilities: { resume: {} } }, {});
    await clientRefuses("session/resume", { sessionCapabilities: {} });
  });

  it("[ACP-AGENTCAP-105] is never written when sessionCapabilities.resume is absent, and an agent that did not advertise it answers -32601", async () => {
    await clientRefuses("session/resume", {});
    await clientRefuses("session/resume", { sessionCapabilities: { resume: null } });
    await agentAnswersNotFound("session/resume", { sessionCapabilities: {} });
  });
});

describe("session/close", () => {
  it("[ACP-AGENTCAP-106] is sent only after the agent advertised sessionCapabilities.close", async () => {
    await clientSends("session/close", { sessionCapabilities: { close: {} } }, {});
    await clientRefuses("session/close", { sessionCapabilities: {} });
  });

  it("[ACP-AGENTCAP-107] is never written when sessionCapabilities.close is absent, and an agent that did not advertise it answers -32601", async () => {
    await clientRefuses("session/close", {});
    await clientRefuses("session/close", { sessionCapabilities: { close: null } });
    await agentAnswersNotFound("session/close", {});
  });
});

describe("session/list", () => {
  it("[ACP-AGENTCAP-110] is sent only after the agent advertised sessionCapabilities.list", async () => {
    await clientSends("session/list", { sessionCapabilities: { list: {} } }, { sessions: [] });
    await clientRefuses("session/list", { sessionCapabilities: {} });
  });

  it("[ACP-AGENTCAP-111] is never written when sessionCapabilities.list is absent, and an agent that did not advertise it answers -32601", async () => {
    await clientRefuses("session/list", {});
    await agentAnswersNotFound("session/list", { sessionCapabilities: {} });
  });

  it("[ACP-LIST-101] is answered -32600 before initialize, even by an agent that will advertise it", async () => {
    const agent = testAgent(allAgentMethods, { protocolVersion: 1, agentCapabilities: { sessionCapabilities: { list: {} } } });
    const d = rawAgent(agent.handler);
    d.send(request(1, "session/list", {}));
    expect(await d.next()).toMatchObject({ id: 1, error: { code: -32600 } });
    await d.initialize();
    d.send(request(2, "session/list", {}));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 2, result: { sessions: [] } });
    expect(agent.calls).toEqual(["initialize", "listSessions"]);
  });
});

describe("session/delete", () => {
  it("[ACP-AGENTCAP-112] is sent only after the agent advertised sessionCapabilities.delete", async () => {
    await clientSends("session/delete", { sessionCapabilities: { delete: {} } }, {});
    await clientRefuses("session/delete", { sessionCapabilities: {} });
  });

  it("[ACP-AGENTCAP-113] is never written when sessionCapabilities.delete is omitted or null, is sent for {}, and an agent that did not advertise it answers -32601", async () => {
    await clientRefuses("session/delete", { sessionCapabilities: {} });
    await clientRefuses("session/delete", { sessionCapabilities: { delete: null } });
    await clientSends("session/delete", { sessionCapabilities: { delete: {} } }, {});
    await agentAnswersNotFound("session/delete", { sessionCapabilities: { delete: null } });
  });

  it("[ACP-DELETE-101] is answered -32600 before initialize, and refused locally after it unless delete was advertised", async () => {
    const agent = testAgent(allAgentMethods, { protocolVersion: 1, agentCapabilities: { sessionCapabilities: { delete: {} } } });
    const d = rawAgent(agent.handler);
    d.send(request(1, "session/delete", { sessionId: "s" }));
    expect(await d.next()).toMatchObject({ id: 1, error: { code: -32600 } });
    expect(agent.calls).toEqual([]);
    await clientRefuses("session/delete", {});
  });
});

describe("logout", () => {
  it("[ACP-AGENTCAP-114] is never written when auth.logout is omitted or null, is sent when advertised, and an agent that did not advertise it answers -32601", async () => {
    await clientRefuses("logout", {});
    await clientRefuses("logout", { auth: {} });
    await clientRefuses("logout", { auth: { logout: null } });
    await clientSends("logout", { auth: { logout: {} } }, {});
    await agentAnswersNotFound("logout", { auth: {} });
  });
});

describe("fs/* from the agent", () => {
  it("[ACP-FS-101] sends fs/read_text_file and fs/write_text_file only when the client advertised them, and shows the handler the client's capabilities", async () => {
    const seen: unknown[] = [];
    const d = rawAgent(testAgent({ newSession: (_p, ctx) => (seen.push(ctx.clientCapabilities), { sessionId: "s" }) }).handler);
    const caps = { fs: { readTextFile: true, writeTextFile: false } };
    await d.initialize(params.initialize(caps));
    d.send(request(1, "session/new", params.newSession()));
    await d.next();
    expect(seen).toEqual([caps]);
    const read = callClient(d.conn, "fs/read_text_file");
    const sent = await d.next();
    expect(sent).toMatchObject({ method: "fs/read_text_file", params: clientGated["fs/read_text_file"].params });
    d.send({ jsonrpc: "2.0", id: sent.id, result: { content: "text" } });
    expect(await read).toEqual({ content: "text" });
    await agentRefuses(d, "fs/write_text_file");
  });

  it("[ACP-CLIENTCAP-001] never writes an fs method whose capability is false or absent, and a client that did not advertise it answers -32601", async () => {
    for (const caps of [{}, { fs: {} }, { fs: { readTextFile: false, writeTextFile: false } }]) {
      const d = rawAgent(testAgent().handler);
      await d.initialize(params.initialize(caps));
      await agentRefuses(d, "fs/read_text_file");
      await agentRefuses(d, "fs/write_text_file");
    }
    await clientAnswersNotFound("fs/read_text_file", { fs: { readTextFile: false, writeTextFile: true } });
    await clientAnswersNotFound("fs/write_text_file", { fs: { readTextFile: true } });
  });
});

describe("terminal/* from the agent", () => {
  const terminalWires: ClientGatedWire[] = ["terminal/create", "terminal/output", "terminal/release", "terminal/wait_for_exit", "terminal/kill"];

  it("[ACP-TERM-101] sends every terminal method once the client advertised terminal, and refuses them otherwise", async () => {
    const on = rawAgent(testAgent().handler);
    await on.initialize(params.initialize({ terminal: true }));
    for (const wire of terminalWires) {
      const call = callClient(on.conn, wire);
      const sent = await on.next();
      expect(sent).toMatchObject({ method: wire, params: clientGated[wire].params });
      const result = wire === "terminal/create" ? { terminalId: "t" } : wire === "terminal/output" ? { output: "", truncated: false } : {};
      on.send({ jsonrpc: "2.0", id: sent.id, result });
      expect(await call).toEqual(result);
    }
    const off = rawAgent(testAgent().handler);
    await off.initialize(params.initialize({}));
    await agentRefuses(off, "terminal/create");
  });

  it("[ACP-CLIENTCAP-002] never writes any terminal method when terminal is false or absent, and a client that did not advertise it answers -32601 to each", async () => {
    for (const caps of [{}, { terminal: false }]) {
      const d = rawAgent(testAgent().handler);
      await d.initialize(params.initialize(caps));
      for (const wire of terminalWires) await agentRefuses(d, wire);
    }
    for (const wire of terminalWires) await clientAnswersNotFound(wire, { terminal: false });
  });
});
