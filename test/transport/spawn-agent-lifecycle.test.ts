// Issue 20 items 1 and 13 through spawnAgent: an agent lingering behind `sh -c`, a grandchild holding
// stderr, junk before messages on stdout, and death mid-run — scripted stub agents, process-group lookups.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ConnectionClosedError, connectClient, type Diagnostic } from "../../src/index.ts";
import { AgentExitedError, spawnAgent } from "../../src/transport/stdio.ts";
import { params, testClient } from "../support/handlers.ts";
import { allGone, groupGone, pidsIn } from "../support/process-group.ts";
import { tempDir } from "../support/temp.ts";

const stub = fileURLToPath(new URL("../fixtures/stub-agent.mjs", import.meta.url));
const pidfile = () => join(tempDir("acp-spawn-"), "pids");

function connect(command: string, args: string[], options: Parameters<typeof spawnAgent>[2] = {}) {
  const agent = spawnAgent(command, args, { stderr: "capture", ...options });
  const diagnostics: Diagnostic[] = [];
  const conn = connectClient(testClient().handler, agent.transport, { onDiagnostic: (d) => diagnostics.push(d) });
  return { agent, conn, diagnostics };
}

async function turn(conn: ReturnType<typeof connect>["conn"]) {
  await conn.agent.initialize(params.initialize());
  const { sessionId } = await conn.agent.newSession(params.newSession());
  return conn.agent.prompt(params.prompt(sessionId, "hi"));
}

describe("spawnAgent's process lifecycle", () => {
  it("ends an agent that lingers behind sh -c after the client closes, and leaves no process of its tree", async () => {
    const file = pidfile();
    const { agent, conn } = connect("sh", ["-c", `"${process.execPath}" "${stub}" --linger --pidfile=${file}; true`], { graceMs: 300 });
    expect(await turn(conn)).toEqual({ stopReason: "end_turn" });
    const pids = [agent.child.pid as number, ...pidsIn(file)];
    expect(pids).toHaveLength(2);
    conn.close();
    expect(await agent.exited).toStrictEqual({ code: null, signal: "SIGTERM", lingered: true, note: "did not exit within 300 ms of stdin closing; terminated" });
    expect(await groupGone(agent.child.pid as number)).toEqual([]);
    expect(await allGone(pids)).toEqual([]);
  });

  it("settles exited on the agent's exit while a grandchild still holds its stderr, and ends the grandchild", async () => {
    const file = pidfile();
    const { agent, conn } = connect(process.execPath, [stub, "--grandchild", `--pidfile=${file}`], { graceMs: 20_000 });
    expect(await turn(conn)).toEqual({ stopReason: "end_turn" });
    conn.close();
    expect(await agent.exited).toStrictEqual({ code: 0, signal: null });
    expect(await allGone(pidsIn(file))).toEqual([]);
  });

  it("recovers answers written after a terminal escape, and reports the shell's greeting line", async () => {
    const { agent, conn, diagnostics } = connect(process.execPath, [stub, "--junk"]);
    expect(await turn(conn)).toEqual({ stopReason: "end_turn" });
    conn.close();
    await agent.exited;
    const messages = diagnostics.filter((d) => d.kind === "parse_error").map((d) => d.message);
    expect(messages[0]).toMatch(/^unparsable line/); // "Welcome to your shell, stub!": no message in it
    expect(messages.slice(1)).toEqual(Array(messages.length - 1).fill('recovered a message after 5 characters of non-JSON output before it on the same line: "\\u001b[1 q"'));
    expect(messages.length).toBeGreaterThanOrEqual(5); // initialize, session/new, an update, the prompt's answer
  });

  it("leaves such a line a parse error with recoverPrefixedLines: false", async () => {
    const { agent, conn, diagnostics } = connect(process.execPath, [stub, "--junk"], { recoverPrefixedLines: false });
    const init = conn.agent.initialize(params.initialize(), { timeoutMs: 1000 });
    await expect(init).rejects.toThrow();
    expect(diagnostics.filter((d) => d.kind === "parse_error").map((d) => d.message)).toEqual([expect.stringMatching(/^unparsable line/), expect.stringMatching(/^unparsable line/)]);
    conn.close();
    await agent.exited;
  });

  it("rejects the pending prompt naming the exit when the agent dies mid-run", async () => {
    const { agent, conn } = connect(process.execPath, [stub, "--die-on-prompt"]);
    const error = await turn(conn).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as ConnectionClosedError).cause).toBeInstanceOf(AgentExitedError);
    expect((error as { cause: AgentExitedError }).cause.exitCode).toBe(3);
    expect(await agent.exited).toStrictEqual({ code: 3, signal: null });
  });
});
