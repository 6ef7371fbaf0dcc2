/**
 * The lifecycle of an agent process, shared by `spawnAgent`, `inspect`,
 * `check` and `replay` (Node only). The agent runs in its own process group
 * (`detached: true`), so a wrapper (`sh -c`, `npx`, a launcher) and
 * everything it starts are ended together. Closing is EOF on stdin → a grace
 * period → SIGTERM to the group → SIGKILL to the group. `exited` settles on
 * `'exit'` (not `'close'`: a grandchild may hold the pipes open forever),
 * after a bounded wait for the last output bytes. When the leader exits,
 * what is left of its group is ended too. Nothing outlives its owner:
 * - the owner's watcher (process-watcher.ts), one `sh` per owner, ends every
 *   live group when the owner dies by any cause, SIGKILL included: SIGTERM,
 *   then SIGKILL after the group's `termMs`;
 * - when the owner exits or gets a SIGINT / SIGTERM / SIGHUP nobody else
 *   handles, every live group gets SIGTERM at once, and the watcher sends
 *   the SIGKILL (without a watcher, this process waits for them itself,
 *   {@link OWNER_EXIT_WAIT_MS}, and sends it).
 * Not covered: a descendant that leaves the group on purpose (`setsid`, a
 * double-forking daemon, Node's `detached: true`); docs/supervision.md says
 * what holds those. On Windows there are no process groups and no watcher:
 * the child alone is signalled, on the owner's exit and handled signals only.
 */
import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import { constants } from "node:os";
import { forgetGroup, watcherRunning, watchGroup } from "./process-watcher.ts";

/** Options of {@link startProcess}. */
export interface ProcessOptions {
  readonly cwd?: string | undefined;
  readonly env?: NodeJS.ProcessEnv | undefined;
  /** stdin, stdout, stderr. Default all `pipe`. */
  readonly stdio?: StdioOptions | undefined;
  /**
   * How long the agent may take to exit after its stdin closed before its
   * group gets SIGTERM. Default 2000 ms: a well-behaved agent exits within
   * milliseconds of EOF; two seconds leave room for flushing logs and
   * session files on a loaded machine without making the user wait.
   * `Infinity`: never end it; wait for its own exit (a transparent proxy).
   */
  readonly graceMs?: number | undefined;
  /**
   * An agent that has written nothing yet when its stdin closes is still
   * starting (an `npx` download, a slow runtime) and has not read its input:
   * its grace period starts at its first output (see `heard`), or this many
   * ms after the EOF at the latest. Default 60000 ms: real agents have been
   * seen to take 35 s to start.
   */
  readonly startMs?: number | undefined;
  /**
   * How long after SIGTERM before SIGKILL, on every path: a close, the
   * leader's exit with the rest of its group alive, and the owner's death
   * (the watcher waits this long). Default {@link DEFAULT_TERM_MS}.
   */
  readonly termMs?: number | undefined;
  /**
   * After `'exit'`, how long to wait for the last stdout/stderr bytes before
   * the pipes are dropped. Default 100 ms: the kernel has the bytes already
   * and they are read at the event loop's next turn; only a grandchild
   * holding the pipe keeps them open longer, and pending calls wait this
   * long before they are rejected naming the exit.
   */
  readonly drainMs?: number | undefined;
}

/** How the process ended. */
export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /**
   * Present (true) when it did not exit within the grace period after stdin
   * closed and was ended by us; absent otherwise, so a plain exit is exactly
   * `{ code, signal }`.
   */
  readonly lingered?: true;
  /** Set with `lingered`: "did not exit within 2 s of stdin closing; terminated" (or "killed" when SIGTERM was not enough). */
  readonly note?: string;
  /** The process could not be started (ENOENT, EACCES); code and signal are null. */
  readonly error?: Error;
}

/** A started process and the controls of its lifecycle. */
export interface ManagedProcess {
  readonly child: ChildProcess;
  /** Settles (never rejects) when the process exited, or could not be started. */
  readonly exited: Promise<ProcessExit>;
  /** True once `'exit'` (or a start error) was seen. */
  readonly hasExited: boolean;
  /** Ends stdin, then grace → SIGTERM → SIGKILL to the group; resolves with `exited`. Idempotent. */
  close(): Promise<ProcessExit>;
  /** Tells the lifecycle the agent wrote output (call it on its stdout data): a close waiting for a slow starter's first output starts its grace period. */
  heard(): void;
  /** SIGTERM to the group now, SIGKILL after `termMs`; resolves with `exited`. */
  terminate(): Promise<ProcessExit>;
  /** Ends the group synchronously: SIGTERM, a bounded wait, SIGKILL. For signal handlers of the owner. */
  killSync(): void;
}

/** The default grace period after stdin closes, in ms (the `graceMs` option of `spawnAgent`). */
export const DEFAULT_GRACE_MS = 2000;
/**
 * After SIGTERM, how long a group has before SIGKILL, in ms: 1000. A process
 * that handles SIGTERM ends within milliseconds; one second leaves room to
 * flush on a loaded machine and keeps a whole tree's end within 2 s of its
 * owner's death.
 */
export const DEFAULT_TERM_MS = 1000;
/** Without a watcher (Windows, no `/bin/sh`), how long an owner's exit waits after SIGTERM before its own SIGKILL, in ms: 300, short enough not to delay the owner noticeably. */
export const OWNER_EXIT_WAIT_MS = 300;

const GROUPS = process.platform !== "win32";

/** Starts `command args` in its own process group. */
export function startProcess(command: string, args: readonly string[], options: ProcessOptions = {}): ManagedProcess {
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const termMs = options.termMs ?? DEFAULT_TERM_MS;
  const drainMs = options.drainMs ?? 100;
  const startMs = options.startMs ?? 60_000;
  const child = spawn(command, args, { stdio: options.stdio ?? "pipe", cwd: options.cwd, env: options.env, detached: GROUPS });
  const pgid = child.pid;
  let exitedNow = false;
  let closing = false;
  let ended: "terminated" | "killed" | undefined;
  /** The grace period after EOF ran out before the exit. */
  let lingering = false;
  let spoke = false;
  /** Starts the grace period of a close waiting for the agent's first output. */
  let startGrace: (() => void) | undefined;
  let termTimer: ReturnType<typeof setTimeout> | undefined;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;

  const signal = (sig: NodeJS.Signals) => {
    if (pgid === undefined) return;
    if (GROUPS) signalGroup(pgid, sig);
    else if (!exitedNow) child.kill(sig);
  };
  const exited = new Promise<ProcessExit>((resolve) => {
    child.on("error", (error) => {
      // A start failure: no 'exit' follows. (Later errors, such as a failed kill, are not fatal.)
      if (exitedNow || child.pid !== undefined) return;
      exitedNow = true;
      resolve({ code: null, signal: null, error });
    });
    child.once("exit", (code, sig) => {
      exitedNow = true;
      clearTimeout(graceTimer);
      // The leader's SIGKILL is moot now, whichever branch follows: a live timer would hold the owner for termMs.
      clearTimeout(termTimer);
      // What the leader left behind in its group is ended too.
      let forgotten: Promise<void> | undefined;
      if (GROUPS && pgid !== undefined && groupAlive(pgid)) {
        signalGroup(pgid, "SIGTERM");
        setTimeout(() => {
          if (groupAlive(pgid)) signalGroup(pgid, "SIGKILL");
          void unregister(handle);
        }, termMs).unref();
      } else forgotten = unregister(handle);
      const exit: ProcessExit = ended !== undefined && lingering ? { code, signal: sig, lingered: true, note: `did not exit within ${seconds(graceMs)} of stdin closing; ${ended}` } : { code, signal: sig };
      // Settles once the last output was read and, when this was the owner's last group, its watcher was reaped.
      void Promise.all([drained(child, drainMs), forgotten]).then(() => resolve(exit));
    });
  });

  const terminate = () => {
    if (!exitedNow && termTimer === undefined) {
      ended ??= "terminated";
      signal("SIGTERM");
      termTimer = setTimeout(() => {
        if (exitedNow) return;
        ended = "killed";
        signal("SIGKILL");
      }, termMs);
    }
    return exited;
  };
  const handle: ManagedProcess & Registered = {
    child,
    exited,
    pgid,
    termMs,
    get hasExited() {
      return exitedNow;
    },
    close() {
      if (closing || exitedNow) return exited;
      closing = true;
      if (child.stdin && !child.stdin.writableEnded) child.stdin.end();
      const grace = () => {
        startGrace = undefined;
        clearTimeout(graceTimer);
        if (graceMs === Infinity) return;
        graceTimer = setTimeout(() => {
          if (exitedNow) return;
          lingering = true;
          void terminate();
        }, graceMs);
      };
      if (spoke || graceMs === Infinity) grace();
      else {
        startGrace = grace;
        graceTimer = setTimeout(grace, startMs);
      }
      return exited;
    },
    heard() {
      spoke = true;
      startGrace?.();
    },
    terminate,
    killSync: () => killGroupsSync([handle]),
  };
  child.stdin?.on("error", () => undefined); // EPIPE from an exiting agent; its exit is reported instead
  if (pgid !== undefined) register(handle);
  return handle;
}

/** The exit status as a shell reports it: the code, or 128 + the signal number. */
export function exitStatus(exit: ProcessExit): number {
  if (exit.error) return 127;
  if (exit.code !== null) return exit.code;
  return 128 + (exit.signal ? (constants.signals[exit.signal] ?? 0) : 0);
}

/** Resolves when stdout and stderr (those that are pipes) closed, or after `ms`; then drops them. */
function drained(child: ChildProcess, ms: number): Promise<void> {
  const streams = [child.stdout, child.stderr].filter((s): s is NonNullable<typeof s> => s !== null && !s.destroyed && !s.readableEnded);
  if (streams.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    let left = streams.length;
    const done = () => {
      if (--left === 0) finish();
    };
    const timer = setTimeout(() => {
      // A grandchild still holds the pipe: what the agent wrote has been read; stop waiting.
      for (const s of streams) s.destroy();
      finish();
    }, ms);
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      resolve();
    };
    for (const s of streams) s.once("close", done);
  });
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function signalGroup(pgid: number, sig: NodeJS.Signals): void {
  killQuietly(-pgid, sig);
}

function killQuietly(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // ESRCH: it is gone.
  }
}

/** True while any process of the group exists (a zombie leader not yet reaped counts). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Ends groups synchronously: SIGTERM to all, wait up to {@link OWNER_EXIT_WAIT_MS} for them to go, SIGKILL to what is left. */
function killGroupsSync(list: readonly { readonly pgid: number | undefined }[]): void {
  const pgids = list.map((e) => e.pgid).filter((p): p is number => p !== undefined);
  if (!GROUPS) {
    for (const p of pgids) killQuietly(p, "SIGKILL");
    return;
  }
  for (const p of pgids) signalGroup(p, "SIGTERM");
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + OWNER_EXIT_WAIT_MS;
  while (pgids.some(groupAlive) && Date.now() < deadline) Atomics.wait(cell, 0, 0, 5);
  for (const p of pgids) signalGroup(p, "SIGKILL");
}

/** What the owner's guard keeps of each live group. */
interface Registered {
  readonly pgid: number | undefined;
  readonly termMs: number;
}

// The owner's guard: live groups, and the process listeners installed while there are any.
const live = new Set<Registered>();
const OWNER_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * The owner is exiting: SIGTERM to every live group now. The watcher holds
 * them all and sends SIGKILL after each one's `termMs`, once this process is
 * gone; without one, this process waits for them and sends it itself.
 */
const onOwnerExit = () => {
  if (GROUPS && watcherRunning()) {
    for (const entry of live) if (entry.pgid !== undefined) signalGroup(entry.pgid, "SIGTERM");
  } else killGroupsSync([...live]);
  live.clear();
};
/**
 * A signal the owner does not handle itself would kill it without an
 * `'exit'` event: end the groups, then die of that signal as it would have.
 * When the owner has its own listener, it decides (and its `process.exit`
 * reaches `onOwnerExit`).
 */
const onOwnerSignal = (sig: NodeJS.Signals) => {
  if (process.listenerCount(sig) > 1) return;
  onOwnerExit();
  uninstall();
  process.kill(process.pid, sig);
};

function register(entry: Registered): void {
  if (live.size === 0) {
    process.on("exit", onOwnerExit);
    for (const s of OWNER_SIGNALS) process.on(s, onOwnerSignal);
  }
  live.add(entry);
  if (GROUPS && entry.pgid !== undefined) watchGroup(entry.pgid, entry.termMs);
}

/** Forgets a group that ended; resolves once the watcher let it go (reaped, when it was the last). */
function unregister(entry: Registered): Promise<void> | undefined {
  if (!live.delete(entry)) return undefined;
  const forgotten = GROUPS && entry.pgid !== undefined ? forgetGroup(entry.pgid) : undefined;
  if (live.size === 0) uninstall();
  return forgotten;
}

function uninstall(): void {
  process.off("exit", onOwnerExit);
  for (const s of OWNER_SIGNALS) process.off(s, onOwnerSignal);
}
