// Issue 49 item 2: every pending call answered when the agent exits, is killed, or closes its
// stdout — at once, naming the exit code or signal, carrying the agent's last stderr lines — and
// nothing left waiting afterwards (no pending call, no busy lane, no timer); then no process of the
// agent's tree is left. The scripted stub (fixtures/stub.mjs) does each thing mid-turn.
import { describe, expect, it } from "vitest";
import { ConnectionClosedError, connectClient, type SessionNotification } from "../../src/index.ts";
import { AgentExitedError, AgentOutputClosedError, spawnAgent, type SpawnAgentOptions } from "../../src/transport/stdio.ts";
import { chunkText, params, testClient } from "../support/handlers.ts";
import { allGone, groupGone, stillRunning } from "../support/process-group.ts";
import { pidfile, pidsWritten, stub } from "./support.ts";

const idle = { pendingOutbound: 0, inFlightInbound: 0, busyLanes: 0, timers: 0, abortListeners: 0 };

/** A client on the stub with `flags`; its prompt starts a turn the stub ends as the flags say. */
async function turnOn(flags: readonly string[], options: SpawnAgentOptions = {}) {
  const file = pidfile();
  const agent = spawnAgent(process.execPath, [stub, `--pidfile=${file}`, ...flags], { stderr: "capture", ...options });
  const updates: SessionNotification[] = [];
  const conn = connectClient(testClient({ sessionUpdate: (n) => void updates.push(n) }).handler, agent.transport);
  await conn.agent.initialize(params.initialize());
  const { sessionId } = await conn.agent.newSession(params.newSession());
  const prompt = conn.agent.prompt(params.prompt(sessionId)).catch((e: unknown) => e);
  const other = conn.request("_pending", {}).catch((e: unknown) => e);
  return { agent, conn, updates, prompt, other, file };
}

describe("an agent that ends mid-turn", () => {
  it("exits: every pending call rejects naming the exit code, with the stderr tail; the update it sent first was delivered", async () => {
    const { agent, conn, updates, prompt, other, file } = await turnOn(["--on-prompt=die", "--stderr-lines=3"]);
    const error = await prompt;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    const cause = (error as ConnectionClosedError).cause as AgentExitedError;
    expect(cause).toBeInstanceOf(AgentExitedError);
    expect({ exitCode: cause.exitCode, signalName: cause.signalName, stderrTail: cause.stderrTail }).toEqual({ exitCode: 3, signalName: null, stderrTail: "stub stderr line 1\nstub stderr line 2\nstub stderr line 3" });
    expect((error as Error).message).toBe("connection closed: agent process exited with code 3; last stderr lines:\nstub stderr line 1\nstub stderr line 2\nstub stderr line 3");
    // The other call pending at that moment got the same answer.
    expect(((await other) as ConnectionClosedError).cause).toBe(cause);
    expect(updates.map(chunkText)).toEqual(["working"]);
    expect(conn.stats()).toEqual(idle);
    expect((await conn.closed).error).toBe(cause);
    expect(await agent.exited).toStrictEqual({ code: 3, signal: null });
    expect(await allGone(await pidsWritten(file, 1))).toEqual([]);
  });

  it("is killed by a signal: the calls reject naming the signal", async () => {
    const { agent, prompt, other } = await turnOn(["--on-prompt=die-by-signal", "--stderr-lines=1"]);
    const cause = ((await prompt) as ConnectionClosedError).cause as AgentExitedError;
    expect({ exitCode: cause.exitCode, signalName: cause.signalName, message: cause.message }).toEqual({ exitCode: null, signalName: "SIGKILL", message: "agent process was killed by SIGKILL; last stderr lines:\nstub stderr line 1" });
    expect(((await other) as ConnectionClosedError).cause).toBe(cause);
    expect(await agent.exited).toStrictEqual({ code: null, signal: "SIGKILL" });
    // The process table: nothing of the agent's group (its pid is the group's id) is left.
    expect(await groupGone(agent.child.pid as number)).toEqual([]);
  });

  it("is killed by this side (kill()): the calls reject naming SIGTERM", async () => {
    const { agent, prompt } = await turnOn(["--on-prompt=silent"]);
    const exit = agent.kill();
    const cause = ((await prompt) as ConnectionClosedError).cause as AgentExitedError;
    expect({ exitCode: cause.exitCode, signalName: cause.signalName }).toEqual({ exitCode: null, signalName: "SIGTERM" });
    expect(await exit).toStrictEqual({ code: null, signal: "SIGTERM" });
    // The process table: nothing of the agent's group (its pid is the group's id) is left.
    expect(await groupGone(agent.child.pid as number)).toEqual([]);
  });

  it("closes its stdout and lives on: the calls reject at once, while it still runs, saying so; it is then ended after the grace period", async () => {
    const { agent, conn, prompt, other, file } = await turnOn(["--on-prompt=close-stdout", "--linger"], { graceMs: 300 });
    const error = await prompt;
    const pid = agent.child.pid as number;
    // Answered before the agent ended: it is still running now.
    expect(stillRunning([pid])).toEqual([pid]);
    const cause = (error as ConnectionClosedError).cause as AgentOutputClosedError;
    expect(cause).toBeInstanceOf(AgentOutputClosedError);
    expect(cause.message).toBe(`agent process ${pid} closed its stdout and is still running; it is ended after the grace period`);
    expect(((await other) as ConnectionClosedError).cause).toBe(cause);
    expect(conn.stats()).toEqual(idle);
    expect(await agent.exited).toMatchObject({ signal: "SIGTERM", lingered: true });
    expect(await allGone(await pidsWritten(file, 1))).toEqual([]);
  });

  it("exits while a grandchild still holds its stdout: the calls reject naming the exit code, and the grandchild is ended", async () => {
    const { agent, prompt, file } = await turnOn(["--on-prompt=exit-holding-stdout", "--stderr-lines=2"]);
    const cause = ((await prompt) as ConnectionClosedError).cause as AgentExitedError;
    expect({ exitCode: cause.exitCode, stderrTail: cause.stderrTail }).toEqual({ exitCode: 5, stderrTail: "stub stderr line 1\nstub stderr line 2" });
    expect(await agent.exited).toStrictEqual({ code: 5, signal: null });
    const pids = await pidsWritten(file, 2);
    expect(await allGone(pids)).toEqual([]);
  });
});
