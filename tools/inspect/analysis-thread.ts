/**
 * The proxy's side of the analysis thread: `inspect` forwards bytes in its
 * main thread and analyses them in a worker thread (analysis-worker.ts), so
 * parsing, validation and the rules never hold up a chunk on its way and
 * run on another core when one is free. Each forwarded chunk is copied and
 * posted with its arrival time; the bytes posted and not yet taken up by the
 * analysis are bounded (past the bound, chunks are left out of analysis,
 * never out of forwarding, and that direction resynchronises at the next
 * newline, as in analysis.ts). `finish` posts the end and blocks until the
 * worker has written every output, so the proxy's exit paths stay
 * synchronous. Should the worker fail, forwarding goes on, the failure is
 * written to stderr, and there is no summary.
 */
import { Worker } from "node:worker_threads";
import { ANALYSIS_MAX_BYTES, countLines } from "./analysis.ts";
import type { Observer, ObserverOptions, Skipped } from "./observer.ts";
import type { Sender } from "./rules.ts";

/** Index in the shared Int32Array of the worker's state: 0 while it runs, then {@link FINISHED} or {@link FAILED}. */
export const DONE = 0;
/** The worker wrote every output. */
export const FINISHED = 1;
/** The analysis failed (said on stderr); the worker takes nothing more. */
export const FAILED = 2;
/** Index of the bytes posted to the worker and not yet taken out of its queue. */
export const BACKLOG = 1;
/**
 * How long `finish` waits for the worker's outputs: 30 s. Analysing a full
 * 16 MiB backlog takes well under a second; the rest covers a worker still
 * loading on a loaded machine.
 */
export const FINISH_WAIT_MS = 30_000;

/**
 * How much lower the analysis thread's priority is than the proxy's: 10 nice
 * levels, so the thread forwarding bytes wins the CPU whenever both want it
 * (about ten to one) while the analysis takes all the time forwarding
 * leaves (analysis-worker.ts sets it, on Linux).
 */
export const ANALYSIS_NICE_INCREMENT = 10;

/**
 * The worker's young generation: up to 64 MiB (V8's default is a few MiB).
 * Every message parsed is garbage soon after; a larger nursery means fewer
 * scavenges, and with them less time in V8's helper threads, for memory a
 * developer tool can spare.
 */
const LIMITS = { maxYoungGenerationSizeMb: 64 };

/** What the worker is started with. */
export interface AnalysisWorkerData {
  readonly options: ObserverOptions;
  readonly shared: SharedArrayBuffer;
}

/** The messages the proxy's thread posts, in order. */
export type AnalysisMessage =
  | { readonly k: "chunk"; readonly from: Sender; readonly chunk: Uint8Array; readonly t: number; readonly resync: boolean }
  | { readonly k: "end"; readonly from: Sender }
  | { readonly k: "finish"; readonly t: number; readonly exit: number; readonly notes: readonly string[]; readonly skipped: Skipped };

/** Starts the analysis thread; the returned observer forwards to it. */
export function startAnalysisThread(options: ObserverOptions, maxBytes = ANALYSIS_MAX_BYTES): Observer {
  const shared = new SharedArrayBuffer(8);
  const state = new Int32Array(shared);
  const data: AnalysisWorkerData = { options, shared };
  const worker = spawnWorker(data);
  let errored = false;
  // The worker could not start or load (its own failures it reports and flags itself).
  worker.on("error", (error) => {
    errored = true;
    process.stderr.write(`acp-router inspect: the analysis stopped (${error.message}); forwarding goes on, without a summary\n`);
  });
  const failed = () => errored || Atomics.load(state, DONE) !== 0;
  worker.unref();
  const cut = { client: false, agent: false };
  const skipped = { client: 0, agent: 0 };
  const post = (m: AnalysisMessage, transfer?: ArrayBuffer[]) => {
    if (!failed()) worker.postMessage(m, transfer);
  };
  return {
    push(from, chunk, t) {
      if (failed()) return;
      if (Atomics.load(state, BACKLOG) + chunk.length > maxBytes) {
        skipped[from] += countLines(chunk);
        cut[from] = true;
        return;
      }
      Atomics.add(state, BACKLOG, chunk.length);
      // A copy of exactly the chunk's bytes, moved to the worker (the original may still be queued for writing).
      const copy = new Uint8Array(chunk);
      post({ k: "chunk", from, chunk: copy, t, resync: cut[from] }, [copy.buffer as ArrayBuffer]);
      cut[from] = false;
    },
    end(from) {
      post({ k: "end", from });
    },
    finish(t, exit, notes, skippedBefore) {
      if (failed()) return;
      post({ k: "finish", t, exit, notes, skipped: { client: skipped.client + skippedBefore.client, agent: skipped.agent + skippedBefore.agent } });
      if (Atomics.wait(state, DONE, 0, FINISH_WAIT_MS) === "timed-out") process.stderr.write(`acp-router inspect: the analysis did not finish within ${FINISH_WAIT_MS / 1000} s; its outputs may be incomplete\n`);
    },
  };
}

/**
 * Starts the worker module next to this one. Run from TypeScript sources
 * (tests, the bench: Node with tsx), the worker registers tsx itself first,
 * as Node 20 does not run `--import` hooks in worker threads.
 */
function spawnWorker(data: AnalysisWorkerData): Worker {
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./analysis-worker.js", import.meta.url), { workerData: data, resourceLimits: LIMITS });
  const entry = new URL("./analysis-worker.ts", import.meta.url).href;
  const tsx = import.meta.resolve("tsx/esm/api");
  const source = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(source, { eval: true, workerData: data, resourceLimits: LIMITS });
}
