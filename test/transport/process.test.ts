// The one process lifecycle (src/transport/process.ts): EOF → grace → SIGTERM → SIGKILL to the
// agent's process group, `exited` on 'exit', and nothing left running after the owner dies.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { exitStatus, startProcess } from "../../src/transport/process.ts";
import { allGone, groupGone, groupMembers, pidsIn } from "../support/process-group.ts";
import { tempDir } from "../support/temp.ts";

const stub = fileURLToPath(new URL("../fixtures/stub-agent.mjs", import.meta.url));
const owner = fileURLToPath(new URL("../fixtures/process-owner.ts", import.meta.url));
const pidfile = () => join(tempDir("acp-process-"), "pids");
const behindShell = (flags: string) => ["-c", `"${process.execPath}" "${stub}" ${flags}; true`];

async function written(file: string, count: number): Promise<number[]> {
  for (let i = 0; i < 250; i++) {
    const pids = pidsIn(file);
    if (pids.length >= count) return pids;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${file}: fewer than ${count} pids`);
}

describe("startProcess", () => {
  it("ends an agent that lingers behind sh -c after stdin closes: SIGTERM to its group after the grace period, reported as lingering", async () => {
    const file = pidfile();
    const p = startProcess("sh", behindShell(`--linger --pidfile=${file}`), { graceMs: 300, termMs: 2000, startMs: 0 });
    const pids = [p.child.pid as number, ...(await written(file, 1))];
    expect(groupMembers(p.child.pid as number).sort()).toEqual([...pids].sort());
    const exit = await p.close();
    expect(exit).toMatchObject({ code: null, signal: "SIGTERM", lingered: true, note: "did not exit within 300 ms of stdin closing; terminated" });
    expect(exitStatus(exit)).toBe(143);
    expect(await groupGone(p.child.pid as number)).toEqual([]);
    expect(await allGone(pids)).toEqual([]);
  });

  it("kills the group with SIGKILL when SIGTERM is ignored", async () => {
    const file = pidfile();
    const p = startProcess(process.execPath, [stub, "--linger", "--ignore-term", `--pidfile=${file}`], { graceMs: 200, termMs: 300, startMs: 0 });
    const pids = await written(file, 1);
    const exit = await p.close();
    expect(exit).toMatchObject({ signal: "SIGKILL", lingered: true, note: "did not exit within 200 ms of stdin closing; killed" });
    expect(await allGone(pids)).toEqual([]);
  });

  it("settles on 'exit' when a grandchild holds the agent's stderr, and ends that grandchild", async () => {
    const file = pidfile();
    const p = startProcess(process.execPath, [stub, "--grandchild", `--pidfile=${file}`], { graceMs: 20_000, termMs: 500, drainMs: 200 });
    const pids = await written(file, 2);
    const exit = await p.close();
    expect(exit).toStrictEqual({ code: 0, signal: null });
    expect(await groupGone(p.child.pid as number)).toEqual([]);
    expect(await allGone(pids)).toEqual([]);
  });

  it("starts the grace period of a slow starter at its first output, not at the EOF it has not read yet", async () => {
    const p = startProcess(process.execPath, [stub, "--slow-start=700"], { graceMs: 100, startMs: 20_000 });
    let out = "";
    p.child.stdout?.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      p.heard();
    });
    p.child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1 } })}\n`);
    expect(await p.close()).toStrictEqual({ code: 0, signal: null });
    expect(out).toContain('"id":0,"result"');
  });

  it("reports an agent that exits on its own at EOF as a plain exit", async () => {
    const p = startProcess(process.execPath, [stub], { graceMs: 20_000 });
    expect(await p.close()).toStrictEqual({ code: 0, signal: null });
  });

  it("resolves with the start error of a command that does not exist", async () => {
    const exit = await startProcess("acp-router-no-such-command", []).exited;
    expect({ code: exit.code, error: (exit.error as NodeJS.ErrnoException | undefined)?.code, status: exitStatus(exit) }).toEqual({ code: null, error: "ENOENT", status: 127 });
  });

  for (const [how, status] of [
    ["exit", "code 0"],
    ["signal", "signal SIGTERM"],
    ["throw", "code 1"],
  ] as const) {
    it(`leaves no process of the agent's tree when its owner dies (${how})`, async () => {
      const file = pidfile();
      const ownerProcess = spawn(process.execPath, ["--import", "tsx", owner, how, file], { stdio: ["ignore", "ignore", "pipe"] });
      const ended = await new Promise<string>((resolve) => ownerProcess.once("exit", (code, signal) => resolve(code !== null ? `code ${code}` : `signal ${signal}`)));
      expect(ended).toBe(status);
      const pids = pidsIn(file);
      expect(pids).toHaveLength(2);
      expect(await allGone(pids)).toEqual([]);
    });
  }
});

describe("startProcess when the leader exits before the rest of its group", () => {
  it("keeps no timer of its own alive once `exited` settled, so its owner can end (the SIGTERM→SIGKILL timer is cleared on every exit)", async () => {
    const file = pidfile();
    const timers = fileURLToPath(new URL("../fixtures/process-timers.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", timers, file], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
    let out = "";
    const line = new Promise<string>((resolve) => child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d).includes("\n") && resolve(out)));
    const report = JSON.parse((await line).trim()) as { exit: { signal: string | null; lingered?: boolean }; active: string[] };
    // sh died of the SIGTERM; the stub ignoring it was still alive, so the group's end is left to the owner.
    expect({ signal: report.exit.signal, lingered: report.exit.lingered }).toEqual({ signal: "SIGTERM", lingered: true });
    expect(report.active.filter((r) => r === "Timeout")).toEqual([]);
    expect(await exited).toBe(0);
    // The owner's exit ended what was left of the group.
    expect(await allGone(pidsIn(file))).toEqual([]);
  });
});
