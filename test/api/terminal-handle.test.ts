// The agent-side terminal handle drives a real client's terminals (child processes) over a memoryPair.
import { afterEach, describe, expect, it } from "vitest";
import { createTerminal, type AgentConnection, type TerminalHandle } from "../../src/index.ts";
import { createTestClient } from "../fixtures/router-client.ts";
import { initializedPair } from "../support/pair.ts";
import { testAgent } from "../support/handlers.ts";

const node = process.execPath;

async function setUp() {
  const client = createTestClient();
  const pair = await initializedPair(testAgent().handler, client.handler, { terminal: true });
  const { sessionId } = await pair.client.agent.newSession({ cwd: process.cwd(), mcpServers: [] });
  cleanups.push(() => {
    client.dispose();
    pair.client.close();
  });
  return { client, agent: pair.agent, sessionId };
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanups.splice(0)) f();
});

describe("createTerminal", () => {
  it("creates a terminal on the client and reads its output once it exited", async () => {
    const { agent, client, sessionId } = await setUp();
    const term = await createTerminal(agent.client, { sessionId, command: node, args: ["-e", "process.stdout.write('hello from the terminal')"] });
    expect(term.sessionId).toBe(sessionId);
    expect(client.terminals.has(term.id)).toBe(true);
    expect(await term.waitForExit()).toEqual({ exitCode: 0, signal: null });
    expect(await term.output()).toEqual({ output: "hello from the terminal", truncated: false, exitStatus: { exitCode: 0, signal: null } });
    await term.release();
    expect(client.terminals.has(term.id)).toBe(false);
  });

  it("kills a running command, which then exits by signal", async () => {
    const { agent, sessionId } = await setUp();
    const term = await createTerminal(agent.client, { sessionId, command: node, args: ["-e", "setInterval(() => {}, 1000)"] });
    await term.kill();
    expect(await term.waitForExit()).toEqual({ exitCode: null, signal: "SIGTERM" });
    await term.release();
  });

  it("is released when an `await using` block ends, even when the block throws", async () => {
    const { agent, client, sessionId } = await setUp();
    let id = "";
    const body = async () => {
      await using term = await createTerminal(agent.client, { sessionId, command: node, args: ["-e", ""] });
      id = term.id;
      expect(client.terminals.has(id)).toBe(true);
      throw new Error("the tool call failed");
    };
    await expect(body()).rejects.toThrow("the tool call failed");
    expect(client.terminals.has(id)).toBe(false);
    expect(client.calls.filter((c) => c === "releaseTerminal")).toEqual(["releaseTerminal"]);
  });

  it("sends terminal/release once, however often it is released or disposed", async () => {
    const { agent, client, sessionId } = await setUp();
    const term: TerminalHandle = await createTerminal(agent.client, { sessionId, command: node, args: ["-e", ""] });
    const first = term.release();
    expect(term.release()).toBe(first);
    await first;
    await term[Symbol.asyncDispose]();
    await term[Symbol.asyncDispose]();
    expect(client.calls.filter((c) => c === "releaseTerminal")).toEqual(["releaseTerminal"]);
  });

  it("rejects output, waitForExit and kill locally after release, sending nothing", async () => {
    const { agent, client, sessionId } = await setUp();
    const term = await createTerminal(agent.client, { sessionId, command: node, args: ["-e", ""] });
    await term.release();
    const before = client.calls.length;
    for (const call of [term.output(), term.waitForExit(), term.kill()]) await expect(call).rejects.toThrow(`terminal ${term.id} was released`);
    expect(client.calls.length).toBe(before);
  });

  it("fails without sending when the client did not advertise terminals", async () => {
    const client = createTestClient();
    const pair = await initializedPair(testAgent().handler, client.handler, {});
    cleanups.push(() => pair.client.close());
    const { sessionId } = await pair.client.agent.newSession({ cwd: process.cwd(), mcpServers: [] });
    const agent: AgentConnection = pair.agent;
    await expect(createTerminal(agent.client, { sessionId, command: node })).rejects.toMatchObject({ code: -32601 });
    expect(client.calls).not.toContain("createTerminal");
  });
});
