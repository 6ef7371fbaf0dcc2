/**
 * Figure (18), supervision (docs/supervision.md, issue 49): its costs and
 * reaction times, each a median over rounds (peer `ours`; there is no peer:
 * neither official SDK supervises an agent).
 *
 * - the owner's watcher: the first agent's start (the watcher is spawned
 *   then) against a second agent's (it is running), its resident and
 *   proportional memory, and the processes it adds;
 * - an agent exiting mid-turn: from the agent's exit to the prompt's
 *   rejection (and with a grandchild holding its stdout);
 * - the watchdog: a silent agent's prompt, sent with `silenceMs: 1000`, to
 *   its rejection;
 * - an owner killed with SIGKILL — a client on acp-router,
 *   `acp-router conduct`, `acp-router inspect` — that owns a stubborn agent
 *   (it ignores SIGTERM and lingers; its grandchild ignores SIGTERM and
 *   SIGHUP): from the kill to the last process of the agent's tree gone
 *   (default termMs, 1000 ms).
 *
 * Each round's outcome is checked (the exit code named, the watchdog's error,
 * the tree gone), so a figure is never the time of something else.
 *
 *   npm run bench -- --figures=supervision   (or: node --import tsx bench/supervision.ts [--rounds=N] [--quick])
 *
 * Linux only (it reads /proc). Quote the load average with the figures.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ConnectionClosedError, UnresponsiveError, connectClient } from "../src/index.ts";
import { startProcess } from "../src/transport/process.ts";
import { watcherPid } from "../src/transport/process-watcher.ts";
import { AgentExitedError, spawnAgent } from "../src/transport/stdio.ts";
import { QUICK, Recorder, arg, emit } from "./lib/harness.ts";

const ROUNDS = Number(arg("rounds") ?? (QUICK ? 3 : 20));
/** Rounds of the slow cases (a watchdog second, a SIGKILLed owner's termMs): at most this many. */
const SLOW_ROUNDS = Math.min(ROUNDS, QUICK ? 2 : 7);
const ROOT = fileURLToPath(new URL("../", import.meta.url));
const stub = join(ROOT, "test", "supervision", "fixtures", "stub.mjs");
const clientOwner = join(ROOT, "test", "supervision", "fixtures", "client-owner.ts");
const bin = join(ROOT, "bin", "acp-router.ts");
const handler = { requestPermission: () => ({ outcome: { outcome: "cancelled" as const } }), sessionUpdate: () => undefined };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rec = new Recorder();
const maxima = new Map<string, number>();

/** Records one round's value of `caseName`, keeping its maximum for the notes. */
function add(caseName: string, value: number): void {
  rec.add(caseName, "ours", value);
  maxima.set(caseName, Math.max(maxima.get(caseName) ?? -Infinity, value));
}

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

/** First agent (spawns the watcher) against second agent (watcher running), and the watcher's memory. */
async function watcherCost(): Promise<void> {
  let one = true;
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    const a = startProcess("sleep", ["30"], { graceMs: 0, startMs: 0 });
    const t1 = performance.now();
    const b = startProcess("sleep", ["30"], { graceMs: 0, startMs: 0 });
    const t2 = performance.now();
    add("first agent's start, spawning the watcher (ms)", t1 - t0);
    add("second agent's start, watcher running (ms)", t2 - t1);
    const w = watcherPid() as number;
    await sleep(50);
    add("watcher resident memory, VmRSS (KiB)", kib(w, "status", "VmRSS"));
    add("watcher proportional memory, Pss (KiB)", kib(w, "smaps_rollup", "Pss"));
    await Promise.all([a.terminate(), b.terminate()]);
    // One watcher per owner, gone with the last group.
    one &&= watcherPid() === undefined && !alive(w);
  }
  rec.verify("one watcher per owner, gone with the owner's last agent", one);
}

/** From the agent's exit to the prompt's rejection, which must name the exit code. */
async function exitMidTurn(onPrompt: string, code: number, caseName: string): Promise<void> {
  let named = true;
  for (let i = 0; i < ROUNDS; i++) {
    const agent = spawnAgent(process.execPath, [stub, `--on-prompt=${onPrompt}`, "--stderr-lines=2"], { stderr: "capture" });
    let exitAt = 0;
    agent.child.once("exit", () => (exitAt = performance.now()));
    const conn = connectClient(handler, agent.transport);
    await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await conn.agent.newSession({ cwd: tmpdir(), mcpServers: [] });
    const error = await conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hi" }] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    add(caseName, performance.now() - exitAt);
    const cause = error instanceof ConnectionClosedError ? error.cause : undefined;
    named &&= cause instanceof AgentExitedError && cause.exitCode === code && cause.stderrTail.endsWith("stub stderr line 2");
    await agent.exited;
  }
  rec.verify(`${onPrompt}: the prompt rejected naming exit code ${code} with the stderr tail`, named);
}

/** A silent agent's prompt with `watchdog: { silenceMs: 1000 }`, from sending to rejection. */
async function watchdog(): Promise<void> {
  let unresponsive = true;
  for (let i = 0; i < SLOW_ROUNDS; i++) {
    const agent = spawnAgent(process.execPath, [stub, "--on-prompt=silent"], { stderr: "capture", watchdog: { silenceMs: 1000 } });
    const conn = connectClient(handler, agent.transport);
    await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await conn.agent.newSession({ cwd: tmpdir(), mcpServers: [] });
    const t0 = performance.now();
    const error = await conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hi" }] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    add("silent agent's prompt, watchdog silenceMs 1000: sent to rejected (ms)", performance.now() - t0);
    unresponsive &&= error instanceof UnresponsiveError;
    conn.close();
    await agent.exited;
  }
  rec.verify("watchdog: the silent prompt rejected with UnresponsiveError", unresponsive);
}

/** An owner of a stubborn agent, killed with SIGKILL: from the kill to the agent's whole tree gone. */
async function ownerKilled(name: string, command: (pidfile: string) => readonly string[]): Promise<void> {
  let gone = true;
  for (let i = 0; i < SLOW_ROUNDS; i++) {
    const file = join(mkdtempSync(join(tmpdir(), "acp-bench-sup-")), "pids");
    const [exe, ...args] = command(file) as [string, ...string[]];
    const child = spawn(exe, args, { cwd: ROOT, stdio: ["pipe", "ignore", "ignore"] });
    let pids: number[] = [];
    while (pids.length < 2) {
      try {
        pids = readFileSync(file, "utf8").split("\n").filter(Boolean).map(Number);
      } catch {
        // not written yet
      }
      await sleep(10);
    }
    // The stub wrote its pids before it read a line: let the owner settle (its first message, the watcher told).
    await sleep(300);
    const t0 = performance.now();
    child.kill("SIGKILL");
    while (pids.some(alive) && performance.now() - t0 < 10_000) await sleep(5);
    add(`${name} SIGKILLed: kill to the agent's tree gone (ms)`, performance.now() - t0);
    gone &&= !pids.some(alive);
    for (const pid of pids.filter(alive)) process.kill(pid, "SIGKILL");
  }
  rec.verify(`${name} SIGKILLed: nothing of the agent's tree left`, gone);
}

const stubborn = (file: string) => [process.execPath, stub, `--pidfile=${file}`, "--ignore-term", "--linger", "--stubborn-grandchild"];
const loadAtStart = loadavg()[0]?.toFixed(2);
await watcherCost();
await exitMidTurn("die", 3, "agent exits mid-turn: its exit to the prompt's rejection (ms)");
await exitMidTurn("exit-holding-stdout", 5, "agent exits mid-turn, a grandchild holding its stdout: exit to rejection (ms)");
await watchdog();
await ownerKilled("a client on acp-router", (file) => [process.execPath, "--import", "tsx", clientOwner, file]);
await ownerKilled("acp-router conduct", (file) => [process.execPath, "--import", "tsx", bin, "conduct", "--", ...stubborn(file)]);
await ownerKilled("acp-router inspect", (file) => [process.execPath, "--import", "tsx", bin, "inspect", "--", ...stubborn(file)]);
rec.notes.push("processes added: 1 per owner process (the watcher, /bin/sh), 0 per agent");
rec.notes.push(`maxima: ${[...maxima].map(([c, v]) => `${c.replace(/ \((ms|KiB)\)$/, "")} ${v.toFixed(1)}`).join("; ")}`);
rec.notes.push(`load average (1 min): ${loadAtStart} at the start, ${loadavg()[0]?.toFixed(2)} at the end`);
emit(rec.result({ figure: "supervision", title: "Supervision: reaction times (ms) and the watcher's memory (KiB)", unit: "ms | KiB", better: "lower", rounds: ROUNDS }));
