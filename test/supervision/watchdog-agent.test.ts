// Issue 49 item 3 through spawnAgent: `spawnAgent(cmd, args, { watchdog: { silenceMs } })` gives the
// connection over its transport a watchdog; a silent agent's prompt is rejected saying so, the app
// is told and chooses; "kill" ends the agent's process group. Then no process of its tree is left.
import { describe, expect, it } from "vitest";
import { ConnectionClosedError, RpcError, UnresponsiveError, connectClient, type UnresponsiveEvent, type WatchdogDecision } from "../../src/index.ts";
import { spawnAgent } from "../../src/transport/stdio.ts";
import { params, testClient } from "../support/handlers.ts";
import { allGone, groupGone } from "../support/process-group.ts";
import { stub } from "./support.ts";

async function promptOn(onPrompt: string, silenceMs: number, decide?: (e: UnresponsiveEvent) => WatchdogDecision) {
  const events: UnresponsiveEvent[] = [];
  const agent = spawnAgent(process.execPath, [stub, `--on-prompt=${onPrompt}`], { stderr: "capture", graceMs: 300, watchdog: { silenceMs, onUnresponsive: (e) => (events.push(e), decide?.(e)) } });
  const conn = connectClient(testClient().handler, agent.transport);
  await conn.agent.initialize(params.initialize());
  const { sessionId } = await conn.agent.newSession(params.newSession());
  const prompt = conn.agent.prompt(params.prompt(sessionId)).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  return { agent, conn, events, prompt };
}

describe("spawnAgent's watchdog", () => {
  it("rejects the prompt of an agent gone silent mid-turn with UnresponsiveError, and the connection still serves", async () => {
    const { agent, conn, events, prompt } = await promptOn("silent", 500);
    const { error } = (await prompt) as { error: unknown };
    expect(error).toBeInstanceOf(UnresponsiveError);
    expect(error).toMatchObject({ cause: "unresponsive", method: "session/prompt", silenceMs: 500 });
    expect(events.map((e) => e.requests.map((r) => r.method))).toEqual([["session/prompt"]]);
    // The agent is alive and reading: it answers the next call (here: method not found).
    const next = await conn.request("_ping", {}).catch((e: unknown) => e);
    expect(next).toBeInstanceOf(RpcError);
    expect((next as RpcError).code).toBe(-32601);
    conn.close();
    expect(await agent.exited).toStrictEqual({ code: 0, signal: null });
    // The process table: nothing of the agent's group (its pid is the group's id) is left.
    expect(await groupGone(agent.child.pid as number)).toEqual([]);
  });

  it("kills the agent's process group when the app says kill: the prompt and the connection name the silence", async () => {
    const { agent, conn, prompt } = await promptOn("silent", 400, () => "kill");
    const { error } = (await prompt) as { error: unknown };
    expect(error).toBeInstanceOf(UnresponsiveError);
    const closed = await conn.closed;
    expect(closed.error).toBeInstanceOf(UnresponsiveError);
    await expect(conn.agent.newSession(params.newSession())).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(await agent.exited).toStrictEqual({ code: null, signal: "SIGTERM" });
    // The process table: nothing of the agent's group (its pid is the group's id) is left.
    expect(await groupGone(agent.child.pid as number)).toEqual([]);
  });

  it("lets a slow agent that sends an update every 100 ms finish its turn", async () => {
    const { agent, conn, events, prompt } = await promptOn("slow-updates=100", 1000);
    expect(await prompt).toEqual({ value: { stopReason: "end_turn" } });
    expect(events).toEqual([]);
    conn.close();
    await agent.exited;
    // The process table: nothing of the agent's group (its pid is the group's id) is left.
    expect(await groupGone(agent.child.pid as number)).toEqual([]);
  });

  it("lets the agent wait on the client's permission answer longer than silenceMs", async () => {
    const events: UnresponsiveEvent[] = [];
    const agent = spawnAgent(process.execPath, [stub, "--on-prompt=ask-permission"], { stderr: "capture", watchdog: { silenceMs: 300, onUnresponsive: (e) => void events.push(e) } });
    const conn = connectClient(testClient({ requestPermission: () => new Promise((resolve) => setTimeout(() => resolve({ outcome: { outcome: "selected", optionId: "ok" } }), 1000)) }).handler, agent.transport);
    await conn.agent.initialize(params.initialize());
    const { sessionId } = await conn.agent.newSession(params.newSession());
    expect(await conn.agent.prompt(params.prompt(sessionId))).toEqual({ stopReason: "end_turn" });
    expect(events).toEqual([]);
    conn.close();
    await agent.exited;
    // The process table: nothing of the agent's group (its pid is the group's id) is left.
    expect(await groupGone(agent.child.pid as number)).toEqual([]);
  });

  it("judges an agent from its first message on: a slow start is not silence", async () => {
    const events: UnresponsiveEvent[] = [];
    const agent = spawnAgent("sh", ["-c", `sleep 0.4; exec "${process.execPath}" "${stub}"`], { stderr: "capture", watchdog: { silenceMs: 100, onUnresponsive: (e) => void events.push(e) } });
    const conn = connectClient(testClient().handler, agent.transport);
    expect(await conn.agent.initialize(params.initialize())).toMatchObject({ protocolVersion: 1 });
    expect(events).toEqual([]);
    conn.close();
    await agent.exited;
    // The process table: nothing of the agent's group (its pid is the group's id) is left.
    expect(await groupGone(agent.child.pid as number)).toEqual([]);
  });

  it("refuses a watchdog without silenceMs at the call", () => {
    expect(() => spawnAgent(process.execPath, [stub], { watchdog: { silenceMs: -1 } })).toThrow(/^spawnAgent\(command, args\?, options\?\): watchdog.silenceMs must be a number of milliseconds/);
  });
});
