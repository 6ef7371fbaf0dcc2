/**
 * How the agent ended, measured when check closes its stdin, for the
 * report's section apart from the spec rows ("how the agent ended"): the
 * time from the stdin closing to the agent's exit, and every process it left
 * behind at that exit — the rest of its process group, and (on Linux, from
 * /proc) its descendants that left the group (`setsid`, a daemonizing
 * launcher). No requirement of the spec is judged here: an editor waits on
 * these, so they are shown as measurements. Check ends what was left: the
 * group with SIGTERM then SIGKILL (src/transport/process.ts), and a
 * descendant that left the group with SIGKILL, checked by its start time so a
 * reused pid is never hit.
 */
import { readdirSync, readFileSync } from "node:fs";
import type { ManagedProcess, ProcessExit } from "../../src/transport/process.ts";

/** One process the agent left running when it exited. */
export interface LeftBehind {
  readonly pid: number;
  /** Its command name (`comm`). */
  readonly command: string;
  /** `group`: still in the agent's process group (ended with it); `left the group`: a descendant that called setsid or setpgid (ended by check with SIGKILL). */
  readonly where: "group" | "left the group";
}

/** The report's "how the agent ended" section. */
export interface AgentEnding {
  /** Milliseconds from check closing the agent's stdin to its exit; absent when it had exited before. */
  readonly exitMs?: number;
  /** The exit: `code 0`, `signal SIGTERM`, with what check did (`after the grace period: terminated`). */
  readonly exit: string;
  /** The processes it left running at its exit; absent where they cannot be listed (no /proc). */
  readonly leftBehind?: readonly LeftBehind[];
}

/** A process seen in /proc: its pid, process group, start time (clock ticks since boot, to tell a reused pid) and command name. */
interface Seen {
  readonly pid: number;
  readonly ppid: number;
  readonly pgrp: number;
  readonly start: string;
  readonly command: string;
}

function readProc(pid: number): Seen | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    const fields = stat.slice(close + 2).split(" ");
    if (fields[0] === "Z" || fields[0] === "X") return undefined;
    return { pid, ppid: Number(fields[1]), pgrp: Number(fields[2]), start: fields[19] ?? "", command: stat.slice(stat.indexOf("(") + 1, close) };
  } catch {
    return undefined;
  }
}

function allProcesses(): Seen[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  return names.filter((n) => /^\d+$/.test(n)).flatMap((n) => readProc(Number(n)) ?? []);
}

/** `pid`'s descendants now, by parent links. */
function descendants(pid: number): Seen[] {
  const all = allProcesses();
  const out: Seen[] = [];
  const parents = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) {
      if (parents.has(p.ppid) && !parents.has(p.pid)) {
        parents.add(p.pid);
        out.push(p);
        grew = true;
      }
    }
  }
  return out;
}

/** Watches the agent's end: call `stdinClosing` just before check closes its stdin, `result` once the close settled. */
export function watchEnding(proc: ManagedProcess): { stdinClosing(): void; result(end: ProcessExit): AgentEnding } {
  const pid = proc.child.pid;
  const listable = process.platform === "linux" && pid !== undefined && readProc(process.pid) !== undefined;
  let closedAt: number | undefined;
  let exitAt: number | undefined;
  let known: Seen[] = [];
  let left: Seen[] | undefined;
  const onExit = () => {
    exitAt = performance.now();
    if (!listable || pid === undefined) return;
    // Before process.ts signals the rest of the group (this listener runs first): what is still there was left behind.
    const inGroup = allProcesses().filter((p) => p.pgrp === pid && p.pid !== pid);
    const escaped = known.filter((k) => k.pgrp !== pid && readProc(k.pid)?.start === k.start);
    left = [...inGroup, ...escaped.filter((e) => !inGroup.some((g) => g.pid === e.pid))];
  };
  return {
    stdinClosing() {
      if (proc.hasExited) return;
      closedAt = performance.now();
      if (listable && pid !== undefined) known = descendants(pid);
      proc.child.prependOnceListener("exit", onExit);
    },
    result(end) {
      const how = end.error !== undefined ? `not started (${end.error.message})` : end.code !== null ? `code ${end.code}` : `signal ${end.signal ?? "?"}`;
      const exit = closedAt === undefined ? `${how}, before check closed its stdin` : end.note !== undefined ? `${how}: it ${end.note} by check` : how;
      const leftBehind = left?.map((p): LeftBehind => ({ pid: p.pid, command: p.command, where: p.pgrp === pid ? "group" : "left the group" }));
      // What left the group is not reached by the group's signals: check started it, check ends it.
      for (const p of left ?? []) if (p.pgrp !== pid && readProc(p.pid)?.start === p.start) killQuietly(p.pid);
      return { ...(closedAt !== undefined && exitAt !== undefined ? { exitMs: Math.round(exitAt - closedAt) } : {}), exit, ...(leftBehind !== undefined ? { leftBehind } : {}) };
    },
  };
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // gone meanwhile
  }
}

/** The section as text lines, for the text scorecard. */
export function renderEnding(ending: AgentEnding): string[] {
  const out = ["how the agent ended (measured; not a spec requirement):"];
  out.push(ending.exitMs !== undefined ? `  exited ${ending.exitMs} ms after check closed its stdin: ${ending.exit}` : `  exit: ${ending.exit}`);
  if (ending.leftBehind === undefined) out.push("  processes left behind: not listed (no /proc on this system)");
  else if (ending.leftBehind.length === 0) out.push("  processes left behind: none");
  else for (const p of ending.leftBehind) out.push(`  left behind: pid ${p.pid} (${p.command}), ${p.where === "group" ? "in its process group; ended with the group" : "outside its process group (setsid); ended by check"}`);
  return out;
}
