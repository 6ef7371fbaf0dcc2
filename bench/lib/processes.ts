/**
 * What the stdio figures share: starting the bench's peer processes
 * (`agent-process.ts`, `update-streamer.ts`) through tsx, with their stdin
 * and stdout as real pipes and their stderr on ours, and timing one run.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";

/**
 * The command line that runs `bench/lib/<script>` with `args`: [executable,
 * ...arguments]. Under `bench/profile.ts` (`BENCH_PROFILE_DIR` set) the
 * process writes a CPU profile there too.
 */
export function scriptCommand(script: string, args: readonly string[] = []): [string, string[]] {
  const dir = process.env.BENCH_PROFILE_DIR;
  const profile = dir ? ["--cpu-prof", "--cpu-prof-dir", dir] : [];
  return [process.execPath, [...profile, "--import", "tsx", fileURLToPath(new URL(`./${script}`, import.meta.url)), ...args]];
}

/** Starts `bench/lib/<script>` with piped stdin and stdout. */
export function startScript(script: string, args: readonly string[] = []): ChildProcessByStdio<Writable, Readable, null> {
  const [file, argv] = scriptCommand(script, args);
  return spawn(file, argv, { stdio: ["pipe", "pipe", "inherit"] });
}

/** Seconds that `run` takes (wall clock, high resolution). */
export async function seconds(run: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e9;
}
