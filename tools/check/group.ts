/**
 * The agent process of `check` and `replay`, in its own process group: the
 * agent and everything it starts (a shell, an npm launcher, a grandchild
 * holding the inherited stderr) are signalled together. Closing ends stdin,
 * waits the grace period for the agent to exit by itself, then sends SIGTERM
 * to the group, waits 2 s, and sends SIGKILL to the group; the group is also
 * sent SIGKILL when the leader exited by itself (a grandchild it left behind)
 * and when this process exits, so no run leaves an agent process behind.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";

/** How the leader process ended. */
export interface Exit {
  readonly code: number | null;
  readonly signal: string | null;
}

export interface GroupProcess {
  readonly child: ChildProcess;
  readonly stdout: Readable;
  /** The group's id (the leader's pid), undefined when the command could not be started. */
  readonly pgid: number | undefined;
  /** Writes to the agent's stdin (ignored once it is closed). */
  write(text: string): void;
  /** Resolves on the leader's 'exit' (or a spawn error: then code null and `startError` set). */
  readonly exited: Promise<Exit>;
  readonly startError: Error | undefined;
  /** Ends stdin; after `graceMs` without an exit, SIGTERM then (2 s later) SIGKILL to the group. `exited` says whether it left by itself. */
  close(graceMs: number): Promise<Exit & { readonly exited: boolean }>;
}

/** Time between SIGTERM and SIGKILL to the group: 2 s, enough for a handler to flush and quit. */
const TERM_MS = 2000;

const signalGroup = (pgid: number | undefined, signal: NodeJS.Signals) => {
  if (pgid === undefined) return;
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already empty.
  }
};

const live = new Set<number>();
let hooked = false;
const killAllOnExit = () => {
  for (const pgid of live) signalGroup(pgid, "SIGKILL");
};

/** Spawns `command` as the leader of a new process group, stdin/stdout piped, stderr inherited. */
export function spawnGroup(command: readonly string[], env?: NodeJS.ProcessEnv): GroupProcess {
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, args, { stdio: ["pipe", "pipe", "inherit"], detached: true, ...(env ? { env } : {}) });
  const pgid = child.pid;
  if (pgid !== undefined) {
    live.add(pgid);
    if (!hooked) {
      hooked = true;
      process.once("exit", killAllOnExit);
    }
  }
  let startError: Error | undefined;
  let exit: Exit | undefined;
  const exited = new Promise<Exit>((resolve) => {
    child.once("exit", (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    });
    child.once("error", (error) => {
      startError = error;
      exit = { code: null, signal: null };
      resolve(exit);
    });
  });
  child.stdin?.on("error", () => undefined);
  const wait = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  return {
    child,
    stdout: child.stdout!,
    pgid,
    exited,
    get startError() {
      return startError;
    },
    write(text) {
      if (exit === undefined && child.stdin?.writable) child.stdin.write(text);
    },
    async close(graceMs) {
      child.stdin?.end();
      const byItself = await wait(graceMs);
      if (!byItself) {
        signalGroup(pgid, "SIGTERM");
        if (!(await wait(TERM_MS))) signalGroup(pgid, "SIGKILL");
        await wait(TERM_MS);
      }
      // Whatever the leader left behind (a grandchild holding stderr) goes with it.
      signalGroup(pgid, "SIGKILL");
      if (pgid !== undefined) live.delete(pgid);
      const e = exit ?? { code: null, signal: null };
      return { ...e, exited: byItself };
    },
  };
}
