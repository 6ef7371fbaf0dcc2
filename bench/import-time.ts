/**
 * Figure 6 — time to `import` the package in a fresh Node process (the
 * import itself, timed inside the process, so Node's own start-up is not
 * counted). Ours: `src/index.ts` bundled once by esbuild into one ESM file
 * (what a published JS build would be; importing the .ts through tsx would
 * time the compiler). SDK: `import("@agentclientprotocol/sdk")` as
 * installed (many files plus zod), and also bundled like ours.
 * Runs alternate between peers. Output: milliseconds (median of runs).
 *
 *   node --import tsx bench/import-time.ts [--quick]
 */
import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { bundle, ROOT } from "./lib/build.ts";
import { emit, QUICK, Recorder, rotate, selected } from "./lib/harness.ts";

const RUNS = QUICK ? 3 : 31;

const ours = await bundle("acp-router", "ours", false);
const sdkBundled = await bundle("sdk", "sdk", false);

const specifiers: Record<string, string> = {};
if (selected("ours")) specifiers.ours = pathToFileURL(ours.file).href;
if (selected("sdk")) specifiers.sdk = "@agentclientprotocol/sdk";
if (selected("sdk-bundled")) specifiers["sdk (bundled)"] = pathToFileURL(sdkBundled.file).href;

/** Imports `specifier` in a fresh process; returns the import's milliseconds and how many exports it had. */
function importOnce(specifier: string): { ms: number; exports: number } {
  const script = `const t0 = performance.now(); const m = await import(${JSON.stringify(specifier)}); const ms = performance.now() - t0; process.stdout.write(JSON.stringify({ ms, exports: Object.keys(m).length }));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
  return JSON.parse(out) as { ms: number; exports: number };
}

const rec = new Recorder();
for (const [name, specifier] of Object.entries(specifiers)) {
  const first = importOnce(specifier);
  rec.verify(`${name} imports (${first.exports} exports)`, first.exports > 0);
}
for (let run = 0; run < RUNS; run++) {
  for (const name of rotate(Object.keys(specifiers), run)) rec.add("import in a fresh process", name, importOnce(specifiers[name] as string).ms);
}
rec.notes.push(`${RUNS} fresh processes per peer, alternating; time of the dynamic import() measured inside the process`);
rec.notes.push(`ours = esbuild bundle of src/index.ts (${ours.bytes} bytes, unminified); sdk (bundled) = esbuild bundle of the SDK entry with zod (${sdkBundled.bytes} bytes)`);
emit(rec.result({ figure: "import", title: "Import time in a fresh process (ms)", unit: "ms", better: "lower", rounds: RUNS }));
