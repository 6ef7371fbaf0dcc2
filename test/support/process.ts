/**
 * Running a child process to completion from a test: one runner for every
 * folder (codegen, tools, reliability, package, examples, readme, bench).
 *
 *   const ran = await runProcess("npx", ["tsc", "--noEmit"]);     // never rejects on a non-zero exit
 *   expect(ran).toMatchObject({ code: 0, stderr: "" });
 *   const { stdout } = await runOk(process.execPath, ["-e", "…"]); // rejects, with the output, unless it exits 0
 *
 * A deadline kills the child (SIGKILL) so a hang becomes a readable failure
 * (`killed: true`), never a stuck suite.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The repository root (where package.json is), derived from this file's location; ends with a separator. */
export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

export interface RunOptions {
  /** Working folder. Default: the repository root, where the tests' relative paths start. */
  readonly cwd?: string;
  /** Environment. Default: this process's, so PATH and the npm settings carry over. */
  readonly env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed. Default: nothing (stdin closed at once). */
  readonly input?: string | Uint8Array;
  /** Kills the child after this many ms. Default 60 s: generous for `npx`/`tsx` start-up on a loaded 2-core machine. */
  readonly timeoutMs?: number;
}

/** What a finished child process left behind. */
export interface Ran {
  /** Exit code, or null when a signal ended it. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** True when the deadline killed it. */
  readonly killed: boolean;
  /** Stdout decoded as UTF-8. */
  readonly stdout: string;
  /** Stdout as the bytes the child wrote (for byte-exact comparisons). */
  readonly stdoutBytes: Buffer;
  readonly stderr: string;
}

/** Runs `command args` to completion and collects its output; rejects only when it cannot start. */
export function runProcess(command: string, args: readonly string[], options: RunOptions = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? repoRoot, env: options.env ?? process.env, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let stderr = "";
    let killed = false;
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      killed = true;
      child.kill("SIGKILL");
    }, options.timeoutMs ?? 60_000);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      const stdoutBytes = Buffer.concat(out);
      resolve({ code, signal, killed, stdout: stdoutBytes.toString("utf8"), stdoutBytes, stderr });
    });
    // A child that exits without reading its stdin makes this write fail with EPIPE: that is its business, not the test's.
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.input ?? "");
  });
}

/** `runProcess`, rejecting (with the command, exit and output in the message) unless the child exits 0. */
export async function runOk(command: string, args: readonly string[], options: RunOptions = {}): Promise<Ran> {
  const ran = await runProcess(command, args, options);
  if (ran.code !== 0) throw new Error(`${command} ${args.join(" ")} exited ${ran.killed ? "killed at its deadline" : (ran.code ?? ran.signal)}\n${ran.stdout}\n${ran.stderr}`);
  return ran;
}
