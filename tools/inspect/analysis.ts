/**
 * The analysis queue of the proxy: forwarded chunks wait here, with the time
 * they arrived, and are framed and observed later, in `setImmediate` slices
 * of a few milliseconds, so reading and forwarding never wait for parsing,
 * validation or the rules. The queue is bounded: past `maxBytes` waiting,
 * chunks are dropped from analysis (never from forwarding), their lines
 * counted as skipped, and that direction's framer restarts at the next
 * newline.
 */
import type { ChunkReader } from "../../src/transport/reader.ts";
import type { Sender } from "./rules.ts";

/** Bytes waiting for analysis before chunks are skipped: 16 MiB. */
export const ANALYSIS_MAX_BYTES = 16 * 1024 * 1024;
/** Longest analysis slice (checked per chunk) before the loop is given back to forwarding: 1 ms. */
export const ANALYSIS_SLICE_MS = 1;

export interface AnalysisQueue {
  /** Queues a forwarded chunk that arrived at `t` ms; `resync` when chunks of that direction before it were dropped by an outer bound. */
  push(from: Sender, chunk: Uint8Array, t: number, resync?: boolean): void;
  /** Queues the end of one direction. */
  end(from: Sender): void;
  /** Analyses everything queued now, then ends both directions' framers. */
  finish(): void;
  /** Lines left out of analysis because the queue was full, per sender. */
  readonly skipped: { client: number; agent: number };
}

/** A queued chunk (none for the end of a direction); `resync` when chunks before it were skipped. */
type Entry = { readonly from: Sender; readonly chunk: Uint8Array | undefined; readonly t: number; readonly resync: boolean };

/**
 * Creates the queue. `open(from, time)` makes a fresh framer for one
 * direction; `time()` inside its callbacks reads the arrival time of the
 * chunk being analysed. `released(bytes)`, when given, is told of each
 * chunk's size once it is taken out of the queue for analysis.
 */
export function createAnalysisQueue(open: (from: Sender, time: () => number) => ChunkReader, maxBytes = ANALYSIS_MAX_BYTES, sliceMs = ANALYSIS_SLICE_MS, released?: (bytes: number) => void): AnalysisQueue {
  let t = 0;
  const time = () => t;
  const framers = { client: open("client", time), agent: open("agent", time) };
  const ended = { client: false, agent: false };
  /** A chunk was dropped since the last queued one of that direction. */
  const cut = { client: false, agent: false };
  /** Analysis is discarding the rest of a cut line. */
  const skipping = { client: false, agent: false };
  const skipped = { client: 0, agent: 0 };
  let queue: Entry[] = [];
  let head = 0;
  let bytes = 0;
  let scheduled = false;

  const analyse = (e: Entry) => {
    t = e.t;
    if (e.chunk === undefined) {
      ended[e.from] = true;
      framers[e.from].end();
      return;
    }
    bytes -= e.chunk.length;
    released?.(e.chunk.length);
    let chunk = e.chunk;
    if (e.resync) {
      framers[e.from] = open(e.from, time);
      skipped[e.from]++; // the line cut where analysis resumes
      skipping[e.from] = true;
    }
    if (skipping[e.from]) {
      const nl = chunk.indexOf(10);
      if (nl === -1) return; // still inside the cut line
      skipping[e.from] = false;
      chunk = chunk.subarray(nl + 1);
    }
    framers[e.from].push(chunk);
  };

  const drain = () => {
    scheduled = false;
    const until = performance.now() + sliceMs;
    while (head < queue.length) {
      analyse(queue[head++] as Entry);
      if (performance.now() > until) break;
    }
    if (head < queue.length) schedule();
    else {
      queue = [];
      head = 0;
    }
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(drain);
  };

  return {
    skipped,
    push(from, chunk, at, resync = false) {
      if (bytes + chunk.length > maxBytes) {
        skipped[from] += countLines(chunk);
        cut[from] = true;
        return;
      }
      bytes += chunk.length;
      queue.push({ from, chunk, t: at, resync: cut[from] || resync });
      cut[from] = false;
      schedule();
    },
    end(from) {
      queue.push({ from, chunk: undefined, t, resync: false });
      schedule();
    },
    finish() {
      while (head < queue.length) analyse(queue[head++] as Entry);
      queue = [];
      head = 0;
      for (const from of ["client", "agent"] as const)
        if (!ended[from]) {
          ended[from] = true;
          framers[from].end();
        }
    },
  };
}

/** Newlines in a chunk: the lines it ends. */
export function countLines(chunk: Uint8Array): number {
  let n = 0;
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++;
  return n;
}
