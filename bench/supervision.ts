/**
 * The measured costs and reaction times of supervision (docs/supervision.md,
 * issue 49); not one of `bench/run.ts`'s figures — it prints a table and a
 * JSON line of its own:
 *
 * - the owner's watcher: how long the first agent's start takes with it
 *   (the watcher is spawned then) against a second agent's (it is running),
 *   its resident and proportional memory, and the processes it adds;
 * - an agent exiting mid-turn: from the agent's exit to the prompt's
 *   rejection (and with a grandchild holding its stdout);
 * - the watchdog: a silent agent's prompt, sent with `silenceMs: 1000`, to
 *   its rejection;
 * - a client killed with SIGKILL that owns a stubborn agent (it ignores
 *   SIGTERM, its grandchild ignores SIGTERM and SIGHUP): from the kill to
 *   the last process of the agent's tree gone (default termMs, 1000 ms).
 *
 *   node --import tsx bench/supervision.ts [--rounds=N]
 *
 * Linux only (it reads /proc). Quote the load average with the figures.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { mkdtempSync } from "node:fs";
import { connectClient } from "../src/index.ts";
import { startProcess } from "../src/transport/process.ts";
import { watcherPid } from "../src/transport/process-watcher.ts";
import { spawnAgent } from "../src/transport/stdio.ts";
import { arg, median } from "./lib/harness.ts";

const ROUNDS = Number(arg("rounds") ?? 20);
const stub = fileURLToPath(new URL("../test/supervision/fixtures/stub.mjs", import.meta.url));
const owner = fileURLToPath(new URL("../test/supervision/fixtures/client-owner.ts", import.meta.url));
const handler = { requestPermission: () => ({ outcome: { outcome: "cancelled" as const } }), sessionUpdate: () => undefined };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

function kib(pid: number, file: string, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/${file}`, "utf8"));
  return Number(m?.[1] ?? Number.NaN);
}

const stats = (xs: readonly number[]) => ({ median: Math.round(median(xs) * 10) / 10, max: Math.round(Math.max(...xs) * 10) / 10, n: xs.length });

/** First agent (spawns the watcher) against second agent (watcher running), and the watcher's memory. */
async function watcherCost() {
  const first: number[] = [];
  const second: number[] = [];
  const rss: number[] = [];
  const pss: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    const a = startProcess("sleep", ["30"], { graceMs: 0, startMs: 0 });
    const t1 = performance.now();
    const b = startProcess("sleep", ["30"], { graceMs: 0, startMs: 0 });
    const t2 = performance.now();
    first.push(t1 - t0);
    second.push(t2 - t1);
    const w = watcherPid() as number;
    await sleep(50);
    rss.push(kib(w, "status", "VmRSS"));
    pss.push(kib(w, "smaps_rollup", "Pss"));
    await Promise.all([a.terminate(), b.terminate()]);
  }
  return { firstStartMs: stats(first), secondStartMs: stats(second), watcherRssKiB: stats(rss), watcherPssKiB: stats(pss), processesPerOwner: 1, processesPerAgent: 0 };
}

/** From the agent's exit to the prompt's rejection. */
async function exitMidTurn(onPrompt: string) {
  const settle: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const agent = spawnAgent(process.execPath, [stub, `--on-prompt=${onPrompt}`], { stderr: "capture" });
    let exitAt = 0;
    agent.child.once("exit", () => (exitAt = performance.now()));
    const conn = connectClient(handler, agent.transport);
    await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await conn.agent.newSession({ cwd: tmpdir(), mcpServers: [] });
    await conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hi" }] }).catch(() => undefined);
    settle.push(performance.now() - exitAt);
    await agent.exited;
  }
  return stats(settle);
}

/** A silent agent's prompt with `watchdog: { silenceMs: 1000 }`, from sending to rejection. */
async function watchdog() {
  const settle: number[] = [];
  for (let i = 0; i < Math.min(ROUNDS, 5); i++) {
    const agent = spawnAgent(process.execPath, [stub, "--on-prompt=silent"], { stderr: "capture", watchdog: { silenceMs: 1000 } });
    const conn = connectClient(handler, agent.transport);
    await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await conn.agent.newSession({ cwd: tmpdir(), mcpServers: [] });
    const t0 = performance.now();
    await conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hi" }] }).catch(() => undefined);
    settle.push(performance.now() - t0);
    conn.close();
    await agent.exited;
  }
  return stats(settle);
}

/** A client owning a stubborn agent, killed with SIGKILL: from the kill to the agent's whole tree gone. */
async function ownerKilled() {
  const gone: number[] = [];
  for (let i = 0; i < Math.min(ROUNDS, 5); i++) {
    const file = join(mkdtempSync(join(tmpdir(), "acp-bench-sup-")), "pids");
    const child = spawn(process.execPath, ["--import", "tsx", owner, file], { stdio: ["pipe", "pipe", "inherit"] });
    await new Promise<void>((resolve) => child.stdout.setEncoding("utf8").on("data", (d: string) => d.includes("ready") && resolve()));
    let pids: number[] = [];
    while (pids.length < 2) {
      pids = readFileSync(file, "utf8").split("\n").filter(Boolean).map(Number);
      await sleep(10);
    }
    const t0 = performance.now();
    child.kill("SIGKILL");
    while (pids.some(alive)) await sleep(5);
    gone.push(performance.now() - t0);
  }
  return stats(gone);
}

const load = loadavg().map((l) => l.toFixed(2)).join(" ");
const result = {
  figure: "supervision",
  loadAtStart: load,
  watcher: await watcherCost(),
  exitMidTurnMs: await exitMidTurn("die"),
  exitHoldingStdoutMs: await exitMidTurn("exit-holding-stdout"),
  watchdog1000Ms: await watchdog(),
  ownerSigkillTreeGoneMs: await ownerKilled(),
  loadAtEnd: loadavg().map((l) => l.toFixed(2)).join(" "),
};
process.stderr.write(`${JSON.stringify(result, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(result)}\n`);
