/** Process-group lookups for the lifecycle tests (Linux `/proc`, as `ps -o pid= -g PGID` would list them). */
import { readdirSync, readFileSync } from "node:fs";

/** The live (not zombie) processes whose process group is `pgid`. */
export function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // it exited while we looked
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so split after the last ")".
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z" && state !== "X") out.push(Number(name));
  }
  return out;
}

/** Polls until the group has no live process or `ms` passed; returns what is left. */
export async function groupGone(pgid: number, ms = 3000): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = groupMembers(pgid);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The pids listed in a stub agent's `--pidfile`. */
export function pidsIn(file: string): number[] {
  try {
    return readFileSync(file, "utf8").split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Those of `pids` still running (zombies count as gone). */
export function stillRunning(pids: readonly number[]): number[] {
  return pids.filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
      return state !== "Z" && state !== "X";
    } catch {
      return false;
    }
  });
}

/** Polls until none of `pids` runs or `ms` passed; returns those still running. */
export async function allGone(pids: readonly number[], ms = 3000): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = stillRunning(pids);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 20));
  }
}
