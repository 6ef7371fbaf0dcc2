/**
 * `acp-router check [options] -- <agent command…>`: black-box conformance
 * of any stdio agent. Negotiates the protocol, runs the probes (probes.ts),
 * adds every violation inspect's monitor found in the agent's traffic, and
 * prints a scorecard with one row per agent-side requirement of the
 * negotiated protocol's catalogue: pass, fail, n/a or not run, each
 * non-pass with its reason, then notes (the catalogue and table used, late
 * answers, an agent that died or lingered). Exit status 1 when a MUST or
 * MUST NOT requirement failed, 0 otherwise, 2 on usage errors (0 for
 * `--help`). The scorecard goes to stdout: check is not a proxy.
 */
import { parseArgs } from "node:util";
import { DEFAULT_TIMEOUT_MS, startDriver } from "./driver.ts";
import { EXIT_GRACE_MS, runCheck } from "./probes.ts";
import type { CheckReport, ScoreRow } from "./score.ts";

export type { CheckReport, ScoreRow } from "./score.ts";

export const USAGE = `usage: acp-router check [options] -- <agent command...>
       acp-router check --client [--json] [--prompt TEXT] [--timeout SECONDS] -- <client command with {agent}...>

Starts the agent, probes it over stdio and prints a scorecard: every agent-side
requirement of the ACP catalogue for the negotiated version, as pass, fail,
n/a or not run, each non-pass with its reason.

options:
  --json            print the scorecard as JSON (for CI)
  --cwd DIR         the session's cwd (default: the current directory)
  --timeout SECONDS how long to wait for each answer (default: 30)
  --auth METHOD_ID  authenticate with this method (agent or env_var type) before session/new
  --protocol 1|2    ask for this version only (default: ask for 2, fall back to 1)
  --client          score a client instead: {agent} in its command becomes an agent run by check
                    (one client run per scenario, each in a fresh temporary folder, so give
                    the client's paths absolute; a user cancel is SIGINT to the client's group;
                    --timeout defaults to 10 here; see docs/real-clients.md)
  --prompt TEXT     with --client: what {prompt} in the client command stands for (default: hello)
  -h, --help        show this help

Exit status: 1 when a MUST or MUST NOT requirement failed, 0 otherwise, 2 on usage errors.
`;

export interface CheckOptions {
  readonly cwd: string;
  readonly timeoutMs?: number;
  readonly auth?: string | undefined;
  readonly protocol?: 1 | 2 | undefined;
}


/** Runs the probes against `command` and returns the scorecard. */
export async function scoreAgent(command: readonly string[], options: CheckOptions): Promise<CheckReport> {
  const driver = startDriver(command, { timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, graceMs: EXIT_GRACE_MS });
  const spawn = () => startDriver(command, { timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, graceMs: EXIT_GRACE_MS });
  const { card, unprobed } = await runCheck(driver, { cwd: options.cwd, auth: options.auth, protocol: options.protocol, spawn });
  if (driver.startError !== undefined) card.notes.unshift(`the command could not be started: ${driver.startError.message}`);
  const rows = card.rows(unprobed);
  const passed = !rows.some((r) => r.outcome === "fail" && r.tier.startsWith("MUST"));
  return { protocol: card.checklist.version, catalogue: card.checklist.catalogue, rows, notes: card.notes, passed };
}

/** Renders a report as text: one row per line, the notes, then the counts. */
export function renderText(report: CheckReport): string {
  const out = [`protocol v${report.protocol}; requirements from ${report.catalogue}`, ""];
  for (const r of report.rows) out.push(`${r.outcome.padEnd(7)} ${r.id.padEnd(24)} ${r.tier.padEnd(10)}${r.evidence ? ` ${r.evidence}` : ""}`);
  if (report.notes.length > 0) out.push("", "notes:", ...report.notes.map((n) => `  - ${n}`));
  const count = (o: string) => report.rows.filter((r) => r.outcome === o).length;
  out.push("", `${count("pass")} pass, ${count("fail")} fail, ${count("n/a")} n/a, ${count("not observable")} not observable, ${count("not run")} not run${report.passed ? "" : "; a MUST failed"}`);
  return `${out.join("\n")}\n`;
}

export async function checkMain(argv: readonly string[]): Promise<number> {
  const dash = argv.indexOf("--");
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  let values: { json?: boolean | undefined; cwd?: string | undefined; timeout?: string | undefined; auth?: string | undefined; protocol?: string | undefined; client?: boolean | undefined; prompt?: string | undefined; help?: boolean | undefined };
  try {
    values = parseArgs({
      args: dash === -1 ? [...argv] : argv.slice(0, dash),
      options: { json: { type: "boolean" }, cwd: { type: "string" }, timeout: { type: "string" }, auth: { type: "string" }, protocol: { type: "string" }, client: { type: "boolean" }, prompt: { type: "string" }, help: { type: "boolean", short: "h" } },
    }).values;
  } catch (error) {
    process.stderr.write(`acp-router check: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const seconds = values.timeout === undefined ? undefined : Number(values.timeout);
  const protocol = values.protocol === undefined ? undefined : Number(values.protocol);
  const bad = seconds !== undefined && !(seconds > 0) ? `--timeout must be a positive number of seconds, not ${values.timeout}` : protocol !== undefined && protocol !== 1 && protocol !== 2 ? `--protocol must be 1 or 2, not ${values.protocol}` : command.length === 0 ? `no ${values.client ? "client" : "agent"} command after --` : undefined;
  if (bad !== undefined) {
    process.stderr.write(`acp-router check: ${bad}\n${USAGE}`);
    return 2;
  }
  const timeout = seconds !== undefined ? { timeoutMs: seconds * 1000 } : {};
  if (values.client) {
    const { scoreClient } = await import("../check-client/main.ts");
    const card = await scoreClient(command, { ...(values.prompt !== undefined ? { prompt: values.prompt } : {}), ...timeout });
    process.stdout.write(values.json ? `${JSON.stringify({ command, ...card }, null, 2)}\n` : renderText(card));
    return card.passed ? 0 : 1;
  }
  const report = await scoreAgent(command, { cwd: values.cwd ?? process.cwd(), auth: values.auth, protocol: protocol as 1 | 2 | undefined, ...timeout });
  if (values.json) process.stdout.write(`${JSON.stringify({ command, ...report }, null, 2)}\n`);
  else process.stdout.write(renderText(report));
  return report.passed ? 0 : 1;
}
