/**
 * `npm run test:sdk-suite`: runs SDK 1.9.0's own test suite against three targets (baseline: 1.9.0's
 * own modules; real: SDK 2.4.0; drop-in: the compatibility package packed from this checkout), checks
 * every test's outcome against the tracked ledger (ledger.json) and prints one line:
 *
 *     sdk-suite: baseline B/T, applicable A, drop-in P pass, documented D, internal I, removed R
 *
 * It exits non-zero when the baseline is not all-pass or leaves an unhandled error, when any test's
 * outcome or class differs from the ledger, or the files during which a target left an unhandled
 * error do (each difference is named on stderr), or when a `documented` test names no row of
 * docs/sdk-drop-in.md. `--update` rewrites the ledger from the run instead of comparing (keeping each
 * documented test's row). `--only <target>` runs one target and takes the others' outcomes from the
 * ledger (for work on one target; it still compares). vitest's own output goes to
 * .tmp/sdk-suite/<target>.log. See README.md.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isInternalFile } from "./classify.ts";
import { drift, entriesOf, keyOf, readLedger, summary, type Target, targets, undocumented, type Unhandled, unhandledDrift, writeLedger } from "./ledger.ts";
import type { Outcome, Results } from "./reporter.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const here = fileURLToPath(new URL("./", import.meta.url));
const work = join(root, ".tmp/sdk-suite");
const ledgerPath = join(here, "ledger.json");
const update = process.argv.includes("--update");

/** The environment of child processes: no inherited `--import` hooks. */
const { NODE_OPTIONS: _inherited, ...env } = process.env;

/** Packs the drop-in from this checkout and unpacks it as `node_modules/@agentclientprotocol/sdk` under `work`; returns the package folder. */
function installDropIn(): string {
  const printed = execFileSync(process.execPath, ["--import", "tsx", join(root, "compat/sdk/pack.ts")], { cwd: root, encoding: "utf8", env });
  const tarball = printed.trim().split("\n").at(-1) as string;
  const dir = join(work, "node_modules/@agentclientprotocol/sdk");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", dir, "--strip-components=1"]);
  return dir;
}

/** Runs the suite on `target`; returns what the reporter wrote. vitest's output goes to `.tmp/sdk-suite/<target>.log`. */
function runTarget(target: Target, dropIn: string): Results {
  const results = join(work, `${target}.json`);
  const log = join(work, `${target}.log`);
  rmSync(results, { force: true });
  const vitest = join(root, "node_modules/vitest/vitest.mjs");
  const args = [vitest, "run", "--config", join(here, "vitest.config.ts"), "--project", target, "--reporter", "default", "--reporter", join(here, "reporter.ts")];
  const run = spawnSync(process.execPath, args, { cwd: root, env: { ...env, SDK_SUITE_DROP_IN: dropIn, SDK_SUITE_RESULTS: results }, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  writeFileSync(log, `${run.stdout ?? ""}${run.stderr ?? ""}`);
  try {
    return JSON.parse(readFileSync(results, "utf8")) as Results;
  } catch {
    throw new Error(`the suite wrote no results for ${target} (vitest exit ${run.status ?? run.signal}); see ${log}`);
  }
}

mkdirSync(work, { recursive: true });
const only = process.argv.includes("--only") ? (process.argv[process.argv.indexOf("--only") + 1] as Target) : undefined;
if (only !== undefined && !targets.includes(only)) throw new Error(`--only takes one of ${targets.join(", ")}`);
if (only !== undefined && update) throw new Error("--update runs every target: leave out --only");
const { tests: previous, unhandled: previousUnhandled } = readLedger(ledgerPath);
const dropIn = only === undefined || only === "drop-in" ? installDropIn() : "";
const outcomes: Outcome[] = [];
const unhandled: Unhandled = {};
const problems: string[] = [];
for (const target of targets) {
  if (only !== undefined && target !== only) {
    // A run of one target takes the other targets' outcomes from the ledger.
    for (const e of previous.values()) outcomes.push({ target, file: e.file, name: e.name.replace(/ \(#\d+\)$/, ""), state: e.outcomes[target] === "pass" ? "passed" : "failed" });
    if (previousUnhandled[target] !== undefined) unhandled[target] = previousUnhandled[target];
    continue;
  }
  const results = runTarget(target, dropIn);
  outcomes.push(...results.outcomes);
  const files = [...new Set(results.unhandled.map((u) => u.file || "(no file)"))].sort();
  if (files.length > 0) unhandled[target] = files;
  // The baseline is the SDK on its own suite: an unhandled error there means the harness broke it.
  if (target === "baseline") problems.push(...results.unhandled.map((u) => `unhandled error on the baseline while ${u.file || "a file"} ran: ${u.message}`));
}
const entries = entriesOf(outcomes, isInternalFile, previous);
for (const e of entries.values()) if (e.outcomes.baseline !== "pass") problems.push(`baseline fails: ${keyOf(e)}`);
problems.push(...undocumented(entries.values(), readFileSync(join(root, "docs/sdk-drop-in.md"), "utf8")));
if (update) writeLedger(ledgerPath, entries.values(), unhandled);
else problems.push(...drift(previous, entries), ...unhandledDrift(previousUnhandled, unhandled));
console.log(summary(entries.values()));
for (const p of problems) console.error(p);
process.exitCode = problems.length === 0 ? 0 : 1;
