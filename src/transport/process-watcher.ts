/**
 * The owner's watcher: one small `/bin/sh` process per owner (not per
 * agent) that ends the agents' process groups when the owner dies by any
 * cause, SIGKILL and an out-of-memory kill included. A process killed with
 * SIGKILL runs no code of its own, so the guarantee has to live outside it:
 * the watcher reads a pipe whose only writer is the owner, and the kernel
 * closes that pipe when the owner ends, however it ends. At end of input it
 * sends SIGTERM to every group it was told about, waits up to each group's
 * `termMs` for it to go, and sends SIGKILL to what is left (src/transport/process.ts).
 *
 * The owner tells it, one line each: `+ PGID TERMMS` (watch a group),
 * `- PGID` (the group is gone, forget it). When the owner has no group left
 * it kills the watcher (it holds nothing then); the next agent starts a new one. The watcher runs in its own
 * session (`detached`), so a terminal's Ctrl-C or hang-up, meant for the
 * owner's process group, never reaches it; it also ignores SIGINT, SIGHUP
 * and SIGQUIT. Its stdin is a pipe marked close-on-exec by libuv, so no
 * other child of the owner (an agent included) holds it open.
 *
 * Why a shell script rather than a Node process: it costs one `sh`
 * (about 1 MB resident, a few ms to start) where Node would cost 40 MB and
 * 40 ms; why not `PR_SET_PDEATHSIG`: Node cannot set it, it reaches only
 * the direct child (not `npx`'s or `sh -c`'s children) and it has no
 * SIGTERM-then-SIGKILL grace; why not pidfd: the owner is the one that dies.
 * Linux and macOS (any POSIX `sh` with `kill` and a `sleep` that takes
 * fractions); never started on Windows, which has no process groups.
 * The figures are in docs/supervision.md.
 */
import { spawn, type ChildProcess } from "node:child_process";

/**
 * The watcher's program. `kill -SIG -PGID` without `--` and `kill -0 -PGID`
 * are the forms dash, bash and zsh's sh mode all read as a group. It polls
 * every 50 ms after SIGTERM; a group whose `termMs` ran out gets SIGKILL
 * and is not looked at again (a zombie leader nobody reaps would otherwise
 * keep it waiting forever).
 */
const WATCHER_SCRIPT = `trap '' INT HUP QUIT
groups=""
while read -r op pg ms; do
  case $op in
    +) groups="$groups $pg:$ms" ;;
    -) kept=""; for g in $groups; do [ "\${g%%:*}" = "$pg" ] || kept="$kept $g"; done; groups=$kept ;;
  esac
done
for g in $groups; do kill -TERM "-\${g%%:*}" 2>/dev/null; done
t=0
while [ -n "$groups" ]; do
  alive=""
  for g in $groups; do
    if kill -0 "-\${g%%:*}" 2>/dev/null; then
      if [ "$t" -ge "\${g#*:}" ]; then kill -KILL "-\${g%%:*}" 2>/dev/null; else alive="$alive $g"; fi
    fi
  done
  groups=$alive
  [ -n "$groups" ] || break
  sleep 0.05
  t=$((t + 50))
done
`;

/** The shell the watcher runs in: POSIX `sh` at its fixed path, so no `PATH` lookup can swap it. */
const SHELL = "/bin/sh";

/** A group the watcher must end if the owner dies, with its SIGTERM → SIGKILL wait. */
interface Watched {
  readonly pgid: number;
  readonly termMs: number;
}

/**
 * The watcher of this process and the groups it was told about. One per
 * owner process by nature (the groups are the owner's, whichever
 * connection started them); undefined while no group is watched.
 */
let watcher: { readonly child: ChildProcess; ok: boolean } | undefined;
/** The groups to hand to a watcher (again, if one dies while the owner lives). */
const watched = new Map<number, Watched>();
/** Set once starting a watcher failed (no `/bin/sh`): the owner's in-process guard is all there is. */
let unavailable = process.platform === "win32";

/** Asks the watcher to end group `pgid` (SIGTERM, then SIGKILL after `termMs`) if this process dies first. */
export function watchGroup(pgid: number, termMs: number): void {
  if (unavailable) return;
  const entry = { pgid, termMs: Number.isFinite(termMs) ? Math.max(0, Math.round(termMs)) : 0 };
  watched.set(pgid, entry);
  if (watcher === undefined) start();
  else send(`+ ${entry.pgid} ${entry.termMs}\n`);
}

/**
 * The group ended: the watcher forgets it. With no group left the watcher
 * is ended (it holds nothing then), and the promise settles once it is
 * reaped, so an owner whose last agent's `exited` settled has no process of
 * ours left, not even a zombie; the next agent starts a new watcher.
 */
export function forgetGroup(pgid: number): Promise<void> {
  if (!watched.delete(pgid) || watcher === undefined) return DONE;
  if (watched.size > 0) {
    send(`- ${pgid}\n`);
    return DONE;
  }
  const entry = watcher;
  watcher = undefined;
  if (!entry.ok) return DONE;
  const reaped = new Promise<void>((resolve) => entry.child.once("exit", () => resolve()));
  // Held until reaped, so this process does not end first and leave the zombie to init.
  entry.child.ref();
  entry.child.stdin?.destroy();
  entry.child.kill("SIGKILL");
  return reaped;
}

const DONE: Promise<void> = Promise.resolve();

/**
 * True while a watcher holds every group this process started: when this
 * process then exits, SIGTERM now is enough, and the watcher sends SIGKILL
 * after each group's `termMs`.
 */
export function watcherRunning(): boolean {
  return watcher !== undefined && watcher.ok;
}

/** The watcher's pid, or undefined when none runs (for tests and `docs/supervision.md`'s measurements). */
export function watcherPid(): number | undefined {
  return watcher?.child.pid;
}

function start(): void {
  let child: ChildProcess;
  try {
    child = spawn(SHELL, ["-c", WATCHER_SCRIPT], { stdio: ["pipe", "ignore", "ignore"], detached: true });
  } catch {
    unavailable = true;
    return;
  }
  const entry = { child, ok: child.pid !== undefined };
  watcher = entry;
  // Neither the watcher nor its pipe keeps this process alive: the owner exits when its own work is done.
  child.unref();
  (child.stdin as (NonNullable<ChildProcess["stdin"]> & { unref?: () => void }) | null)?.unref?.();
  child.stdin?.on("error", () => undefined); // EPIPE if it died; its exit below starts a new one
  child.once("error", () => {
    // It could not be started (no /bin/sh): the in-process guard of process.ts is all there is.
    if (watcher === entry) watcher = undefined;
    entry.ok = false;
    unavailable = true;
  });
  child.once("exit", () => {
    entry.ok = false;
    if (watcher !== entry) return;
    // Killed while this process lives: a new watcher takes over every group still watched.
    watcher = undefined;
    if (watched.size > 0 && !unavailable) start();
  });
  if (!entry.ok) return;
  send([...watched.values()].map((w) => `+ ${w.pgid} ${w.termMs}\n`).join(""));
}

/** Writes to the watcher's stdin: libuv writes a pipe at once when nothing is queued, so the line is in the kernel before the call returns. */
function send(text: string): void {
  watcher?.child.stdin?.write(text);
}
