/** Helpers of the supervision tests: the stub agent, an owner process killed outright, and what it leaves in the process table (Linux `/proc`). */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { pidsIn } from "../support/process-group.ts";
import { tempDir } from "../support/temp.ts";

/** The scripted agent of these tests (fixtures/stub.mjs). */
export const stub = fileURLToPath(new URL("./fixtures/stub.mjs", import.meta.url));
/** The repository root. */
export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
/** `node --import tsx <file> <args…>`. */
export const tsNode = (file: string, ...args: string[]) => [process.execPath, "--import", "tsx", file, ...args];
/** `acp-router <args…>` through the package's bin. */
export const acpRouter = (...args: string[]) => tsNode(join(repoRoot, "bin", "acp-router.ts"), ...args);
/** A fresh pid file path. */
export const pidfile = () => join(tempDir("acp-supervision-"), "pids");

/** The pids whose parent is `pid` (live or zombie). */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      // it exited while we looked
    }
  }
  return out;
}

/** Resolves once `file` lists at least `count` pids (the stub writes its own and its grandchild's). */
export async function pidsWritten(file: string, count: number, child?: ChildProcess): Promise<number[]> {
  for (;;) {
    const pids = pidsIn(file);
    if (pids.length >= count) return pids;
    if (child !== undefined && child.exitCode !== null) throw new Error(`the owner exited (${child.exitCode}) before ${count} pids were written`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Resolves with the first stdout line of `child` that `match` accepts. */
export function lineFrom(child: ChildProcess, match: (line: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const onData = (d: string) => {
      text += d;
      const line = text.split("\n").slice(0, -1).find(match);
      if (line === undefined) return;
      child.stdout?.off("data", onData);
      resolve(line);
    };
    child.stdout?.setEncoding("utf8").on("data", onData);
    child.once("exit", (code, signal) => reject(new Error(`exited (${code ?? signal}) before the line; stdout: ${text}`)));
  });
}

/** Starts `command` as an owner process (stdin piped and left open, stderr kept for failures). */
export function startOwner(command: readonly string[]): ChildProcess & { stderrText(): string } {
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, args, { cwd: repoRoot, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return Object.assign(child, { stderrText: () => stderr });
}

/** SIGKILLs `child` and resolves once it is gone (its `'exit'`). */
export function killOutright(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}
