// Issue 20 item 2: `inspect` ends an agent that lingers after the editor's EOF, and when it is itself
// stopped by a signal it writes its summary and the recording's end record, leaving no agent behind.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Summary } from "../../tools/inspect/summary.ts";
import { allGone, pidsIn, stillRunning } from "../support/process-group.ts";
import { inspectCommand, repoRoot, runCommand, scratch } from "./support.ts";

const stub = fileURLToPath(new URL("../fixtures/stub-agent.mjs", import.meta.url));
const behindShell = (flags: string) => ["sh", "-c", `"${process.execPath}" "${stub}" ${flags}; true`];
const INIT = `${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } })}\n`;
const readSummary = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Summary;

describe("inspect's agent lifecycle", () => {
  it("ends an agent lingering behind sh -c after the editor's EOF, notes it, and exits 0 with nothing left running", async () => {
    const dir = scratch();
    const [summary, pids] = [join(dir, "s.json"), join(dir, "pids")];
    const run = await runCommand(inspectCommand(["--summary", summary, "--exit-grace", "1500"], behindShell(`--linger --pidfile=${pids}`)), INIT, 15_000);
    expect({ code: run.code, answered: run.stdout.toString("utf8").includes('"id":0,"result"') }).toEqual({ code: 0, answered: true });
    expect(readSummary(summary).notes).toContain("the agent did not exit within 1500 ms of stdin closing; terminated");
    expect(pidsIn(pids)).toHaveLength(1);
    expect(await allGone(pidsIn(pids))).toEqual([]);
  });

  it("without --exit-grace, stays as long as an agent lingering after the editor's EOF (so a check through inspect sees the lingering), and exits when the agent does", async () => {
    const dir = scratch();
    const [summary, pids] = [join(dir, "s.json"), join(dir, "pids")];
    const [file, ...args] = inspectCommand(["--summary", summary], behindShell(`--linger --pidfile=${pids}`)) as [string, ...string[]];
    const inspect = spawn(file, args, { cwd: repoRoot, stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    const answered = new Promise<void>((resolve) => inspect.stdout.setEncoding("utf8").on("data", (d: string) => (out += d).includes('"id":0,') && resolve()));
    const ended = new Promise<number | null>((resolve) => inspect.once("exit", (code) => resolve(code)));
    inspect.stdin.end(INIT); // the editor's EOF
    await answered;
    // Past the old 2 s grace period, the agent still lingers, and so does inspect.
    await new Promise((r) => setTimeout(r, 3000));
    const agentPid = pidsIn(pids)[0] as number;
    expect({ inspect: inspect.exitCode, agentAlive: stillRunning([agentPid]).length }).toEqual({ inspect: null, agentAlive: 1 });
    process.kill(agentPid, "SIGTERM");
    // sh -c '…; true' exits 0 once the agent is gone; inspect follows with that status.
    expect(await ended).toBe(0);
    expect(readSummary(summary).notes).toEqual([]);
  }, 20_000);

  it("finishes when the agent exits while a grandchild still holds stderr, and ends the grandchild", async () => {
    const dir = scratch();
    const pids = join(dir, "pids");
    const run = await runCommand(inspectCommand(["--summary", join(dir, "s.json")], [process.execPath, stub, "--grandchild", `--pidfile=${pids}`]), INIT, 15_000);
    expect(run.code).toBe(0);
    expect(pidsIn(pids)).toHaveLength(2);
    expect(await allGone(pidsIn(pids))).toEqual([]);
  });

  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    it(`on ${signal} writes the summary and the recording's end record, and ends the agent's group (which ignores SIGTERM)`, async () => {
      const dir = scratch();
      const files = { summary: join(dir, "s.json"), record: join(dir, "r.ndjson"), pids: join(dir, "pids") };
      const [file, ...args] = inspectCommand(["--summary", files.summary, "--record", files.record], behindShell(`--linger --ignore-term --pidfile=${files.pids}`)) as [string, ...string[]];
      const inspect = spawn(file, args, { cwd: repoRoot, stdio: ["pipe", "pipe", "ignore"] });
      let out = "";
      const answered = new Promise<void>((resolve) => inspect.stdout.setEncoding("utf8").on("data", (d: string) => (out += d).includes('"id":0,') && resolve()));
      inspect.stdin.write(INIT); // stdin stays open: the editor is still there
      await answered;
      const ended = new Promise<string>((resolve) => inspect.once("exit", (code, sig) => resolve(`${code ?? sig}`)));
      inspect.kill(signal);
      const codes = { SIGTERM: "143", SIGINT: "130", SIGHUP: "129" };
      expect(await ended).toBe(codes[signal]);
      const record = readFileSync(files.record, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(record.map((r) => r.type ?? r.from)).toEqual(["start", "client", "agent", "end"]);
      expect(record.at(-1)).toMatchObject({ type: "end", exit: Number(codes[signal]) });
      const summary = readSummary(files.summary);
      expect({ exitCode: summary.exitCode, notes: summary.notes }).toEqual({ exitCode: Number(codes[signal]), notes: [`inspect received ${signal} while the agent was running; the agent's process group was ended`] });
      expect(pidsIn(files.pids)).toHaveLength(1);
      expect(await allGone(pidsIn(files.pids))).toEqual([]);
    });
  }
});
