/**
 * `acp-router check [options] -- <agent command…>`: black-box conformance
 * of any stdio agent. Negotiates the protocol, runs the probes (probes.ts),
 * adds every violation inspect's monitor found in the agent's traffic, and
 * prints a scorecard with one row per agent-side requirement of the
 * negotiated protocol's catalogue: pass, fail, n/a or not run, each
 * non-pass with its reason, then notes (the catalogue and table used, late
 * answers, an agent that died or lingered). Exit status 1 when a MUST or
 * MUST NOT requirement failed (and no `--expect` entry accepts it), 0
 * otherwise, 2 on usage errors (0 for `--help`), 3 when nothing was judged
 * (`--client`: no run started the agent). The scorecard goes to stdout:
 * check is not a proxy. `--junit`, `--expect`, `--only` and `--skip` are in
 * ci.ts.
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { applyExpectations, prefixes, readExpectations, renderJUnit, selectRows, type Expectation } from "./ci.ts";
import { DEFAULT_TIMEOUT_MS, startDriver } from "./driver.ts";
import { renderEnding } from "./ending.ts";
import { runCheck } from "./probes.ts";
import { tally, type CheckReport, type ScoreRow } from "./score.ts";
import { createRecorder } from "./record.ts";
import { renderSectionsText } from "./sections.ts";
import { quoteWords, specWords } from "./spec-words.ts";

export type { CheckReport, ScoreRow } from "./score.ts";

export const USAGE = `usage: acp-router check [options] -- <agent command...>
       acp-router check --client [options] -- <client command with {agent}...>

Starts the agent, probes it over stdio and prints a scorecard: every agent-side
requirement of the ACP catalogue for the negotiated version, as pass, fail,
n/a or not run, each non-pass with its reason.

options:
  --json            print the scorecard as JSON (for CI)
  --cwd DIR         the session's cwd (default: the current directory)
  --timeout SECONDS how long to wait for each answer (default: 30)
  --quiet SECONDS   how long to watch for a message that must not come: an answer to a
                    notification, an update after an answer (default: 1)
  --exit-grace SECONDS
                    how long the agent may take to exit after check closes its stdin,
                    before its process group is ended (default: 5)
  --auth METHOD_ID  authenticate with this method (agent or env_var type) before session/new
  --protocol 1|2    ask for this version only (default: ask for 2, fall back to 1)
  --strict-ids      also judge request ids beyond ±(2^53-1) on the id-echo MUST (ACP-JSONRPC-001,
                    v2 ACP-JSONRPC-302), reading the schema's int64 annotation as part of it: only
                    the same digits pass. By default those ids are interoperability findings,
                    shown in a section of their own and never counted (docs/conformance-check.md)
  --record FILE     write every line of both directions, of every run of the agent, to FILE
                    (inspect's recording format); evidence that cuts a line longer than 2 KB
                    names the line of FILE that holds it whole
  --client          score a client instead: {agent} in its command becomes an agent run by check
                    (one client run per scenario, in the current directory; {cwd} stands for a
                    fresh temporary folder per run; a user cancel is SIGINT to the client's group;
                    --timeout defaults to 10 here; see docs/real-clients.md)
  --prompt TEXT     with --client: what {prompt} in the client command stands for (default: hello)
  --fresh-dir       with --client: run the client in the fresh temporary folder instead
                    (give its paths absolute)
  --junit FILE      also write the scorecard as JUnit XML: one test case per requirement,
                    failures with their evidence, every other non-pass skipped with its reason
  --expect FILE     a JSON list of accepted deviations [{"id", "outcome", "reason"}]: their
                    fails do not fail the run; one that no longer fails is noted
  --only PREFIX     keep only the rows whose id starts with PREFIX (repeatable, or a,b,c)
  --skip PREFIX     leave out the rows whose id starts with PREFIX (repeatable, or a,b,c)
  -h, --help        show this help

Exit status: 0 when no MUST or MUST NOT requirement failed unexpectedly, 1 when one did,
2 on usage errors, 3 when nothing was judged (--client: the client never started the agent).
`;

/** The exit status when nothing was judged. */
export const NOTHING_JUDGED = 3;

export interface CheckOptions {
  readonly cwd: string;
  readonly timeoutMs?: number;
  /** How long to watch for a message that must not come (`--quiet`); default 1 s (DEFAULT_QUIET_MS). */
  readonly quietMs?: number;
  /** How long the agent may take to exit after its stdin closes (`--exit-grace`); default 5 s (DEFAULT_GRACE_MS). */
  readonly graceMs?: number;
  readonly auth?: string | undefined;
  readonly protocol?: 1 | 2 | undefined;
  /** `--strict-ids`: judge ids beyond ±(2^53−1) on the id-echo MUST too (probes-ids.ts). Default false. */
  readonly strictIds?: boolean | undefined;
  /** `--record FILE`: where every line of every run is recorded. */
  readonly record?: string | undefined;
}

/** Runs the probes against `command` and returns the scorecard. */
export async function scoreAgent(command: readonly string[], options: CheckOptions): Promise<CheckReport> {
  const recorder = options.record !== undefined ? createRecorder(options.record) : undefined;
  const driverOptions = { timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, recorder, ...(options.quietMs !== undefined ? { quiet: options.quietMs } : {}), ...(options.graceMs !== undefined ? { graceMs: options.graceMs } : {}) };
  const driver = startDriver(command, { ...driverOptions, label: "main run" });
  const spawn = (label: string) => startDriver(command, { ...driverOptions, label });
  try {
    const { card, unprobed } = await runCheck(driver, { cwd: options.cwd, auth: options.auth, protocol: options.protocol, spawn, strictIds: options.strictIds === true });
    if (driver.startError !== undefined) card.notes.unshift(`the command could not be started: ${driver.startError.message}`);
    if (recorder !== undefined) card.notes.push(`every line of every run is recorded in ${recorder.file}`);
    const rows = card.rows(unprobed);
    const passed = !rows.some((r) => r.outcome === "fail" && r.tier.startsWith("MUST"));
    const ending = driver.ending;
    return { protocol: card.checklist.version, catalogue: card.checklist.catalogue, rows, notes: card.notes, sections: card.sections, passed, ...(ending !== undefined ? { ending } : {}) };
  } finally {
    recorder?.close();
  }
}

/** Renders a report as text: one row per line, the notes, the sections apart from the rows (never counted), then the counts. */
export function renderText(report: CheckReport): string {
  const out = [`protocol v${report.protocol}; requirements from ${report.catalogue}`, ""];
  for (const r of report.rows) {
    out.push(`${r.outcome.padEnd(7)} ${r.id.padEnd(24)} ${r.tier.padEnd(10)}${r.evidence ? ` ${r.evidence}` : ""}`);
    // Under a fail that carries its evidence: the spec's own words it rests on, with their source and date.
    if (r.outcome === "fail" && r.sameAs === undefined) for (const w of specWords(r.id)) out.push(`${" ".repeat(44)}the spec: ${quoteWords(w)}`);
  }
  if (report.notes.length > 0) out.push("", "notes:", ...report.notes.map((n) => `  - ${n}`));
  if (report.ending !== undefined) out.push("", ...renderEnding(report.ending));
  out.push(...renderSectionsText(report.sections ?? []));
  out.push("", `${countLine(report.rows)}${report.passed ? "" : "; a MUST failed"}`);
  return `${out.join("\n")}\n`;
}

/**
 * "30 pass, 0 fail, 2 n/a, 92 not run", with any other outcome counted after those; each fact once (rows one
 * observation decided count with the row that shows it, and the line says how many were counted so).
 */
export function countLine(rows: readonly ScoreRow[]): string {
  const { counts, linked } = tally(rows);
  const shown = [...counts].filter(([o, n]) => n > 0 || o === "pass" || o === "fail" || o === "n/a" || o === "not run");
  return `${shown.map(([o, n]) => `${n} ${o}`).join(", ")}${linked > 0 ? ` (${linked} more row${linked === 1 ? "" : "s"} decided by an observation counted with another row)` : ""}`;
}

/** What the CI flags ask for. */
interface CiOptions {
  readonly junit: string | undefined;
  readonly expectations: readonly Expectation[] | undefined;
  readonly only: readonly string[];
  readonly skip: readonly string[];
}

/**
 * Selects the rows, applies the expectations, writes the JUnit file and the
 * scorecard, and returns the exit status (`nothing`: nothing was judged).
 */
function finish(report: CheckReport, extra: Record<string, unknown>, json: boolean, ci: CiOptions, suite: string, nothing?: string): number {
  const rows = selectRows(report.rows, ci.only, ci.skip);
  const verdict = ci.expectations !== undefined ? applyExpectations(rows, ci.expectations) : undefined;
  const passed = verdict !== undefined ? verdict.unexpected.length === 0 : !rows.some((r) => r.outcome === "fail" && r.tier.startsWith("MUST"));
  const notes = [...report.notes, ...(verdict?.notes ?? []), ...(verdict !== undefined && verdict.expected.length > 0 ? [`expected fails (--expect): ${verdict.expected.map((r) => r.id).join(", ")}`] : [])];
  const shown: CheckReport = { ...report, rows, notes, passed };
  if (ci.junit !== undefined) writeFileSync(ci.junit, renderJUnit(shown, rows, suite, ci.expectations));
  if (json) process.stdout.write(`${JSON.stringify({ ...extra, ...shown }, null, 2)}\n`);
  else if (nothing !== undefined) process.stdout.write(`${nothing}\n`);
  else process.stdout.write(renderText(shown));
  if (nothing !== undefined) {
    if (json) process.stderr.write(`acp-router check: ${nothing}\n`);
    return NOTHING_JUDGED;
  }
  return passed ? 0 : 1;
}

export async function checkMain(argv: readonly string[]): Promise<number> {
  const dash = argv.indexOf("--");
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  let values: {
    json?: boolean | undefined;
    "strict-ids"?: boolean | undefined;
    record?: string | undefined;
    cwd?: string | undefined;
    timeout?: string | undefined;
    quiet?: string | undefined;
    "exit-grace"?: string | undefined;
    auth?: string | undefined;
    protocol?: string | undefined;
    client?: boolean | undefined;
    prompt?: string | undefined;
    "fresh-dir"?: boolean | undefined;
    junit?: string | undefined;
    expect?: string | undefined;
    only?: string[] | undefined;
    skip?: string[] | undefined;
    help?: boolean | undefined;
  };
  try {
    values = parseArgs({
      args: dash === -1 ? [...argv] : argv.slice(0, dash),
      options: {
        json: { type: "boolean" },
        "strict-ids": { type: "boolean" },
        record: { type: "string" },
        cwd: { type: "string" },
        timeout: { type: "string" },
        quiet: { type: "string" },
        "exit-grace": { type: "string" },
        auth: { type: "string" },
        protocol: { type: "string" },
        client: { type: "boolean" },
        prompt: { type: "string" },
        "fresh-dir": { type: "boolean" },
        junit: { type: "string" },
        expect: { type: "string" },
        only: { type: "string", multiple: true },
        skip: { type: "string", multiple: true },
        help: { type: "boolean", short: "h" },
      },
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
  const quiet = values.quiet === undefined ? undefined : Number(values.quiet);
  const grace = values["exit-grace"] === undefined ? undefined : Number(values["exit-grace"]);
  const protocol = values.protocol === undefined ? undefined : Number(values.protocol);
  const bad =
    seconds !== undefined && !(seconds > 0)
      ? `--timeout must be a positive number of seconds, not ${values.timeout}`
      : quiet !== undefined && !(quiet > 0)
        ? `--quiet must be a positive number of seconds, not ${values.quiet}`
        : grace !== undefined && !(grace > 0)
          ? `--exit-grace must be a positive number of seconds, not ${values["exit-grace"]}`
          : protocol !== undefined && protocol !== 1 && protocol !== 2
            ? `--protocol must be 1 or 2, not ${values.protocol}`
            : command.length === 0
              ? `no ${values.client ? "client" : "agent"} command after --`
              : undefined;
  if (bad !== undefined) {
    process.stderr.write(`acp-router check: ${bad}\n${USAGE}`);
    return 2;
  }
  let expectations: Expectation[] | undefined;
  try {
    expectations = values.expect !== undefined ? readExpectations(values.expect) : undefined;
  } catch (error) {
    process.stderr.write(`acp-router check: ${(error as Error).message}\n`);
    return 2;
  }
  const ci: CiOptions = { junit: values.junit, expectations, only: prefixes(values.only), skip: prefixes(values.skip) };
  const timeout = seconds !== undefined ? { timeoutMs: seconds * 1000 } : {};
  const windows = { ...(quiet !== undefined ? { quietMs: quiet * 1000 } : {}), ...(grace !== undefined ? { graceMs: grace * 1000 } : {}) };
  const json = values.json === true;
  if (values.client) {
    const { scoreClient } = await import("../check-client/main.ts");
    const card = await scoreClient(command, { ...(values.prompt !== undefined ? { prompt: values.prompt } : {}), ...timeout, ...(values.cwd !== undefined ? { cwd: values.cwd } : {}), freshDir: values["fresh-dir"] === true, strictIds: values["strict-ids"] === true });
    return finish(card, { command }, json, ci, `check --client (ACP v${card.protocol}, client side)`, card.nothingJudged ? card.nothingJudgedLine : undefined);
  }
  const report = await scoreAgent(command, { cwd: values.cwd ?? process.cwd(), auth: values.auth, protocol: protocol as 1 | 2 | undefined, strictIds: values["strict-ids"] === true, record: values.record, ...timeout, ...windows });
  return finish(report, { command }, json, ci, `check (ACP v${report.protocol}, agent side)`);
}
