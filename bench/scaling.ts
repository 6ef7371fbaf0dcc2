/**
 * Figure 5 — throughput against the number in flight (16, 256, 1,024,
 * 4,096), ours and the SDK: one-sided ingest of `session/prompt` (agent fed
 * N lines as one chunk; the floor too, to show what the count costs any
 * parser) and client ↔ agent round trips (N concurrent prompts). Each
 * timed sample is the same work (4,096 messages: 4,096/N bursts in a row).
 *
 * The counts are measured in pairs: within a round, a peer's samples of all
 * counts are interleaved (one sample of each count, then again in the
 * reverse order, ...), and the first count alternates between rounds, so
 * 16 and 4,096 are timed moments apart on a machine whose load changes. A
 * round's value per count is the median of its samples; its ratio is its
 * 4,096 value over its 16 value; the figure's ratio is the median of the
 * per-round ratios (rows `ratio 4096/16, ingest` / `ratio 4096/16, round
 * trips`), which `bench/run.ts` checks against the issue's ≥ 0.9×. The
 * throughput rows (messages or round trips per second) are the medians of the
 * per-round values.
 *
 *   node --expose-gc --import tsx bench/scaling.ts [--quick] [--modes=ingest,roundtrip] [--counts=16,4096] [--only=ours] [--rounds=7] [--min-ms=250]
 */
import { arg, collect, emit, median, QUICK, Recorder, rotate, selected, tick } from "./lib/harness.ts";
import { chunk } from "./lib/messages.ts";
import { floorPeer } from "./lib/floor.ts";
import { oursPair, sdkPair, type Pair } from "./lib/pairs.ts";
import { oursAgent, sdkAgent } from "./lib/peers.ts";
import { checkAnswers, expectations, type IngestPeer } from "./lib/sink.ts";

const COUNTS = arg("counts")?.split(",").map(Number) ?? (QUICK ? [16, 256, 4096] : [16, 256, 1024, 4096]);
const ROUNDS = Number(arg("rounds") ?? (QUICK ? 1 : 7));
/** Per round, peer and count: at least this many timed samples, and more until this much time was spent on the count. */
const MIN_SAMPLES = QUICK ? 2 : 3;
const MIN_TIME_MS = Number(arg("min-ms") ?? (QUICK ? 10 : 250));
const MODES = arg("modes")?.split(",") ?? ["ingest", "roundtrip"];
/** Ingest bytes are delivered in pieces of at most this size, as a pipe would (64 KiB); all pushed before waiting. */
const PIECE = Number(arg("piece") ?? 65536);
/**
 * Messages per timed sample, whatever the in-flight count: a sample is
 * WORK / N bursts one after another. With one burst per sample, a 16-message
 * sample is far shorter than a GC pause, so the median sample of small bursts
 * left out the collections that every 4,096-message burst pays; equal work
 * per sample makes the medians comparable.
 */
const WORK = 4096;
const bursts = (n: number) => Math.max(1, Math.round(WORK / n));
const LOW = Math.min(...COUNTS);
const HIGH = Math.max(...COUNTS);

/**
 * One round of one peer: `sample(n)` (one timed sample's work at n in
 * flight) for every count, interleaved — a pass over the counts, then a pass
 * in the reverse order, and so on — after one untimed warm-up pass. The
 * first pass runs forward in even rounds and backward in odd ones. Returns
 * messages per second per count (the median of the round's samples).
 */
async function pairedRound(round: number, sample: (n: number) => Promise<void>): Promise<Map<number, number>> {
  const forward = [...COUNTS];
  const backward = [...COUNTS].reverse();
  const times = new Map<number, number[]>(COUNTS.map((n) => [n, []]));
  const spent = new Map<number, number>(COUNTS.map((n) => [n, 0]));
  collect();
  for (const n of round % 2 === 0 ? forward : backward) await sample(n);
  for (let pass = 0; ; pass++) {
    const done = COUNTS.every((n) => (times.get(n) as number[]).length >= MIN_SAMPLES && (spent.get(n) as number) >= MIN_TIME_MS);
    if (done) break;
    for (const n of (round + pass) % 2 === 0 ? forward : backward) {
      const t0 = performance.now();
      await sample(n);
      const ms = performance.now() - t0;
      (times.get(n) as number[]).push(ms);
      spent.set(n, (spent.get(n) as number) + ms);
    }
  }
  return new Map(COUNTS.map((n) => [n, (n * bursts(n)) / (median(times.get(n) as number[]) / 1e3)]));
}

/** Per peer and mode: each round's ratio of the highest count's throughput to the lowest's. */
const ratios = new Map<string, number[]>();
function record(mode: string, peer: string, values: Map<number, number>): void {
  for (const [n, v] of values) rec.add(`${mode}, ${n} in flight`, peer, v);
  const key = `${mode}\u0000${peer}`;
  ratios.set(key, [...(ratios.get(key) ?? []), (values.get(HIGH) as number) / (values.get(LOW) as number)]);
}

/** Splits `bytes` into pieces of at most PIECE bytes, cut after a newline where possible. */
function pieces(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let start = 0; start < bytes.length;) {
    let end = Math.min(bytes.length, start + PIECE);
    if (end < bytes.length) {
      const nl = bytes.lastIndexOf(10, end - 1);
      if (nl >= start) end = nl + 1;
    }
    out.push(bytes.subarray(start, end));
    start = end;
  }
  return out;
}

const rec = new Recorder();
const peerNames = ["sdk", "ours"].filter(selected);

/** The one-sided agent of each name. */
const agent = (name: string, capture: boolean): Promise<IngestPeer> => (name === "floor" ? Promise.resolve(floorPeer(capture)) : name === "sdk" ? sdkAgent({ capture }) : oursAgent({ capture }));

if (MODES.includes("ingest")) {
  const names = ["floor", ...peerNames].filter(selected);
  const peers: Record<string, IngestPeer> = {};
  for (const name of names) peers[name] = await agent(name, true);
  for (const n of COUNTS) {
    const bytes = chunk("prompt", n);
    for (const [name, peer] of Object.entries(peers)) {
      await peer.feed(pieces(bytes), n);
      rec.verify(`${name} ingest ${n}`, checkAnswers(peer.takeOutput(), n, expectations.prompt));
    }
  }
  for (const peer of Object.values(peers)) peer.close();
  // Timed peers do not capture their output.
  for (const name of names) peers[name] = await agent(name, false);
  const parts = new Map(COUNTS.map((n) => [n, pieces(chunk("prompt", n))]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of rotate(Object.keys(peers), round)) {
      const peer = peers[name] as IngestPeer;
      const values = await pairedRound(round, async (n) => {
        const bytes = parts.get(n) as Uint8Array[];
        for (let i = bursts(n); i > 0; i--) await peer.feed(bytes, n);
      });
      record("ingest", name, values);
      await tick();
    }
  }
  for (const peer of Object.values(peers)) peer.close();
}

if (MODES.includes("roundtrip")) {
  const pairs: Record<string, Pair> = {};
  for (const name of peerNames) pairs[name] = await (name === "sdk" ? sdkPair() : oursPair("memory"));
  for (const [name, pair] of Object.entries(pairs)) {
    for (const n of COUNTS) {
      const answers = await Promise.all(Array.from({ length: n }, () => pair.prompt()));
      rec.verify(
        `${name} round trips ${n}`,
        answers.every((a) => (a as { stopReason?: unknown }).stopReason === "end_turn"),
      );
    }
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of rotate(Object.keys(pairs), round)) {
      const pair = pairs[name] as Pair;
      const values = await pairedRound(round, async (n) => {
        for (let i = bursts(n); i > 0; i--) await Promise.all(Array.from({ length: n }, () => pair.prompt()));
      });
      record("round trips", name, values);
      await tick();
    }
  }
  for (const pair of Object.values(pairs)) pair.close();
}

for (const [key, values] of ratios) {
  const [mode, peer] = key.split("\u0000") as [string, string];
  rec.add(`ratio ${HIGH}/${LOW}, ${mode}`, peer, median(values));
}
rec.notes.push(`ingest: the N lines arrive as ${PIECE}-byte pieces pushed back to back (as from a pipe), then wait for N answers`);
rec.notes.push(
  `in-flight counts ${COUNTS.join(", ")}; each timed sample is ${WORK} messages (${WORK}/N bursts in a row); per round and peer the counts' samples are interleaved (≥ ${MIN_SAMPLES} and ≥ ${MIN_TIME_MS} ms each), value = messages (or round trips) per second from the round's median sample, row = median over rounds`,
);
rec.notes.push(`ratio ${HIGH}/${LOW} rows (no unit): the median over rounds of each round's ${HIGH}-in-flight value over its ${LOW}-in-flight value; per round: ${[...ratios].map(([key, v]) => `${key.replace("\u0000", " ")} ${v.map((r) => r.toFixed(2)).join(" ")}`).join("; ")}`);
emit(rec.result({ figure: "scaling", title: "Throughput vs in-flight count (msgs/s)", unit: "msgs/s", better: "higher", rounds: ROUNDS }));
