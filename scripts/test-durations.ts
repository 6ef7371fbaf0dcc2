/**
 * `npm run test:durations -- REPORT.json`: writes test/support/durations.json, the expected duration
 * (seconds) of every test file that took 5 s or more in the run REPORT describes — a report of vitest's
 * JSON reporter (`npx vitest run --reporter=json --outputFile=REPORT.json`). The test sequencer
 * (test/support/longest-first.ts) starts the longest files first from it on a machine with no record
 * of its own (a fresh clone). A file run in two projects keeps its longer duration.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

const MIN_SECONDS = 5;
const root = fileURLToPath(new URL("../", import.meta.url));
const out = fileURLToPath(new URL("../test/support/durations.json", import.meta.url));

const [report] = process.argv.slice(2);
if (report === undefined) {
  process.stderr.write("usage: npm run test:durations -- REPORT.json (a vitest JSON report)\n");
  process.exit(2);
}
const { testResults } = JSON.parse(readFileSync(report, "utf8")) as { testResults: { name: string; startTime: number; endTime: number }[] };
const seconds = new Map<string, number>();
for (const r of testResults) {
  const file = relative(root, r.name);
  seconds.set(file, Math.max(seconds.get(file) ?? 0, Math.round((r.endTime - r.startTime) / 1000)));
}
const kept = [...seconds].filter(([, s]) => s >= MIN_SECONDS).sort((a, b) => b[1] - a[1]);
writeFileSync(out, `${JSON.stringify(Object.fromEntries(kept), null, 2)}\n`);
process.stderr.write(`test:durations: ${kept.length} files of ${MIN_SECONDS} s or more written to test/support/durations.json\n`);
