/**
 * Figure 8 — the cost of `acp-router inspect` on stdio: the same client
 * (connectClient over spawnAgent) drives the same agent
 * (test/fixtures/stdio-agent.ts) three ways in the same rounds, peers
 * alternating: direct; behind a bare byte relay process (lib/relay.ts: a
 * process that copies stdin and stdout and observes nothing, what the extra
 * process hop alone costs on this machine); and behind `inspect -- <agent>`.
 * Prints prompt throughput with 64 prompts in flight, and per round the
 * ratios to the relay (issue 24's target: behind inspect ≥ 0.9× behind the
 * relay, the median of the same-round ratios) and to direct (the earlier
 * target: ≥ 0.8× direct); in the notes, the p50 of one sequential round
 * trip and what inspect adds to it (target ≤ 100 µs), each also against the
 * relay, and the load average. Printed, never asserted.
 *
 *   node --expose-gc --import tsx bench/inspect.ts [--quick]
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { addRoundRatios, emit, QUICK, Recorder, rotate, tick, time } from "./lib/harness.ts";
import { openProcessClient as open, type ProcessClient as Pair } from "./lib/process-client.ts";

const IN_FLIGHT = 64;
const ROUNDS = QUICK ? 1 : 7;
const CASE = `session/prompt, ${IN_FLIGHT} in flight`;
const agent = [process.execPath, "--import", "tsx", fileURLToPath(new URL("../test/fixtures/stdio-agent.ts", import.meta.url))];
const inspectMain = pathToFileURL(fileURLToPath(new URL("../tools/inspect/main.ts", import.meta.url))).href;
// What the package bin does for `acp-router inspect …`, without depending on the bin.
const launcher = [process.execPath, "--import", "tsx", "--input-type=module", "-e", `import { inspectMain } from ${JSON.stringify(inspectMain)}; process.exit(await inspectMain(process.argv.slice(1)));`, "--"];
const summaryFile = join(tmpdir(), `acp-inspect-bench-${process.pid}.json`);
const behindInspect = [...launcher, "--summary", summaryFile, "--", ...agent];
// The baseline: a bare byte relay in its own process, no observation, started as inspect is (Node with tsx).
const behindRelay = [process.execPath, "--import", "tsx", fileURLToPath(new URL("./lib/relay.ts", import.meta.url)), ...agent];
const [DIRECT, RELAY, INSPECT] = ["direct", "relay", "ours (behind inspect)"] as const;

const rec = new Recorder();
const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const loadBefore = existsSync("/proc/loadavg") ? load() : undefined;
const pairs: Record<string, Pair> = { [DIRECT]: await open(agent), [RELAY]: await open(behindRelay), [INSPECT]: await open(behindInspect) };
const burst = (pair: Pair) => Promise.all(Array.from({ length: IN_FLIGHT }, () => pair.prompt()));
for (const [name, pair] of Object.entries(pairs)) {
  const answers = await burst(pair);
  rec.verify(
    name,
    answers.every((a) => (a as { stopReason?: unknown }).stopReason === "end_turn"),
  );
}
const latency: Record<string, number[]> = { [DIRECT]: [], [RELAY]: [], [INSPECT]: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const name of rotate(Object.keys(pairs), round)) {
    const pair = pairs[name] as Pair;
    const t = await time(() => burst(pair));
    rec.add(CASE, name, IN_FLIGHT / (t.p50 / 1e9));
    const one = await time(() => pair.prompt());
    latency[name]?.push(one.p50 / 1e3);
    await tick();
  }
}
const prompts = pairs[INSPECT]?.sent() ?? 0;
for (const pair of Object.values(pairs)) await pair.close();
// Inspect's throughput counts only if it analysed every message: its summary must have all of them, no violation and nothing skipped.
const summary = JSON.parse(readFileSync(summaryFile, "utf8")) as { messages: { client: number; agent: number }; violations: unknown[]; notes: string[] };
rmSync(summaryFile, { force: true });
rec.verify("inspect analysed every message", summary.messages.client === prompts + 2 && summary.messages.agent === 2 * prompts + 2 && summary.violations.length === 0 && summary.notes.length === 0);
addRoundRatios(rec, CASE, RELAY);
addRoundRatios(rec, CASE, DIRECT);

const f = (us: number) => us.toFixed(0);
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const result = rec.result({ figure: "inspect", title: "A stdio agent direct and behind `acp-router inspect` (prompts/s)", unit: "rt/s", better: "higher", rounds: ROUNDS });
const through = (peer: string) => result.results.find((r) => r.case === CASE && r.peer === peer)?.value ?? Number.NaN;
const sameRound = (c: string) => result.results.find((r) => r.case === `ratio to ${c} (same round), ${CASE}` && r.peer === INSPECT)?.value ?? Number.NaN;
const [toRelay, toDirect] = [sameRound(RELAY), sameRound(DIRECT)];
const [direct, relayed, inspected] = [median(latency[DIRECT] ?? []), median(latency[RELAY] ?? []), median(latency[INSPECT] ?? [])];
rec.notes.push(
  `throughput behind inspect (medians of same-round ratios): ${toRelay.toFixed(3)}× the relay (target ≥ 0.9×: ${toRelay >= 0.9 ? "met" : "NOT met"}), ${toDirect.toFixed(3)}× direct (target ≥ 0.8×: ${toDirect >= 0.8 ? "met" : "NOT met"}); the relay alone: ${(through(RELAY) / through(DIRECT)).toFixed(3)}× direct (ratio of medians)`,
);
rec.notes.push(`one round trip, p50: direct ${f(direct)} µs, behind inspect ${f(inspected)} µs, added ${f(inspected - direct)} µs (target ≤ 100 µs: ${inspected - direct <= 100 ? "met" : "NOT met"}); behind the relay ${f(relayed)} µs (+${f(relayed - direct)} µs, the hop alone)`);
rec.notes.push(`both processes validate everything; inspect forwards each chunk before analysing it (in its analysis thread) and writes its summary to a temporary file, checked to count all ${prompts} prompts, their updates and answers, with no violation and nothing skipped`);
if (loadBefore !== undefined) rec.notes.push(`load average (1, 5, 15 min) before: ${loadBefore}, after: ${load()} on ${availableParallelism()} CPUs`);
emit({ ...result, notes: rec.notes });
