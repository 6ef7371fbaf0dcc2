/**
 * Figure 16 — `acp-router inspect` saturated: the outside driver's case.
 * A raw driver (this process) opens 256 sessions on a small-message agent
 * (lib/ref-agent.ts: two one-line updates, then the answer) and keeps one
 * `"hello"` prompt in flight per session, so the driver, the agent and the
 * process between them all want the two cores. The process between them is
 * a bare byte relay (lib/relay.ts), `inspect` (its analysis thread
 * included), or the parse floor (lib/parse-relay.ts: a relay that also
 * `JSON.parse`s every line on a thread at the analysis thread's priority,
 * and does nothing else), in the same rounds, in rotating order. The three
 * processes stay up across the rounds, so this is the steady state, past
 * inspect's start, and before each round every process between waits until
 * it is idle, so no peer's put-off work runs in another's round. Prints prompts/s, the same-round ratios to the relay
 * (issue 31's target for inspect ≥ 0.9×; the parse floor's ratio is the most
 * any inspector that parses what it forwards could reach here), and the CPU
 * time the process between spends per message it forwards (utime + stime
 * of all its threads, from /proc; four messages cross it per prompt: the
 * prompt, two updates, the answer), each peer's.
 *
 *   node --expose-gc --import tsx bench/inspect-saturated.ts [--quick] [--prompts=20000]
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { addRoundRatios, arg, emit, QUICK, Recorder, rotate } from "./lib/harness.ts";

const SESSIONS = 256;
const PROMPTS = Number(arg("prompts") ?? (QUICK ? 4_000 : 20_000));
const ROUNDS = QUICK ? 1 : 5;
const MESSAGES_PER_PROMPT = 4;
const CASE = `"hello" prompts, one in flight per session, ${SESSIONS} sessions, two updates + answer each`;
const tsxNode = (file: string) => [process.execPath, "--import", "tsx", fileURLToPath(new URL(file, import.meta.url))];
const agent = tsxNode("./lib/ref-agent.ts");
const inspectMain = pathToFileURL(fileURLToPath(new URL("../tools/inspect/main.ts", import.meta.url))).href;
const summaryFile = join(tmpdir(), `acp-inspect-saturated-${process.pid}.json`);
// Under bench/profile.ts (BENCH_PROFILE_DIR set), inspect writes CPU profiles of its threads there.
const profile = process.env.BENCH_PROFILE_DIR ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_PROFILE_DIR] : [];
const inspect = [process.execPath, ...profile, "--import", "tsx", "--input-type=module", "-e", `import { inspectMain } from ${JSON.stringify(inspectMain)}; process.exit(await inspectMain(process.argv.slice(1)));`, "--", "--summary", summaryFile, "--", ...agent];
const relay = [...tsxNode("./lib/relay.ts"), ...agent];
const parseRelay = [...tsxNode("./lib/parse-relay.ts"), ...agent];
const [RELAY, INSPECT, PARSE] = ["relay", "ours (inspect)", "parse floor (relay + JSON.parse on a thread)"] as const;
const TICKS = 100; // USER_HZ on Linux

/** CPU seconds of one /proc stat file (utime + stime). */
function statSeconds(file: string): number {
  const fields = readFileSync(file, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

/** CPU seconds of process `pid` so far: all threads, and its main thread alone (the one forwarding bytes). */
function cpuSeconds(pid: number): { all: number; main: number } {
  return { all: statSeconds(`/proc/${pid}/stat`), main: statSeconds(`/proc/${pid}/task/${pid}/stat`) };
}

/**
 * Waits until none of `pids` used CPU for 100 ms (at most 10 s), so work a
 * process put off during its round (inspect's analysis thread runs at a
 * lower priority and may lag behind) is done, and counted, before the next
 * peer's round starts rather than during it.
 */
async function settle(pids: readonly number[]): Promise<void> {
  const total = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid).all, 0);
  const until = Date.now() + 10_000;
  let before = total();
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = total();
    if (now === before) return;
    before = now;
  }
}

/** One process between the driver and the agent: sessions opened, prompts driven on demand. */
async function open(command: readonly string[]) {
  const child = spawn(command[0] as string, command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
  const waiters = new Map<number, (m: { result?: { sessionId?: string; stopReason?: string } }) => void>();
  let buffer = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    buffer += d;
    let i: number;
    while ((i = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      if (line.includes('"method"')) continue; // an update
      const m = JSON.parse(line) as { id: number; result?: { sessionId?: string; stopReason?: string } };
      waiters.get(m.id)?.(m);
      waiters.delete(m.id);
    }
  });
  let nextId = 0;
  const call = (method: string, params: object) =>
    new Promise<{ result?: { sessionId?: string; stopReason?: string } }>((resolve) => {
      const id = nextId++;
      waiters.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  await call("initialize", { protocolVersion: 1, clientCapabilities: {} });
  const sessions: string[] = [];
  for (let k = 0; k < SESSIONS; k++) sessions.push((await call("session/new", { cwd: tmpdir(), mcpServers: [] })).result?.sessionId as string);
  let bad = 0;
  /** Runs `count` prompts, one in flight per session; resolves with seconds taken. */
  const run = (count: number) =>
    new Promise<number>((resolve) => {
      const start = process.hrtime.bigint();
      let sent = 0;
      let done = 0;
      const turn = (sessionId: string) => {
        if (sent === count) return;
        sent++;
        void call("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] }).then((m) => {
          if (m.result?.stopReason !== "end_turn") bad++;
          if (++done === count) resolve(Number(process.hrtime.bigint() - start) / 1e9);
          else turn(sessionId);
        });
      };
      for (const s of sessions) turn(s);
    });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { pid: child.pid as number, run, bad: () => bad, close: () => (child.stdin.end(), exited) };
}

const rec = new Recorder();
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const loadBefore = existsSync("/proc/loadavg") ? load() : undefined;
const between = { [RELAY]: await open(relay), [INSPECT]: await open(inspect), [PARSE]: await open(parseRelay) };
for (const peer of Object.values(between)) await peer.run(SESSIONS * 2); // warm-up
const pids = Object.values(between).map((peer) => peer.pid);
const cpuPerMessage: Record<string, number[]> = { [RELAY]: [], [INSPECT]: [], [PARSE]: [] };
const mainPerMessage: Record<string, number[]> = { [RELAY]: [], [INSPECT]: [], [PARSE]: [] };
let prompts = SESSIONS * 2;
for (let round = 0; round < ROUNDS; round++) {
  for (const name of rotate(Object.keys(between), round)) {
    const peer = between[name as keyof typeof between];
    await settle(pids);
    (globalThis as { gc?: () => void }).gc?.();
    const cpu = cpuSeconds(peer.pid);
    const s = await peer.run(PROMPTS);
    // CPU per message counts what the process did for this round, put-off work included.
    await settle([peer.pid]);
    const after = cpuSeconds(peer.pid);
    cpuPerMessage[name]?.push(((after.all - cpu.all) / (PROMPTS * MESSAGES_PER_PROMPT)) * 1e6);
    mainPerMessage[name]?.push(((after.main - cpu.main) / (PROMPTS * MESSAGES_PER_PROMPT)) * 1e6);
    rec.add(CASE, name, PROMPTS / s);
  }
  prompts += PROMPTS;
}
for (const [name, peer] of Object.entries(between)) rec.verify(`${name}: every answer end_turn`, peer.bad() === 0);
for (const peer of Object.values(between)) await peer.close();
const summary = JSON.parse(readFileSync(summaryFile, "utf8")) as { messages: { client: number; agent: number }; violations: unknown[] };
rmSync(summaryFile, { force: true });
// initialize + session/new each, then the prompts; the agent: those answers, and two updates + an answer per prompt.
rec.verify("inspect analysed every message, no violation", summary.messages.client === 1 + SESSIONS + prompts && summary.messages.agent === 1 + SESSIONS + 3 * prompts && summary.violations.length === 0);
addRoundRatios(rec, CASE, RELAY);
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
rec.notes.push(
  `CPU time of the process between driver and agent, per message it forwards (all threads, median of ${ROUNDS} rounds): relay ${median(cpuPerMessage[RELAY] ?? []).toFixed(2)} µs, inspect ${median(cpuPerMessage[INSPECT] ?? []).toFixed(2)} µs (its forwarding thread ${median(mainPerMessage[INSPECT] ?? []).toFixed(2)} µs, the rest its analysis thread and Node's helper threads), parse floor ${median(cpuPerMessage[PARSE] ?? []).toFixed(2)} µs (its forwarding thread ${median(mainPerMessage[PARSE] ?? []).toFixed(2)} µs)`,
);
if (loadBefore !== undefined) rec.notes.push(`load average (1, 5, 15 min) before: ${loadBefore}, after: ${load()} on ${availableParallelism()} CPUs`);
emit(rec.result({ figure: "inspect-saturated", title: "An agent behind inspect or a relay, saturated: 256 sessions of small prompts (prompts/s)", unit: "prompts/s", better: "higher", rounds: ROUNDS }));
