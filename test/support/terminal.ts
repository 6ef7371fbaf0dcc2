/**
 * A real terminal for test clients (`terminal/create` and friends): the command runs as a
 * child process, stdout and stderr go into one output kept within `outputByteLimit`
 * (truncated from the beginning at a character boundary, as terminals.mdx says).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";

/** Exit status as `terminal/wait_for_exit` reports it. */
export interface ExitStatus {
  exitCode: number | null;
  signal: string | null;
}

export interface TestTerminal {
  readonly proc: ChildProcess;
  output: string;
  truncated: boolean;
  readonly limit: number | null;
  exitStatus: ExitStatus | null;
  readonly exited: Promise<ExitStatus>;
}

export interface TerminalParams {
  readonly command: string;
  readonly args?: readonly string[] | null;
  readonly env?: readonly { readonly name: string; readonly value: string }[] | null;
  readonly cwd?: string | null;
  readonly outputByteLimit?: number | null;
}

/** Starts the command; rejects with the spawn error when it cannot start. */
export async function startTerminal(params: TerminalParams): Promise<TestTerminal> {
  const env = { ...process.env };
  for (const v of params.env ?? []) env[v.name] = v.value;
  const proc = spawn(params.command, [...(params.args ?? [])], { stdio: ["ignore", "pipe", "pipe"], env, ...(params.cwd ? { cwd: params.cwd } : {}) });
  const t: TestTerminal = {
    proc,
    output: "",
    truncated: false,
    limit: params.outputByteLimit ?? null,
    exitStatus: null,
    exited: new Promise((resolve) =>
      proc.once("close", (exitCode, signal) => {
        t.exitStatus = { exitCode, signal };
        resolve(t.exitStatus);
      }),
    ),
  };
  const append = (d: string) => {
    t.output += d;
    if (t.limit !== null && Buffer.byteLength(t.output) > t.limit) {
      const buf = Buffer.from(t.output);
      t.output = buf
        .subarray(buf.length - t.limit)
        .toString("utf8")
        .replace(/^\uFFFD+/, "");
      t.truncated = true;
    }
  };
  proc.stdout?.setEncoding("utf8").on("data", append);
  proc.stderr?.setEncoding("utf8").on("data", append);
  await once(proc, "spawn");
  return t;
}
