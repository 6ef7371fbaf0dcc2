// Issue 49 item 5: `acp-router mock-agent` ends the ways a client's supervision must handle — it
// dies mid-turn (#die), goes silent (#silent), ignores SIGTERM (#ignore-term), lingers after its
// stdin closes (#linger) and starts a stubborn grandchild (#grandchild), as prompt directives and
// as a scenario's "process" list — and a client on acp-router handles each: the prompt settles
// naming the cause, and nothing of the agent's tree is left.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type ConnectionClosedError, UnresponsiveError, connectClient } from "../../src/index.ts";
import { AgentExitedError, spawnAgent, type SpawnAgentOptions } from "../../src/transport/stdio.ts";
import { params, testClient } from "../support/handlers.ts";
import { allGone, groupGone } from "../support/process-group.ts";
import { tempDir } from "../support/temp.ts";
import { acpRouter, repoRoot } from "./support.ts";

async function mockSession(args: readonly string[], options: SpawnAgentOptions = {}) {
  const [file, ...rest] = acpRouter("mock-agent", "--protocol", "1", ...args) as [string, ...string[]];
  const agent = spawnAgent(file, rest, { cwd: repoRoot, stderr: "capture", ...options });
  const texts: string[] = [];
  const conn = connectClient(testClient({ sessionUpdate: (n) => void (n.update.sessionUpdate === "agent_message_chunk" && n.update.content.type === "text" && texts.push(n.update.content.text)) }).handler, agent.transport);
  await conn.agent.initialize(params.initialize());
  const { sessionId } = await conn.agent.newSession(params.newSession());
  return { agent, conn, sessionId, texts };
}

const grandchildPid = (texts: readonly string[]) => Number(/grandchild \(pid (\d+)\)/.exec(texts.join(""))?.[1]);

describe("mock-agent's lifetime directives, against a client on acp-router", () => {
  it("#die 7: the prompt rejects naming exit code 7 with the agent's stderr line", async () => {
    const { agent, conn, sessionId } = await mockSession([]);
    const error = await conn.agent.prompt(params.prompt(sessionId, "#die 7")).catch((e: unknown) => e);
    const cause = (error as ConnectionClosedError).cause as AgentExitedError;
    expect(cause).toBeInstanceOf(AgentExitedError);
    expect(cause.exitCode).toBe(7);
    expect(cause.stderrTail).toContain("[mock-agent] #die: exiting with code 7 mid-turn");
    expect(await agent.exited).toStrictEqual({ code: 7, signal: null });
    // The process table: nothing of the agent's group (its pid is the group's id) is left.
    expect(await groupGone(agent.child.pid as number)).toEqual([]);
  });

  it("#silent: with a watchdog, the prompt rejects as unresponsive and the agent still answers the next call", async () => {
    const { agent, conn, sessionId } = await mockSession([], { watchdog: { silenceMs: 500 } });
    const error = await conn.agent.prompt(params.prompt(sessionId, "#silent")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnresponsiveError);
    expect((await conn.agent.newSession(params.newSession())).sessionId).toEqual(expect.any(String) as string);
    conn.close();
    expect(await agent.exited).toStrictEqual({ code: 0, signal: null });
    // The process table: nothing of the agent's group (its pid is the group's id) is left.
    expect(await groupGone(agent.child.pid as number)).toEqual([]);
  });

  it("#ignore-term, #linger, #grandchild: closing the client ends the agent with SIGKILL after the grace period, and its grandchild", async () => {
    const { agent, conn, sessionId, texts } = await mockSession([], { graceMs: 200, termMs: 300 });
    expect(await conn.agent.prompt(params.prompt(sessionId, "#ignore-term\n#linger\n#grandchild"))).toEqual({ stopReason: "end_turn" });
    expect(texts.join("")).toMatch(/ignoring SIGTERM from now on[\s\S]*lingering after stdin closes from now on[\s\S]*started a grandchild \(pid \d+\) that ignores SIGTERM and SIGHUP/);
    const grandchild = grandchildPid(texts);
    conn.close();
    expect(await agent.exited).toStrictEqual({ code: null, signal: "SIGKILL", lingered: true, note: "did not exit within 200 ms of stdin closing; killed" });
    expect(await allGone([agent.child.pid as number, grandchild])).toEqual([]);
  });

  it('a scenario\'s "process" list turns the same on at start', async () => {
    const file = join(tempDir("acp-mock-lifetime-"), "scenario.json");
    writeFileSync(file, JSON.stringify({ process: ["ignore-term", "linger", "grandchild"], turns: ["hello"] }));
    const { agent, conn } = await mockSession(["--script", file], { graceMs: 200, termMs: 300 });
    const grandchild = Number(/started a stubborn grandchild \(pid (\d+)\)/.exec(agent.stderrTail())?.[1]);
    expect(grandchild).toBeGreaterThan(0);
    conn.close();
    expect(await agent.exited).toMatchObject({ signal: "SIGKILL", lingered: true });
    expect(await allGone([agent.child.pid as number, grandchild])).toEqual([]);
  });
});
