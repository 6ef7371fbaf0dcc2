// Issue 49 item 1: no orphan, whatever kills the owner. A client on acp-router, `acp-router conduct`
// and `acp-router inspect` each own a stubborn agent (it ignores SIGTERM and lingers after EOF; its
// grandchild ignores SIGTERM and SIGHUP and holds its stdout); each owner is killed with SIGKILL, so
// none of its own code runs, and within 3 s nothing of the agent's tree is left, nor the owner's
// watcher (src/transport/process-watcher.ts). Checked in the process table (/proc).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startProcess } from "../../src/transport/process.ts";
import { watcherPid } from "../../src/transport/process-watcher.ts";
import { allGone, groupMembers, stillRunning } from "../support/process-group.ts";
import { tempDir } from "../support/temp.ts";
import { acpRouter, childrenOf, killOutright, lineFrom, pidfile, pidsWritten, startOwner, stub, tsNode } from "./support.ts";

const clientOwner = new URL("./fixtures/client-owner.ts", import.meta.url).pathname;
const stubborn = (file: string) => [process.execPath, stub, `--pidfile=${file}`, "--ignore-term", "--linger", "--stubborn-grandchild"];
const commandLine = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] ?? "";

const owners: readonly (readonly [string, (file: string) => readonly string[], boolean])[] = [
  ["a client on acp-router (spawnAgent + connectClient)", (file) => tsNode(clientOwner, file), true],
  ["acp-router conduct", (file) => acpRouter("conduct", "--", ...stubborn(file)), false],
  ["acp-router inspect", (file) => acpRouter("inspect", "--", ...stubborn(file)), false],
];

describe("an owner killed with SIGKILL", () => {
  for (const [name, command, announces] of owners) {
    it(`${name}: leaves no process of the agent's tree 3 s later, and adds one watcher, no more`, async () => {
      const file = pidfile();
      const owner = startOwner(command(file));
      let tree: number[] = [];
      try {
        const ready = announces ? lineFrom(owner, (l) => l === "ready") : undefined;
        const [agent, grandchild] = (await pidsWritten(file, 2, owner)) as [number, number];
        tree = [agent, grandchild];
        await ready;
        // The agent leads its own group, its grandchild inside it; the owner's one other child is its
        // watcher (tsx's esbuild service, which runs the TypeScript, ends with its pipe to the owner).
        expect(groupMembers(agent).sort()).toEqual([agent, grandchild].sort());
        const children = childrenOf(owner.pid as number);
        expect(children).toContain(agent);
        const helpers = children.filter((p) => p !== agent);
        tree.push(...helpers);
        expect(helpers.map(commandLine).filter((c) => !c.endsWith("/esbuild"))).toEqual(["/bin/sh"]);
        await killOutright(owner);
        expect(await allGone(tree, 3000)).toEqual([]);
        expect(groupMembers(agent)).toEqual([]);
      } finally {
        await killOutright(owner);
        for (const pid of stillRunning(tree)) process.kill(pid, "SIGKILL");
      }
    });
  }
});

/** A mock-agent scenario that ignores SIGTERM, lingers after EOF and starts a stubborn grandchild at once. */
function stubbornScenario(): string {
  const file = join(tempDir("acp-supervision-mock-"), "scenario.json");
  writeFileSync(file, JSON.stringify({ process: ["ignore-term", "linger", "grandchild"], turns: ["hello"] }));
  return file;
}

/** Resolves with the grandchild's pid once the mock agent reported it on the owner's stderr (it inherits the agent's stderr). */
async function grandchildReported(owner: ReturnType<typeof startOwner>): Promise<number> {
  for (let i = 0; i < 1500; i++) {
    const pid = /started a stubborn grandchild \(pid (\d+)\)/.exec(owner.stderrText())?.[1];
    if (pid !== undefined) return Number(pid);
    if (owner.exitCode !== null) throw new Error(`the owner exited (${owner.exitCode}): ${owner.stderrText()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no grandchild reported: ${owner.stderrText()}`);
}

// `acp-router mock-agent`'s own children: the stubborn grandchild its scenario starts (it stays in
// the mock agent's group and holds its stdout), owned through conduct and inspect.
describe("an owner of acp-router mock-agent killed with SIGKILL", () => {
  for (const tool of ["conduct", "inspect"] as const) {
    it(`acp-router ${tool}: leaves nothing of mock-agent's tree (the agent, its grandchild) 3 s later`, async () => {
      const owner = startOwner(acpRouter(tool, "--", ...acpRouter("mock-agent", "--protocol", "1", "--script", stubbornScenario())));
      let tree: number[] = [];
      try {
        const grandchild = await grandchildReported(owner);
        const children = childrenOf(owner.pid as number);
        const agents = children.filter((p) => commandLine(p) === process.execPath);
        expect(agents).toHaveLength(1);
        const agent = agents[0] as number;
        // The grandchild is in the mock agent's group (with tsx's esbuild service, if it runs the agent).
        const group = groupMembers(agent);
        expect(group).toContain(grandchild);
        // `sh -c "trap …; exec sleep 3600"`: it reads "sh" until the exec, which a loaded machine may not have reached yet.
        for (let i = 0; i < 250 && commandLine(grandchild) === "sh"; i++) await new Promise((r) => setTimeout(r, 20));
        expect(commandLine(grandchild)).toBe("sleep");
        tree = [...new Set([...group, ...children])];
        expect(
          children
            .filter((p) => p !== agent)
            .map(commandLine)
            .filter((c) => !c.endsWith("/esbuild")),
        ).toEqual(["/bin/sh"]);
        await killOutright(owner);
        expect(await allGone(tree, 3000)).toEqual([]);
        expect(groupMembers(agent)).toEqual([]);
      } finally {
        await killOutright(owner);
        for (const pid of stillRunning(tree)) process.kill(pid, "SIGKILL");
      }
    });
  }
});

describe("the owner's watcher", () => {
  it("is one per owner: a second agent is told to the same watcher, and it exits once the last group ended", async () => {
    const first = startProcess(process.execPath, [stub], { graceMs: 1000 });
    const watcher = watcherPid() as number;
    expect(stillRunning([watcher])).toEqual([watcher]);
    const second = startProcess(process.execPath, [stub], { graceMs: 1000 });
    expect(watcherPid()).toBe(watcher);
    expect(await first.close()).toStrictEqual({ code: 0, signal: null });
    expect(stillRunning([watcher])).toEqual([watcher]);
    expect(await second.close()).toStrictEqual({ code: 0, signal: null });
    expect(watcherPid()).toBeUndefined();
    expect(await allGone([watcher])).toEqual([]);
  });

  it("is replaced when it is killed while the owner lives, and the new one holds the live groups", async () => {
    const file = pidfile();
    const p = startProcess(process.execPath, stubborn(file).slice(1), { graceMs: 100, termMs: 300, startMs: 0 });
    const pids = await pidsWritten(file, 2);
    const old = watcherPid() as number;
    process.kill(old, "SIGKILL");
    for (let i = 0; i < 250 && (watcherPid() === old || watcherPid() === undefined); i++) await new Promise((r) => setTimeout(r, 20));
    const replacement = watcherPid() as number;
    expect(replacement).not.toBe(old);
    expect(stillRunning([replacement])).toEqual([replacement]);
    // The replacement was told of the live group: ending the agent ends the watcher too.
    expect(await p.close()).toMatchObject({ signal: "SIGKILL", lingered: true });
    expect(await allGone([...pids, old, replacement])).toEqual([]);
  });
});
