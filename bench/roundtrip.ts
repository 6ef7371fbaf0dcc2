/**
 * Figure 2 — client ↔ agent round trips in one process over byte streams,
 * 256 `session/prompt` calls in flight at once: the SDK pair (ndJsonStream
 * on Web TransformStreams) against ours over `memoryPair()`, and ours over
 * the same Web streams as the SDK. Output: round trips per second.
 *
 *   node --expose-gc --import tsx bench/roundtrip.ts [--quick]
 */
import { emit, QUICK, Recorder, rotate, selected, tick, time } from "./lib/harness.ts";
import { oursPair, sdkPair, type Pair } from "./lib/pairs.ts";

const IN_FLIGHT = 256;
const ROUNDS = QUICK ? 1 : 5;
const CASE = `session/prompt, ${IN_FLIGHT} in flight`;

const burst = (pair: Pair) => Promise.all(Array.from({ length: IN_FLIGHT }, () => pair.prompt()));

const rec = new Recorder();
const pairs: Record<string, Pair> = {};
if (selected("sdk")) pairs.sdk = await sdkPair();
if (selected("ours")) pairs.ours = await oursPair("memory");
if (selected("ours-web")) pairs["ours (web streams)"] = await oursPair("web");

for (const [name, pair] of Object.entries(pairs)) {
  const answers = await burst(pair);
  rec.verify(name, answers.length === IN_FLIGHT && answers.every((a) => (a as { stopReason?: unknown }).stopReason === "end_turn"));
}
for (let round = 0; round < ROUNDS; round++) {
  for (const name of rotate(Object.keys(pairs), round)) {
    const pair = pairs[name] as Pair;
    const t = await time(() => burst(pair));
    rec.add(CASE, name, IN_FLIGHT / (t.p50 / 1e9));
    await tick();
  }
}
for (const pair of Object.values(pairs)) pair.close();
rec.notes.push(`value = round trips/s from the median time of ${IN_FLIGHT} concurrent prompts; both sides validate as each library does by default`);
emit(rec.result({ figure: "roundtrip", title: "Round trips in one process, 256 in flight (round trips/s)", unit: "rt/s", better: "higher", rounds: ROUNDS }));
