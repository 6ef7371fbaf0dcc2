/**
 * Renders docs/real-agents.md from the runs of scorecard.ts: per agent its
 * name@version, the command (offline), how the run ended, every row check
 * judged (pass, fail, n/a, or not run for a reason other than "no probe"),
 * the count of requirements check has no probe for and of those the
 * catalogue marks not observable (no traffic can decide them), the notes, and the
 * violations: every fail row, with the evidence (the traffic line when the
 * evidence is one). Then a summary table across agents.
 */
import type { CheckReport } from "../check/main.ts";
import { tally } from "../check/score.ts";
import { renderSectionsMarkdown } from "../check/sections.ts";
import { folderOf, type RealAgent } from "./agents.ts";
import type { ClientRun } from "./client-run.ts";
import { clientSection } from "./render-client.ts";
import { cell, requirementLines } from "./requirement.ts";
import { fromSdkBatchRefusal, sdkLine, signsOf, type AgentSdk } from "./sdk.ts";

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
  /** Processes still running from the agent's folder 3 s after check exited (then killed). */
  readonly left: readonly string[];
  /** `1` for the second run of an agent that negotiated v2: `check --protocol 1`. Absent: check negotiated (v2 first, then v1). */
  readonly asked?: 1 | undefined;
  /** The ACP SDK the agent depends on, read from its install after the run (sdk.ts). Absent: none found. */
  readonly sdk?: AgentSdk | undefined;
}

const NO_PROBE = "check has no probe for this requirement";

/** The line under a fail row: the requirement and the spec's words (requirement.ts); kept for callers of one line. */
export function requirementLine(id: string): string | undefined {
  const lines = requirementLines(id);
  return lines.length === 0 ? undefined : lines.join(" ");
}
/** Rows of `outcome`, each fact once: a row one observation decided together with another counts there (tally). */
const count = (r: CheckReport, o: string) => tally(r.rows).counts.get(o) ?? 0;
/** "(3 more rows decided by an observation counted with another row)", or "". */
const linkedNote = (r: CheckReport) => {
  const { linked } = tally(r.rows);
  return linked === 0 ? "" : ` (${linked} more row${linked === 1 ? "" : "s"} decided by an observation counted with another row)`;
};

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
  out.push(
    `Protocol v${report.protocol}, requirements from ${report.catalogue}. check exited ${String(run.exit)} after ${run.seconds.toFixed(0)} s: ${count(report, "pass")} pass, ${count(report, "fail")} fail, ${count(report, "n/a")} n/a, ${count(report, "not observable")} not observable, ${count(report, "not run")} not run (${noProbe} of them: no probe)${linkedNote(report)}. Processes left after the run: ${run.left.length === 0 ? "none" : run.left.map((c) => `\`${cell(c)}\``).join(", ")}.`,
    "",
  );
  if (run.sdk !== undefined) out.push(sdkLine(run.sdk, signsOf(report)), "");
  out.push("| outcome | requirement | tier | evidence |", "|---|---|---|---|");
  for (const r of judged) out.push(`| ${r.outcome === "fail" ? "**fail**" : r.outcome} | ${r.id} | ${r.tier} | ${cell(r.evidence)} |`);
  out.push("");
  if (report.notes.length > 0) out.push("Notes:", "", ...report.notes.map((n) => `- ${cell(n)}`), "");
  out.push(...renderSectionsMarkdown(report.sections ?? [], cell));
  // A row linked to another (sameAs) is the same fact: listed once, under the row that carries the evidence.
  const fails = report.rows.filter((r) => r.outcome === "fail" && r.sameAs === undefined);
  out.push(fails.length === 0 ? "Violations: none." : "Violations (each fail row: what check sent and saw, then the requirement, and the spec's own words with their source and date):", "");
  for (const f of fails) {
    out.push(`- **${f.id}** (${f.tier}): ${cell(f.evidence)}`);
    for (const line of requirementLines(f.id)) out.push(`  - ${line}`);
    if (fromSdkBatchRefusal(run.sdk, f.evidence)) out.push(`  - This answer is written by ${run.sdk!.name} ${run.sdk!.version}, the SDK the agent is built on, not by the agent's own code.`);
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
    "Every scorecard lists every agent-side requirement of the catalogue check used; the table under each agent shows the rows check judged (rows it has no probe for, and rows the catalogue marks not observable because no traffic can decide them, are counted, not listed; the catalogue gives each one's reason). A fail row is a violation of a requirement with a normative keyword (MUST, MUST NOT, SHOULD, SHOULD NOT), shown by the traffic quoted in its evidence (each line sent and received whole, or its first 2 KB); under the agent's violations each one also gives the requirement and the spec's own sentence it rests on, with its source and date (docs/conformance-quotes.json). Rows whose cited text has no keyword (tier `none`) and MAY rows are never failed: what would break them is a note. Rows one observation decides together (a notification answered breaks two rows at once) point to each other and count once, in every total. Request ids beyond ±(2^53−1) are an interoperability finding, in a section of each card of its own, never counted (the id MUST is judged on 2^53−1, −(2^53−1), 0 and a string). Where the agent is built on the ACP SDK and a behaviour on its card comes from that SDK (the batch refusal, an id rounded), the card says so and names the SDK's version. The column *MUST failed* says yes only when a MUST or MUST NOT row failed, which is also when check exits 1. After each run `ps` is read for any process still running from the agent's folder; one counts as left when it is still running 3 s after check exited (check ends the agent's process group itself, SIGKILL one second after SIGTERM).",
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
