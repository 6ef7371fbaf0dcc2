/**
 * The analysis thread's entry (started by analysis-thread.ts): runs the
 * observer (observer.ts) on the chunks the proxy's thread posts, and on
 * `finish` writes the outputs, then marks the shared flag done and wakes the
 * proxy's thread, which waits for it synchronously. Writes go straight to
 * file descriptors (stderr included), never through the proxy's thread.
 */
import { readlinkSync, writeSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { ANALYSIS_NICE_INCREMENT, BACKLOG, DONE, FAILED, FINISHED, type AnalysisMessage, type AnalysisWorkerData } from "./analysis-thread.ts";
import { createObserver } from "./observer.ts";
import { BUILT_IN, loadTables } from "./tables.ts";

/** Lowers this thread's priority alone (Linux: setpriority on the thread's id); elsewhere, or when refused, it stays as it is. */
function yieldToForwarding(): void {
  try {
    const tid = Number(/\/task\/(\d+)$/.exec(readlinkSync("/proc/thread-self"))?.[1]);
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, Math.min(19, getPriority(tid) + ANALYSIS_NICE_INCREMENT));
  } catch {
    // Not Linux, or not allowed: the analysis runs at the proxy's priority.
  }
}

yieldToForwarding();
const data = workerData as AnalysisWorkerData;
const shared = new Int32Array(data.shared);
// The proxy's thread bounds the backlog; this side only reports what it has taken out of its queue.
// The proxy's thread loaded `--table` already (a failure ends inspect before the agent starts); the port holds the chunks meanwhile.
const tables = data.options.table === undefined ? BUILT_IN : await loadTables(data.options.table);
const observer = createObserver(data.options, Number.POSITIVE_INFINITY, (bytes) => Atomics.sub(shared, BACKLOG, bytes), tables);
const port = parentPort;
// A failure of the analysis ends it (not the proxy): said on stderr, flagged so the proxy posts and waits no more.
process.on("uncaughtException", (error) => {
  writeSync(2, `acp-router inspect: the analysis stopped (${error instanceof Error ? error.message : String(error)}); forwarding goes on, without a summary\n`);
  Atomics.store(shared, DONE, FAILED);
  Atomics.notify(shared, DONE);
  port?.close();
});
port?.on("message", (m: AnalysisMessage) => {
  if (Atomics.load(shared, DONE) !== 0) return;
  if (m.k === "chunk") observer.push(m.from, m.chunk, m.t, m.resync);
  else if (m.k === "end") observer.end(m.from);
  else {
    try {
      observer.finish(m.t, m.exit, m.notes, m.skipped);
    } finally {
      Atomics.store(shared, DONE, FINISHED);
      Atomics.notify(shared, DONE);
      port.close();
    }
  }
});
