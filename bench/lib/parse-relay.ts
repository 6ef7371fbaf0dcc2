/**
 * The floor of any inspector that reads what it forwards, for figure 16: a
 * byte relay (as lib/relay.ts) whose process also hands a copy of every
 * forwarded chunk to a worker thread, at the analysis thread's lower
 * priority (tools/inspect/analysis-worker.ts), which decodes it, splits it
 * into lines and `JSON.parse`s each one — and does nothing else: no
 * classification, no validation, no rules, no summary. What inspect costs
 * beyond this is its analysis; what this costs beyond the relay is the
 * price of parsing every message at all on the same cores.
 *
 *   node --import tsx bench/lib/parse-relay.ts <agent command…>
 */
import { spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { Worker } from "node:worker_threads";
import { ANALYSIS_NICE_INCREMENT } from "../../tools/inspect/analysis-thread.ts";

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  process.stderr.write("usage: parse-relay.ts <agent command…>\n");
  process.exit(2);
}

// Plain JavaScript, so the worker needs no TypeScript loader.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { readlinkSync } = require("node:fs");
const { getPriority, setPriority } = require("node:os");
try {
  const tid = Number(/\\/task\\/(\\d+)$/.exec(readlinkSync("/proc/thread-self"))?.[1]);
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, Math.min(19, getPriority(tid) + workerData.nice));
} catch {}
const pending = { client: "", agent: "" };
let parsed = 0;
parentPort.on("message", (m) => {
  if (m.k === "count") return parentPort.postMessage(parsed);
  const text = pending[m.from] + Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength).toString("utf8");
  let start = 0;
  for (let nl = text.indexOf("\\n"); nl !== -1; nl = text.indexOf("\\n", start)) {
    try { JSON.parse(text.slice(start, nl)); parsed++; } catch {}
    start = nl + 1;
  }
  pending[m.from] = text.slice(start);
});
`;
const worker = new Worker(WORKER, { eval: true, workerData: { nice: ANALYSIS_NICE_INCREMENT } });
worker.unref();

const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
forward(process.stdin, child.stdin, "client");
forward(child.stdout, process.stdout, "agent");
child.on("error", (error) => {
  process.stderr.write(`parse-relay: cannot start ${command}: ${error.message}\n`);
  process.exit(1);
});
child.on("close", (code) => process.exit(code ?? 1));

/** Writes each chunk on as it arrives (pausing while `to` is full), then posts a copy to the worker, as inspect's proxy does. */
function forward(from: Readable, to: Writable, direction: "client" | "agent"): void {
  from.on("data", (chunk: Uint8Array) => {
    if (!to.write(chunk)) {
      from.pause();
      to.once("drain", () => from.resume());
    }
    const copy = new Uint8Array(chunk);
    worker.postMessage({ k: "chunk", from: direction, chunk: copy }, [copy.buffer]);
  });
  from.once("end", () => to.end());
}
