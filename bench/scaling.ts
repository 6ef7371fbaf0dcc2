/**
 * Figure 5 — throughput against the number in flight (16, 256, 1,024,
 * 4,096), ours and the SDK: one-sided ingest of `session/prompt` (agent fed
 * N lines as one chunk; the floor too, to show what the count costs any
 * parser) and client ↔ agent round trips (N concurrent prompts). Each
 * timed sample is the same work (4,096 messages: 4,096/N bursts in a row).
 * Output: messages (or round trips) per second; `bench/run.ts` prints each
 * peer's ratio of 4,096 to 16.
 *
 *   node --expose-gc --import tsx bench/scaling.ts [--quick] [--modes=ingest,roundtrip] [--counts=16,4096] [--only=ours]
 */
import { arg, emit, QUICK, Recorder, rotate, selected, tick, time } from "./lib/harness.ts";
import { chunk } from "./lib/messages.ts";
import { floorPeer } from "./lib/floor.ts";
import { oursPair, sdkPair, type Pair } from "./lib/pairs.ts";
import { oursAgent, sdkAgent } from "./lib/peers.ts";
import { checkAnswers, expectations, type IngestPeer } from "./lib/sink.ts";

const COUNTS = arg("counts")?.split(",").map(Number) ?? (QUICK ? [16, 256, 4096] : [16, 256, 1024, 4096]);
const ROUNDS = QUICK ? 1 : 3;
const MIN_TIME_NS = QUICK ? 15e6 : 250e6;
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

/** Splits `bytes` into pieces of at most PIECE bytes, cut after a newline where possible. */
function pieces(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; ) {
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
  for (let round = 0; round < ROUNDS; round++) {
    for (const n of COUNTS) {
      const parts = pieces(chunk("prompt", n));
      for (const name of rotate(Object.keys(peers), round)) {
        const peer = peers[name] as IngestPeer;
        const k = bursts(n);
        const t = await time(async () => {
          for (let i = 0; i < k; i++) await peer.feed(parts, n);
        }, MIN_TIME_NS);
        rec.add(`ingest, ${n} in flight`, name, (n * k) / (t.p50 / 1e9));
        await tick();
      }
    }
  }
  for (const peer of Object.values(peers)) peer.close();
}

if (MODES.includes("roundtrip")) {
  const pairs: Record<string, Pair> = {};
  for (const name of peerNames) pairs[name] = await (name === "sdk" ? sdkPair() : oursPair("memory"));
  for (let round = 0; round < ROUNDS; round++) {
    for (const n of COUNTS) {
      for (const name of rotate(Object.keys(pairs), round)) {
        const pair = pairs[name] as Pair;
        const burst = () => Promise.all(Array.from({ length: n }, () => pair.prompt()));
        if (round === 0) {
          const answers = await burst();
          rec.verify(`${name} round trips ${n}`, answers.every((a) => (a as { stopReason?: unknown }).stopReason === "end_turn"));
        }
        const k = bursts(n);
        const t = await time(async () => {
          for (let i = 0; i < k; i++) await burst();
        }, MIN_TIME_NS);
        rec.add(`round trips, ${n} in flight`, name, (n * k) / (t.p50 / 1e9));
        await tick();
      }
    }
  }
  for (const pair of Object.values(pairs)) pair.close();
}

rec.notes.push(`ingest: the N lines arrive as ${PIECE}-byte pieces pushed back to back (as from a pipe), then wait for N answers`);
rec.notes.push(`in-flight counts ${COUNTS.join(", ")}; each timed sample is ${WORK} messages (${WORK}/N bursts in a row); value = messages (or round trips) per second from the median sample`);
emit(rec.result({ figure: "scaling", title: "Throughput vs in-flight count (msgs/s)", unit: "msgs/s", better: "higher", rounds: ROUNDS }));
