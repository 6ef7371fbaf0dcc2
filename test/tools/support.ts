/** Helpers for the tools' tests: paths, and running `inspect` through the test launcher. */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runProcess } from "../support/process.ts";
import { tempDir } from "../support/temp.ts";
import { bundledCli } from "../support/cli-bundle.ts";

export { bundledCli };
import type { CheckReport } from "../../tools/check/main.ts";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
export const exampleAgent = fileURLToPath(new URL("../../examples/agent.ts", import.meta.url));
export const exampleClient = fileURLToPath(new URL("../../examples/client.ts", import.meta.url));
export const sdkAgent = fileURLToPath(new URL("../peers/sdk-agent.ts", import.meta.url));

/** `node --import tsx <file>`: how the tests run a TypeScript entry. */
export const tsNode = (file: string, ...args: string[]) => [process.execPath, "--import", "tsx", file, ...args];

/** `acp-router <args…>` through the package's bin, as `npx acp-router` runs it. */
export const acpRouter = (...args: string[]) => tsNode(fileURLToPath(new URL("../../bin/acp-router.ts", import.meta.url)), ...args);

/**
 * The command line that runs `acp-router inspect <args…> -- <agent…>` through the test launcher (tsx, not the
 * run's bundle: `inspect --table` loads a table that imports acp-router's sources, which must be the same
 * modules as inspect's own, as an installed package's are).
 */
export const inspectCommand = (args: readonly string[], agent: readonly string[]) => tsNode(fixture("run-inspect.ts"), ...args, "--", ...agent);

/** A fresh temporary directory for one test's files. */
export const scratch = () => tempDir("acp-inspect-");

export interface Run {
  readonly code: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** Runs a command to completion with `input` on stdin; kills it after `ms` (default 20 s). Stdout stays bytes: the tools' output is compared byte for byte. */
export async function runCommand(command: readonly string[], input: Uint8Array | string = "", ms = 20_000, cwd = repoRoot): Promise<Run> {
  const [file, ...args] = command as [string, ...string[]];
  const ran = await runProcess(file, args, { cwd, input, timeoutMs: ms });
  return { code: ran.code, stdout: ran.stdoutBytes, stderr: ran.stderr };
}

/**
 * Runs a command as a scripted editor would: writes each line in turn and,
 * for a line with `awaitAnswer`, waits until stdout holds the answer to it
 * (`"id":<id>,`) before the next; then closes stdin and waits for the exit.
 */
export function converse(command: readonly string[], steps: readonly { readonly line: string; readonly awaitAnswer?: number }[], ms = 20_000): Promise<Run> {
  const [file, ...args] = command as [string, ...string[]];
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: repoRoot, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let stderr = "";
    let waiting: (() => void) | undefined;
    child.stdout.on("data", (d: Buffer) => {
      out.push(d);
      waiting?.();
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out), stderr });
    });
    const answered = (id: number) =>
      new Promise<void>((done) => {
        const check = () => {
          if (Buffer.concat(out).toString("utf8").includes(`"id":${id},`)) {
            waiting = undefined;
            done();
          }
        };
        waiting = check;
        check();
      });
    (async () => {
      for (const step of steps) {
        child.stdin.write(`${step.line}\n`);
        if (step.awaitAnswer !== undefined) await answered(step.awaitAnswer);
      }
      child.stdin.end();
    })().catch(reject);
  });
}

/**
 * check's watch windows for the agents of these tests (scripted stubs, the example agent, mock-agent):
 * each answers its lines at once and in order, so a sentinel's answer already ends what a window
 * watches for. 0.1 s of quiet and 1 s of exit grace, where the defaults (1 s, 5 s) are sized for real
 * agents.
 */
export const STUB_WINDOWS = ["--quiet", "0.1", "--exit-grace", "1"] as const;

/** Runs `check --json` (from the run's bundle of the command line) with `args` on `agent`, killed after `killAfterMs`, and parses its scorecard. */
export async function checkJson(args: readonly string[], agent: readonly string[], killAfterMs = 80_000): Promise<CheckReport> {
  const [file, ...rest] = bundledCli("check", "--json", ...STUB_WINDOWS, ...args, "--", ...agent) as [string, ...string[]];
  const stdout = await new Promise<string>((resolve) => {
    const child = spawn(file, rest, { cwd: repoRoot, stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    child.once("close", () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
  return JSON.parse(stdout) as CheckReport;
}
