/**
 * Figure 4 — heap per in-flight `session/prompt`: an agent's handlers hold
 * 10,000 prompts (each returns a promise released only at the end); heap
 * used after a full GC, minus the same connection's idle heap, divided by
 * the count. SDK vs ours (maxInFlight raised to 20,000). Each handler keeps
 * its params, as a real agent does during a turn. Two prompt sizes: the
 * 1 KB prompt of the other figures, and a 16-byte prompt (mostly the
 * framework's own per-call state).
 *
 *   node --expose-gc --import tsx bench/heap.ts [--quick] [--only=sdk|ours] [--held=10000]
 */
import { arg, collect, emit, QUICK, Recorder, rotate, selected, tick } from "./lib/harness.ts";
import { chunk, PROMPT_TEXT } from "./lib/messages.ts";
import { oursAgent, sdkAgent } from "./lib/peers.ts";
import { Counter, type IngestPeer, type PromptHandler } from "./lib/sink.ts";
import type { PromptResponse } from "../src/index.ts";

const HELD = Number(arg("held") ?? (QUICK ? 1_000 : 10_000));
const ROUNDS = QUICK ? 1 : 3;
const CHUNK_LINES = 500;
const TEXTS: Record<string, string> = { "session/prompt (1 KB text)": PROMPT_TEXT, "session/prompt (16 B text)": "fix the build, ok" };

if (typeof (globalThis as { gc?: unknown }).gc !== "function") {
  process.stderr.write("heap.ts needs --expose-gc\n");
  process.exit(2);
}

type Make = (prompt: PromptHandler) => Promise<IngestPeer>;
const makers: Record<string, Make> = {};
if (selected("sdk")) makers.sdk = (prompt) => sdkAgent({ prompt });
if (selected("ours")) makers.ours = (prompt) => oursAgent({ prompt, connection: { maxInFlight: 2 * HELD } });

/** Bytes per held request on a fresh connection, and whether every held prompt was answered afterwards. */
async function measureOnce(make: Make, text: string): Promise<{ perRequest: number; answered: boolean }> {
  const held: Array<{ params: unknown; release: (r: PromptResponse) => void }> = [];
  const started = new Counter();
  const prompt: PromptHandler = (params) =>
    new Promise<PromptResponse>((release) => {
      held.push({ params, release });
      started.hit();
    });
  const peer = await make(prompt);
  collect();
  await tick();
  collect();
  const before = process.memoryUsage().heapUsed;
  const allStarted = started.wait(HELD);
  for (let first = 1; first <= HELD; first += CHUNK_LINES) {
    // Answers are only written on release, so `feed`'s own promise is dropped here.
    void peer.feed(chunk("prompt", Math.min(CHUNK_LINES, HELD - first + 1), first, text), Number.POSITIVE_INFINITY);
  }
  await allStarted;
  await tick();
  collect();
  const after = process.memoryUsage().heapUsed;
  const answered = peer.feed(new Uint8Array(0), HELD);
  for (const h of held) h.release({ stopReason: "end_turn" });
  held.length = 0;
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), 30_000).unref());
  const ok = await Promise.race([answered.then(() => true), timeout]);
  peer.close();
  return { perRequest: (after - before) / HELD, answered: ok };
}

const rec = new Recorder();
for (const [caseName, text] of Object.entries(TEXTS)) {
  const ok: Record<string, boolean> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of rotate(Object.keys(makers), round)) {
      const m = await measureOnce(makers[name] as Make, text);
      rec.add(caseName, name, m.perRequest);
      ok[name] = (ok[name] ?? true) && m.answered;
      collect();
    }
  }
  for (const [name, answered] of Object.entries(ok)) rec.verify(`${name} answered all ${HELD} released prompts (${caseName})`, answered);
}
rec.notes.push(`${HELD} prompts held by handlers (each keeps its params) per measurement, fed ${CHUNK_LINES} lines per chunk; heapUsed after gc() minus before, per request; fresh connection each round`);
emit(rec.result({ figure: "heap", title: `Heap per held in-flight session/prompt (${HELD} held, bytes)`, unit: "bytes", better: "lower", rounds: ROUNDS }));
