/**
 * `npm run bench [-- --quick] [-- --figures=ingest,heap]`: runs each figure
 * script in its own process (`node --expose-gc --import tsx bench/<figure>.ts`),
 * collects the JSON line each prints, and prints a table of medians and
 * ratios per figure, the targets with pass/fail, and the machine.
 * Nothing here asserts a time: the exit code only says whether every figure
 * ran and every peer's answers were verified. All results also go to
 * `bench/.build/last-run.json`.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FigureResult } from "./lib/harness.ts";
import { machine, performanceBlock, replaceBlock, summary, table, targets } from "./lib/report.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const QUICK = process.argv.includes("--quick");
const FIGURES = [
  ["ingest", "(1)"],
  ["roundtrip", "(2)"],
  ["latency", "(3)"],
  ["heap", "(4)"],
  ["scaling", "(5)"],
  ["import-time", "(6)"],
  ["size", "(7)"],
  ["inspect", "(8)"],
  ["remote", "(9)"],
  ["stdio-agent", "(10)"],
  ["stdio-client", "(11)"],
  ["ingest-versions", "(12)"],
  ["remote-server", "(13)"],
  ["mcp", "(14)"],
  ["proxy", "(15)"],
  ["inspect-saturated", "(16)"],
  ["sdk-drop-in", "(17)"],
  ["supervision", "(18)"],
] as const;
const only = process.argv
  .find((a) => a.startsWith("--figures="))
  ?.slice("--figures=".length)
  .split(",");

/** Runs one figure script; resolves with its JSON result or an error text. */
function runFigure(name: string): Promise<FigureResult | string> {
  const args = ["--expose-gc", "--import", "tsx", join(ROOT, "bench", `${name}.ts`), ...(QUICK ? ["--quick"] : [])];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
    child.on("close", (code) => {
      const last = out.trim().split("\n").pop() ?? "";
      try {
        if (code !== 0) throw new Error(`exit code ${code}`);
        resolve(JSON.parse(last) as FigureResult);
      } catch (error) {
        resolve(`${name} failed (${String(error)}):\n${err.slice(-2000)}${out.slice(-500)}`);
      }
    });
  });
}

function version(pkg: string): string {
  try {
    const require = createRequire(join(ROOT, "package.json"));
    let dir = dirname(require.resolve(pkg));
    // Walk up to the package's own package.json (not every package exports it).
    for (let i = 0; i < 6; i++, dir = dirname(dir)) {
      try {
        const json = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
        if (json.name === pkg) return json.version ?? "?";
      } catch {
        // no package.json at this level
      }
    }
  } catch {
    // not installed
  }
  return "not found";
}

const figures: FigureResult[] = [];
const failures: string[] = [];
const started = Date.now();
const loadAtStart = machine()[1] ?? "";
for (const [name, label] of FIGURES) {
  if (only && !only.includes(name)) continue;
  process.stderr.write(`running ${label} ${name}${QUICK ? " (quick)" : ""}...\n`);
  const result = await runFigure(name);
  if (typeof result === "string") {
    failures.push(result);
    continue;
  }
  figures.push(result);
  const unverified = Object.entries(result.verified).filter(([, ok]) => !ok);
  if (unverified.length > 0) failures.push(`${name}: answers not as expected for ${unverified.map(([k]) => k).join(", ")}`);
  console.log(`\n${label} ${table(result)}`);
}

const own = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
const checks = targets(figures);
console.log("\nTargets of the issue (printed, not asserted):");
console.log(summary(checks));
console.log("\nMachine and versions:");
for (const l of machine()) console.log(`  ${l}`);
console.log(`  packages: acp-router ${own.version}, @agentclientprotocol/sdk ${version("@agentclientprotocol/sdk")}, zod ${version("zod")}, mitata ${version("mitata")}, esbuild ${version("esbuild")}, tsx ${version("tsx")}`);
console.log(`  wall time: ${((Date.now() - started) / 1000).toFixed(0)} s${QUICK ? " (quick mode: too few iterations to mean much)" : ""}`);
console.log("  Figures are ratios from one run on this machine, peers measured in the same process rounds; absolute numbers vary between machines and runs.");

mkdirSync(join(ROOT, "bench", ".build"), { recursive: true });
writeFileSync(join(ROOT, "bench", ".build", "last-run.json"), `${JSON.stringify({ machine: machine(), quick: QUICK, figures, targets: checks }, null, 2)}\n`);
if (failures.length > 0) {
  console.error(`\n${failures.join("\n\n")}`);
  process.exitCode = 1;
} else if (!QUICK && only === undefined) {
  // A full run writes the figures page: its numbers are this run's, never hand-edited.
  const page = join(ROOT, "docs", "performance.md");
  const versions = `acp-router ${own.version}, @agentclientprotocol/sdk ${version("@agentclientprotocol/sdk")}, mitata ${version("mitata")}, esbuild ${version("esbuild")}`;
  const block = performanceBlock({ date: new Date().toISOString().slice(0, 10), wallSeconds: Math.round((Date.now() - started) / 1000), loadAtStart, machine: machine(), versions, checks, figures });
  writeFileSync(page, replaceBlock(readFileSync(page, "utf8"), block));
  console.log(`\nWrote the figures into ${page}.`);
}
