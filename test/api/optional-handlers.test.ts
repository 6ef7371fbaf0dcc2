// Optional handler methods answer -32601 when absent; a capability advertised without its
// handler method is a `missing_handler` diagnostic at initialize, on either side.
import { describe, expect, it } from "vitest";
import type { AgentHandler, ClientHandler, Diagnostic, InitializeResponse } from "../../src/index.ts";
import { connectPair, initializedPair } from "../support/pair.ts";
import { params } from "../support/handlers.ts";
import { rpcError } from "../support/messages.ts";

/** An agent with only the methods the table does not mark optional. */
function minimalAgent(init: InitializeResponse = { protocolVersion: 1, agentCapabilities: {} }): AgentHandler {
  return {
    initialize: () => init,
    newSession: () => ({ sessionId: "s-1" }),
    prompt: () => ({ stopReason: "end_turn" }),
  };
}

const client: ClientHandler = { requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => undefined };

const missing = (ds: readonly Diagnostic[]) => ds.filter((d) => d.kind === "missing_handler");

describe("optional handler methods", () => {
  it("answer -32601 when the agent leaves out authenticate, setSessionMode or setSessionConfigOption", async () => {
    const { client: conn, agent } = await initializedPair(minimalAgent(), client);
    const { sessionId } = await conn.agent.newSession(params.newSession());
    const mode = await rpcError(conn.agent.setSessionMode({ sessionId, modeId: "fast" }));
    expect(mode.toJSON()).toEqual({ code: -32601, message: "Method not found", data: { method: "session/set_mode" } });
    expect((await rpcError(conn.agent.setSessionConfigOption({ sessionId, configId: "model", value: "x" }))).code).toBe(-32601);
    expect((await rpcError(conn.agent.authenticate({ methodId: "token" }))).code).toBe(-32601);
    // The connection carries on after each of them.
    expect(await conn.agent.prompt(params.prompt(sessionId))).toEqual({ stopReason: "end_turn" });
    agent.close();
  });
});

describe("a capability advertised without its handler method", () => {
  it("is one missing_handler diagnostic per gated row on the agent, at initialize, and the call answers -32601", async () => {
    const pair = await initializedPair(minimalAgent({ protocolVersion: 1, agentCapabilities: { loadSession: true, sessionCapabilities: { list: {}, close: null } } }), client);
    expect(missing(pair.diagnostics.agent)).toEqual([
      {
        kind: "missing_handler",
        message: 'agentCapabilities.loadSession is advertised but the agent handler has no loadSession: "session/load" will answer -32601',
        data: { wire: "session/load", callback: "loadSession", capability: "agentCapabilities.loadSession" },
      },
      {
        kind: "missing_handler",
        message: 'agentCapabilities.sessionCapabilities.list is advertised but the agent handler has no listSessions: "session/list" will answer -32601',
        data: { wire: "session/list", callback: "listSessions", capability: "agentCapabilities.sessionCapabilities.list" },
      },
    ]);
    const load = await rpcError(pair.client.agent.loadSession({ sessionId: "s-1", cwd: "/tmp", mcpServers: [] }));
    expect(load.code).toBe(-32601);
    pair.agent.close();
  });

  it("is no diagnostic when the handler has the method, or the capability is false or absent", async () => {
    const agent: AgentHandler = { ...minimalAgent({ protocolVersion: 1, agentCapabilities: { loadSession: true, sessionCapabilities: { list: null } } }), loadSession: () => ({}) };
    const pair = await initializedPair(agent, client);
    expect(missing(pair.diagnostics.agent)).toEqual([]);
    const other = await initializedPair(minimalAgent({ protocolVersion: 1, agentCapabilities: { loadSession: false } }), client);
    expect(missing(other.diagnostics.agent)).toEqual([]);
    pair.agent.close();
    other.agent.close();
  });

  it("is a missing_handler diagnostic on the client for each fs or terminal method it advertised but lacks", async () => {
    const withRead: ClientHandler = { ...client, readTextFile: () => ({ content: "" }) };
    const pair = connectPair(minimalAgent(), withRead);
    await pair.client.agent.initialize(params.initialize({ fs: { readTextFile: true, writeTextFile: true }, terminal: true }));
    expect(missing(pair.diagnostics.client).map((d) => (d.data as { callback: string }).callback)).toEqual(["writeTextFile", "createTerminal", "terminalOutput", "releaseTerminal", "waitForTerminalExit", "killTerminal"]);
    expect(missing(pair.diagnostics.client)[0]?.message).toBe('clientCapabilities.fs.writeTextFile is advertised but the client handler has no writeTextFile: "fs/write_text_file" will answer -32601');
    expect(missing(pair.diagnostics.agent)).toEqual([]);
    pair.client.close();
  });
});
