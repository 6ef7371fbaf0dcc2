/**
 * Renders docs/real-agents.md from the runs of scorecard.ts: per agent its
 * name@version, the command (offline), how the run ended, every row check
 * judged (pass, fail, n/a, or not run for a reason other than "no probe"),
 * the count of requirements check has no probe for and of those the
 * catalogue marks not observable (no traffic can decide them), the notes, and the
 * violations: every fail row, with the evidence (the traffic line when the
 * evidence is one). Then a summary table across agents.
 */
import v1Entries from "../../docs/conformance-catalogue.json" with { type: "json" };
import unstableEntries from "../../docs/conformance-catalogue-unstable.json" with { type: "json" };
import v2Entries from "../../docs/conformance-catalogue-v2.json" with { type: "json" };
import type { CheckReport } from "../check/main.ts";
import { citationUrl } from "../inspect/requirements.ts";
import { folderOf, type RealAgent } from "./agents.ts";
import type { ClientRun } from "./client-run.ts";
import { clientSection } from "./render-client.ts";
import type { AgentSdk } from "./sdk.ts";

/** One agent's run, as scorecard.ts saved it (docs/real-agents.json). */
export interface AgentRun {
  readonly agent: RealAgent;
  /** Why the agent could not be installed or started, if so. */
  readonly installError: string | undefined;
  readonly report: CheckReport | undefined;
  readonly exit: number | null;
  readonly seconds: number;
  /** The last lines check and the agent wrote on stderr. */
  readonly stderrTail: string;
  /** Processes still running from the agent's folder after check exited (then killed). */
  readonly left: readonly string[];
  /** `1` for the second run of an agent that negotiated v2: `check --protocol 1`. Absent: check negotiated (v2 first, then v1). */
  readonly asked?: 1 | undefined;
  /** The ACP SDK the agent depends on, read from its install after the run (sdk.ts). Absent: none found. */
  readonly sdk?: AgentSdk | undefined;
}

const NO_PROBE = "check has no probe for this requirement";

/** Every catalogue entry, v1, unstable and v2 (a v2 id is never a v1 id), for the statement and citation of a fail row. */
const CATALOGUE: ReadonlyMap<string, { readonly statement: string; readonly citation: string }> = new Map([...v1Entries, ...unstableEntries, ...v2Entries].map((e) => [e.id, e]));
/** A citation as links to the pinned spec commit where it is a docs line, as text otherwise (a schema path). */
const citationCell = (citation: string): string => citation.split("; ").map((c) => {
  const url = citationUrl(c);
  return url === undefined ? `\`${c}\`` : `[${c}](${url})`;
}).join(", ");
/** The line under a fail row on both real-peer pages: the requirement's statement and where the spec says it; undefined for an id no catalogue has. */
export function requirementLine(id: string): string | undefined {
  const spec = CATALOGUE.get(id);
  return spec === undefined ? undefined : `Requirement: ${cell(spec.statement)} (${citationCell(spec.citation)})`;
}
const cell = (s: string | undefined) => (s ?? "").replace(/\|/g, "\\|").replace(/\n/g, " ");
const count = (r: CheckReport, o: string) => r.rows.filter((x) => x.outcome === o).length;

function agentSection(run: AgentRun, timeout: number): string[] {
  const { agent, report } = run;
  const out = [`## ${agent.pkg}@${agent.version}${run.asked === 1 ? " on v1" : ""}`, ""];
  out.push(`Command (in \`<install>/${folderOf(agent)}\`, offline): \`unshare -n sh -c 'ip link set lo up; exec acp-router check --json --timeout ${agent.timeout ?? timeout}${run.asked === undefined ? "" : ` --protocol ${run.asked}`} -- ${agent.command.join(" ")}'\``, "");
  if (run.installError !== undefined) out.push(`**Not run:** ${cell(run.installError)}`, "");
  if (report === undefined) {
    if (run.installError === undefined) out.push(`**check wrote no scorecard** (exit ${String(run.exit)}). Last stderr lines:`, "", "```text", run.stderrTail, "```", "");
    return out;
  }
  const judged = report.rows.filter((r) => r.evidence !== NO_PROBE && r.outcome !== "not observable");
  const noProbe = report.rows.filter((r) => r.evidence === NO_PROBE).length;
  out.push(`Protocol v${report.protocol}, requirements from ${report.catalogue}. check exited ${String(run.exit)} after ${run.seconds.toFixed(0)} s: ${count(report, "pass")} pass, ${count(report, "fail")} fail, ${count(report, "n/a")} n/a, ${count(report, "not observable")} not observable, ${count(report, "not run")} not run (${noProbe} of them: no probe). Processes left after the run: ${run.left.length === 0 ? "none" : run.left.map((c) => `\`${cell(c)}\``).join(", ")}.`, "");
  out.push("| outcome | requirement | tier | evidence |", "|---|---|---|---|");
  for (const r of judged) out.push(`| ${r.outcome === "fail" ? "**fail**" : r.outcome} | ${r.id} | ${r.tier} | ${cell(r.evidence)} |`);
  out.push("");
  if (report.notes.length > 0) out.push("Notes:", "", ...report.notes.map((n) => `- ${cell(n)}`), "");
  const fails = report.rows.filter((r) => r.outcome === "fail");
  out.push(fails.length === 0 ? "Violations: none." : "Violations (each fail row: what check sent and saw, then the requirement and where the spec says it):", "");
  for (const f of fails) {
    const spec = requirementLine(f.id);
    out.push(`- **${f.id}** (${f.tier}): ${cell(f.evidence)}`);
    if (spec !== undefined) out.push(`  - ${spec}`);
  }
  out.push("");
  return out;
}

/** The whole page: the summary, each agent's scorecard, then the example client's runs (when there are any). */
export function renderPage(runs: readonly AgentRun[], timeout: number, clientRuns: readonly ClientRun[] = []): string {
  const out = [
    "# Real agents under `acp-router check`",
    "",
    "<!-- Generated by `npm run real-agents -- INSTALL_DIR` (tools/real-agents/scorecard.ts). Do not edit by hand. -->",
    "",
    `${new Set(runs.map((r) => r.agent.name)).size} ACP agents from npm, each installed in its own folder (\`npm install --no-audit --no-fund pkg@version\`) outside the repository and scored by \`acp-router check --timeout ${timeout}\` (an agent that needs longer says so in its command). Each run is offline: check and the agent run in a network namespace with loopback alone (\`unshare -n\`), with \`HOME\` an empty temporary folder, so no agent has credentials or reaches its vendor. Most of them therefore answer \`session/new\` or \`session/prompt\` with an error, and the session rows are n/a with that error; they are not failures. check asks for ACP v2 first and falls back to v1; an agent that answers v2 is scored a second time with \`--protocol 1\` (its v1 scorecard follows its v2 one).`,
    "",
    "Every fail row on this page and on [real-clients.md](real-clients.md) is reviewed against the spec sentence it breaks in [real-scorecards-review.md](real-scorecards-review.md).",
    "",
    "Every scorecard lists every agent-side requirement of the catalogue check used; the table under each agent shows the rows check judged (rows it has no probe for, and rows the catalogue marks not observable because no traffic can decide them, are counted, not listed; the catalogue gives each one's reason). A fail row is a violation of a requirement with a normative keyword (MUST, MUST NOT, SHOULD, SHOULD NOT), shown by the traffic quoted in its evidence; under the agent's violations each one also gives the requirement and the spec line it comes from. Rows whose cited text has no keyword (tier `none`) and MAY rows are never failed: what would break them is a note. The column *MUST failed* says yes only when a MUST or MUST NOT row failed, which is also when check exits 1. After each run `ps` is read for any process still running from the agent's folder.",
    "",
    "| agent | protocol | pass | fail | n/a | not observable | not run | MUST failed | exit | processes left |",
    "|---|---|---:|---:|---:|---:|---:|---|---:|---:|",
  ];
  for (const run of runs) {
    const r = run.report;
    const name = `${run.agent.pkg}@${run.agent.version}${run.asked === 1 ? " (--protocol 1)" : ""}`;
    if (r === undefined) out.push(`| ${name} | — | — | — | — | — | — | not run | ${String(run.exit)} | ${run.left.length} |`);
    else out.push(`| ${name} | v${r.protocol} | ${count(r, "pass")} | ${count(r, "fail")} | ${count(r, "n/a")} | ${count(r, "not observable")} | ${count(r, "not run")} | ${r.passed ? "no" : "**yes**"} | ${String(run.exit)} | ${run.left.length} |`);
  }
  out.push("");
  for (const run of runs) out.push(...agentSection(run, timeout));
  out.push(...clientSection(clientRuns));
  return `${out.join("\n").trimEnd()}\n`;
}
