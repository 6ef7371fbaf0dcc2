/**
 * Figure 3 — idle latency of one `session/prompt` round trip (nothing else
 * in flight): p50 and p99 in microseconds, SDK pair vs ours.
 * Samples of all rounds are pooled per peer before taking percentiles.
 *
 *   node --expose-gc --import tsx bench/latency.ts [--quick]
 */
import { emit, median, QUICK, quantile, Recorder, rotate, selected, tick, time } from "./lib/harness.ts";
import { oursPair, sdkPair, type Pair } from "./lib/pairs.ts";

const ROUNDS = QUICK ? 1 : 5;
const MIN_TIME_NS = QUICK ? 10e6 : 200e6;

const rec = new Recorder();
const pairs: Record<string, Pair> = {};
if (selected("sdk")) pairs.sdk = await sdkPair();
if (selected("ours")) pairs.ours = await oursPair("memory");
if (selected("ours-web")) pairs["ours (web streams)"] = await oursPair("web");

const pooled: Record<string, number[]> = {};
for (const [name, pair] of Object.entries(pairs)) {
  const answer = (await pair.prompt()) as { stopReason?: unknown };
  rec.verify(name, answer.stopReason === "end_turn");
  pooled[name] = [];
}
for (let round = 0; round < ROUNDS; round++) {
  for (const name of rotate(Object.keys(pairs), round)) {
    const pair = pairs[name] as Pair;
    const t = await time(() => pair.prompt(), MIN_TIME_NS);
    pooled[name]?.push(...t.samples);
    await tick();
  }
}
for (const [name, samples] of Object.entries(pooled)) {
  // One value per percentile; `rounds` holds the pooled percentile (samples are pooled, not averaged).
  rec.add("p50 (µs)", name, median(samples) / 1e3);
  rec.add("p99 (µs)", name, quantile(samples, 0.99) / 1e3);
}
for (const pair of Object.values(pairs)) pair.close();
rec.notes.push(`one prompt at a time; ${ROUNDS} round(s) alternating peers, samples pooled per peer (mitata drops the 2 fastest and 2 slowest of each round)`);
emit(rec.result({ figure: "latency", title: "Idle round-trip latency (µs)", unit: "µs", better: "lower", rounds: ROUNDS }));
