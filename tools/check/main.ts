/**
 * `acp-router check [--json] [--cwd DIR] -- <agent command…>`: black-box
 * conformance of any stdio agent. Runs the probes (probes.ts), adds every
 * violation inspect's monitor found in the agent's traffic as a failure of
 * its requirement, and prints a scorecard by catalogue id: pass, fail (with
 * the evidence) or n/a. `--json` prints the scorecard as JSON for CI. Exit
 * status 1 when any MUST or MUST NOT requirement failed, 2 on usage errors.
 * The scorecard goes to stdout: check is not a proxy, nothing else uses it.
 */
import { parseArgs } from "node:util";
import { requirement } from "../inspect/requirements.ts";
import { startDriver } from "./driver.ts";
import { runProbes, type Verdict } from "./probes.ts";

const USAGE = "usage: acp-router check [--json] [--cwd DIR] -- <agent command…>";

export interface ScoreRow {
  readonly id: string;
  readonly tier: string;
  readonly outcome: Verdict["outcome"];
  readonly evidence: string | undefined;
}

/** Runs the probes against `command` and returns the scorecard rows, sorted by id. */
export async function scoreAgent(command: readonly string[], cwd: string): Promise<ScoreRow[]> {
  const verdicts = new Map<string, Verdict>();
  const score = (id: string, v: Verdict) => {
    if (verdicts.get(id)?.outcome !== "fail") verdicts.set(id, v);
  };
  const driver = startDriver(command);
  try {
    await runProbes(driver, score, cwd);
  } finally {
    if (driver.child.exitCode === null) await driver.close(1000);
  }
  for (const v of driver.monitor.violations) if (v.by === "agent") score(v.requirement, { outcome: "fail", evidence: v.message });
  return [...verdicts].map(([id, v]) => ({ id, tier: requirement(id)?.tier ?? "?", outcome: v.outcome, evidence: v.outcome === "pass" ? undefined : v.evidence })).sort((a, b) => a.id.localeCompare(b.id));
}

export async function checkMain(argv: readonly string[]): Promise<number> {
  const dash = argv.indexOf("--");
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  let values: { json?: boolean | undefined; cwd?: string | undefined };
  try {
    values = parseArgs({ args: dash === -1 ? [...argv] : argv.slice(0, dash), options: { json: { type: "boolean" }, cwd: { type: "string" } } }).values;
  } catch (error) {
    process.stderr.write(`acp-router check: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (command.length === 0) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const rows = await scoreAgent(command, values.cwd ?? process.cwd());
  const failedMust = rows.some((r) => r.outcome === "fail" && r.tier.startsWith("MUST"));
  if (values.json) process.stdout.write(`${JSON.stringify({ command, rows, passed: !failedMust }, null, 2)}\n`);
  else {
    for (const r of rows) process.stdout.write(`${r.outcome.padEnd(5)} ${r.id.padEnd(24)} ${r.tier.padEnd(10)}${r.evidence ? ` ${r.evidence}` : ""}\n`);
    const count = (o: string) => rows.filter((r) => r.outcome === o).length;
    process.stdout.write(`\n${count("pass")} pass, ${count("fail")} fail, ${count("n/a")} not applicable${failedMust ? "; a MUST failed" : ""}\n`);
  }
  return failedMust ? 1 : 0;
}
