/**
 * How the mock agent's process ends, for testing a client's supervision
 * (docs/supervision.md): it can die mid-turn, go silent, ignore SIGTERM,
 * linger after its stdin closes, and start a stubborn grandchild. Each is a
 * prompt directive (`#die`, `#silent`, `#ignore-term`, `#linger`,
 * `#grandchild`) and the last three also a scenario's `"process"` list,
 * applied at start. What a client on acp-router does about each is in
 * test/supervision/mock-agent.test.ts.
 */
import { spawn } from "node:child_process";

/** The process behaviours a scenario's `"process"` list may turn on at start. */
export const PROCESS_BEHAVIOURS = ["ignore-term", "linger", "grandchild"] as const;
export type ProcessBehaviour = (typeof PROCESS_BEHAVIOURS)[number];

/** What was turned on (one mock agent per process). */
const state = { lingering: false, ignoringTerm: false };

/** From now on SIGTERM does nothing: only SIGKILL ends this process. */
export function ignoreTerm(): void {
  if (state.ignoringTerm) return;
  state.ignoringTerm = true;
  process.on("SIGTERM", () => undefined);
}

/** From now on the process keeps running after its stdin closes, until it is killed. */
export function linger(): void {
  state.lingering = true;
}

/** True once `linger` was called: the stdio server then waits forever after the connection closed. */
export function lingering(): boolean {
  return state.lingering;
}

/**
 * Starts a grandchild that ignores SIGTERM and SIGHUP, stays in this
 * process group and holds this process's stdout and stderr (as a launcher's
 * child does); returns its pid. It sleeps an hour: whoever owns the agent
 * must end it.
 */
export function stubbornGrandchild(): number | undefined {
  const child = spawn("sh", ["-c", "trap '' TERM HUP; exec sleep 3600"], { stdio: ["ignore", "inherit", "inherit"] });
  child.unref();
  return child.pid;
}

/** Turns on what a scenario's `"process"` list names. */
export function applyProcessBehaviours(list: readonly ProcessBehaviour[], log: (message: string) => void): void {
  for (const behaviour of list) {
    if (behaviour === "ignore-term") ignoreTerm();
    else if (behaviour === "linger") linger();
    else log(`started a stubborn grandchild (pid ${stubbornGrandchild() ?? "?"})`);
  }
}

/** Exits with `code` once what was written to stdout so far has left (mid-turn: the turn is never answered). */
export async function die(code: number): Promise<never> {
  // The connection coalesces writes until the next turn of the event loop: let them go first.
  await new Promise((resolve) => setImmediate(resolve));
  process.stderr.write(`[mock-agent] #die: exiting with code ${code} mid-turn\n`);
  return new Promise<never>(() => process.stdout.write("", () => process.exit(code)));
}

/** Never settles and ignores cancellation: the turn gets no answer and no update, ever. */
export function silence(): Promise<never> {
  return new Promise<never>(() => undefined);
}
