/**
 * Where the time goes: runs one figure script under `node --cpu-prof` and
 * prints the functions with the most self time (aggregated by function and
 * source location) and their main callers. acp-router is loaded from
 * unminified esbuild bundles of `src/index.ts` and of the stdio entry
 * (tsx's output has no useful lines), and each of its functions is shown
 * with the `src/` file it came from and its line in the bundle. The
 * processes a figure starts (the stdio figures' agents and clients) are
 * profiled too: every process that ran acp-router code gets its own table.
 *
 *   npx tsx bench/profile.ts ingest --only=ours --messages=prompt [--top=25]
 *   npx tsx bench/profile.ts stdio-agent --only=ours
 *
 * Arguments after the figure name go to the figure script. The profile
 * includes the harness and peers the script runs: use `--only=ours`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundle } from "./lib/build.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const [figure = "ingest", ...rest] = process.argv.slice(2);
const top = Number(rest.find((a) => a.startsWith("--top="))?.slice(6) ?? 25);
const forward = rest.filter((a) => !a.startsWith("--top="));
const dir = join(ROOT, "bench", ".build", "profile");

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const libs = [await bundle("acp-router-profile", "ours", false), await bundle("acp-router-stdio-profile", "ours-stdio", false)];
// BENCH_PROFILE_DIR makes the processes the figure starts write profiles too (lib/processes.ts).
const env = { ...process.env, BENCH_OURS_BUNDLE: libs[0]?.file, BENCH_OURS_STDIO_BUNDLE: libs[1]?.file, BENCH_PROFILE_DIR: dir };
const run = spawnSync(process.execPath, ["--cpu-prof", "--cpu-prof-dir", dir, "--expose-gc", "--import", "tsx", join(ROOT, "bench", `${figure}.ts`), ...forward], { cwd: ROOT, encoding: "utf8", env });
if (run.status !== 0) {
  process.stderr.write(run.stderr);
  process.exit(1);
}
const files = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
if (files.length === 0) throw new Error("no .cpuprofile written");
// The bundles mark each module with a `// src/<file>.ts` comment: map bundle lines back to files.
const sources = new Map<string, string[]>();
for (const lib of libs) {
  const bundleLines = readFileSync(lib.file, "utf8").split("\n");
  const sourceOf: string[] = [];
  for (let i = 0, current = "?"; i < bundleLines.length; i++) {
    const m = /^\/\/ (src\/\S+\.ts)$/.exec(bundleLines[i] as string);
    if (m) current = m[1] as string;
    sourceOf.push(current);
  }
  sources.set(`file://${lib.file}`, sourceOf);
}
const profiles = files.map((file) => ({ file, profile: JSON.parse(readFileSync(join(dir, file), "utf8")) as CpuProfile }));
const ranOurs = profiles.filter(({ profile }) => profile.nodes.some((n) => sources.has(n.callFrame.url)));
// Every process that ran acp-router code; else the largest profile (a figure run with --only=floor).
const shown = ranOurs.length > 0 ? ranOurs : [profiles.sort((a, b) => b.profile.samples.length - a.profile.samples.length)[0] as (typeof profiles)[number]];
for (const { file, profile } of shown) report(file, profile);

/** Prints the top self-time functions of one process's profile, with their main callers. */
function report(file: string, profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  const keyOf = (node: ProfileNode): string => {
    const { functionName, url, lineNumber } = node.callFrame;
    let where = url ? `${url.replace(/^file:\/\//, "").replace(ROOT, "")}:${lineNumber + 1}` : "";
    const sourceOf = sources.get(url);
    if (sourceOf) where = `${sourceOf[lineNumber] ?? "?"} (${url.endsWith("stdio-profile.mjs") ? "stdio " : ""}bundle line ${lineNumber + 1})`;
    return `${functionName || "(anonymous)"}\u0000${where}`;
  };
  const self = new Map<string, number>();
  const callers = new Map<string, Map<string, number>>();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] as number;
    const node = byId.get(id);
    const dt = profile.timeDeltas[i] ?? 0;
    if (!node) continue;
    total += dt;
    const key = keyOf(node);
    self.set(key, (self.get(key) ?? 0) + dt);
    const parent = byId.get(parentOf.get(id) ?? -1);
    if (parent) {
      const m = callers.get(key) ?? new Map<string, number>();
      const pk = keyOf(parent);
      m.set(pk, (m.get(pk) ?? 0) + dt);
      callers.set(key, m);
    }
  }
  const idle = [...self.entries()].filter(([k]) => k.startsWith("(idle)") || k.startsWith("(program)")).reduce((a, [, v]) => a + v, 0);
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  console.log(`\n${figure} ${forward.join(" ")}: ${(total / 1e3).toFixed(0)} ms sampled (idle+program ${((100 * idle) / total).toFixed(1)}%); profile in bench/.build/profile/${file}`);
  console.log("self ms   self %   function  (location; * = acp-router src/)");
  for (const [key, us] of rows) {
    const [name, where = ""] = key.split("\u0000");
    const mark = where.startsWith("src/") ? "*" : " ";
    console.log(`${(us / 1e3).toFixed(1).padStart(7)}  ${((100 * us) / total).toFixed(1).padStart(6)}%  ${mark} ${name}  ${where}`);
    const from = [...(callers.get(key) ?? new Map<string, number>()).entries()].sort((a, b) => b[1] - a[1]).slice(0, 2);
    const called = from.map(([k, v]) => `${k.split("\u0000")[0]} ${((100 * v) / us).toFixed(0)}%`).join(", ");
    if (called) console.log(`${" ".repeat(19)}called from: ${called}`);
  }
}
