/**
 * `acp-router check --client [options] -- <client command containing {agent}>`:
 * black-box conformance of an ACP client. The client is run once per
 * scenario (handshake, updates, permission, cancel, offers for a v1 client, version: scenarios.ts), each time
 * with `{agent}` replaced by a command that connects its stdio to a scripted
 * v1 agent living in the check process (bridge.mjs, over 127.0.0.1), and
 * `{prompt}` by the prompt text and `{cwd}` by a fresh temporary folder of
 * the run (for a client that takes the session's cwd on its command line).
 * The client runs in the caller's working folder, so a command with relative
 * paths works as typed; `freshDir` runs it in the temporary folder instead.
 * The scorecard has one row per client-side
 * requirement of docs/conformance-catalogue.json (side `client` or `both`):
 * pass, fail, n/a or not run, each non-pass with its evidence; exit status 1
 * when a MUST or MUST NOT row failed, 3 when no run started the agent
 * (nothing judged). A user cancel is SIGINT to the client's
 * process group, as Ctrl-C in a terminal sends it.
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import v1Entries from "../../docs/conformance-catalogue.json" with { type: "json" };
import type { CheckReport } from "../check/score.ts";
import type { Checklist } from "../check/checklist.ts";
import { createScorecard, notRun, type Scorecard } from "../check/score.ts";
import { judgeCoverageV2, judgeVersionDown, v2Scorecard } from "./v2.ts";
import { judgeCoverage } from "./coverage.ts";
import { judgeGates, judgeHandshake, judgeShutdown, judgeTraffic, judgeVersion } from "./judge.ts";
import { judgeOffers } from "./judge-offers.ts";
import { judgeInternalCancel } from "./judge-pending.ts";
import { runScenario, type RunResult } from "./run.ts";
import { SCENARIOS, type ScenarioName } from "./scenarios.ts";
import type { Shared } from "./turn-context.ts";

/** The client-side rows: every entry of the v1 catalogue that binds a client (side `client` or `both`). */
export const CLIENT_CHECKLIST: Checklist = {
  version: 1,
  catalogue: "docs/conformance-catalogue.json (ACP v1, client side)",
  entries: v1Entries.filter((e) => e.side !== "agent"),
  tier: (id) => v1Entries.find((e) => e.id === id)?.tier ?? "?",
};

/** Default wait for each answer of the client, in seconds: 10, ample for a local client, short enough that four runs stay bounded. */
export const DEFAULT_CLIENT_TIMEOUT_S = 10;
/** The evidence of a row no scenario judges. */
export const UNPROBED = "check --client has no probe for this requirement";
/** The prompt text `{prompt}` stands for by default. */
export const DEFAULT_PROMPT = "hello";

export interface ClientCheckOptions {
  readonly prompt?: string;
  readonly timeoutMs?: number;
  readonly env?: NodeJS.ProcessEnv;
  /** The client's working folder. Default: `process.cwd()` (the caller's). */
  readonly cwd?: string;
  /** Run the client in each run's fresh temporary folder instead of `cwd` (the old behaviour; give its paths absolute). */
  readonly freshDir?: boolean;
  /** `--strict-ids`: judge ids beyond ±(2^53−1) on ACP-JSONRPC-001 too (ids.ts). Default false. */
  readonly strictIds?: boolean;
}

/** One run as the report shows it. */
export interface RunSummary {
  readonly scenario: ScenarioName;
  readonly exit: string;
  readonly tail: string;
}

export interface ClientReport extends CheckReport {
  readonly runs: readonly RunSummary[];
  /** True when no run started the agent: nothing was judged, and `check --client` exits 3. */
  readonly nothingJudged?: boolean;
  /** The one line that says so, when `nothingJudged`. */
  readonly nothingJudgedLine?: string;
  /** The handshake run's versions: what the client offered in each initialize, in order, and what check's agent answered (the offered version when it is 1 or 2). */
  readonly negotiated: { readonly offered: readonly unknown[]; readonly answered: number | undefined };
}

/**
 * The note that says which version the connection ran. check's agent
 * answers the version the client offers when it speaks it (1 or 2; 2 for a
 * newer one), so a v2 client is scored on the v2 client-side rows of
 * docs/conformance-catalogue-v2.json, a v1 client on the v1 rows.
 */
export function negotiationNote(offered: readonly unknown[], answered: number | undefined): string {
  if (answered === undefined) return "negotiated protocol version: none (the client never sent initialize)";
  const asked = offered.map((v) => JSON.stringify(v)).join(", then ");
  return `negotiated protocol version: ${answered} (the client offered ${asked}; check's agent answers the offered version when it speaks it: 1 or 2)`;
}

const describeExit = (r: RunResult) => `${r.exit.error ? `not started: ${r.exit.error.message}` : r.exit.signal !== null ? `signal ${r.exit.signal}` : `code ${String(r.exit.code)}`}${r.ended ? " (ended at the run's bound)" : ""}`;

/** Runs every scenario against `command` and returns the scorecard. */
export async function scoreClient(command: readonly string[], options: ClientCheckOptions = {}): Promise<ClientReport> {
  let card: Scorecard = createScorecard(CLIENT_CHECKLIST);
  let v2: ReturnType<typeof v2Scorecard> | undefined;
  const shared: Shared = {};
  const runs: RunResult[] = [];
  const timeoutMs = options.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_S * 1000;
  if (!command.some((w) => w.includes("{agent}"))) card.notes.push("the client command has no {agent}: the client cannot reach check's agent");
  const scenarios: ScenarioName[] = [...SCENARIOS];
  for (const scenario of scenarios) {
    // The offers run probes v1 rows (session/list paging, auth method types) that the v2 catalogue does not have.
    if (scenario === "offers" && v2 !== undefined) continue;
    const scratch = realpathSync(mkdtempSync(join(tmpdir(), `acp-check-client-${scenario}-`)));
    const cwd = options.freshDir ? scratch : (options.cwd ?? process.cwd());
    // check's own folder for the run: removed when the run is over (the client under test has exited).
    const run = await runScenario(command, scenario, card, shared, { prompt: options.prompt ?? DEFAULT_PROMPT, timeoutMs, scratch, cwd, env: options.env, strictIds: options.strictIds === true }).finally(() => rmSync(scratch, { recursive: true, force: true }));
    runs.push(run);
    if (!run.peer.connected) card.notes.push(`${scenario} run: the client never started the agent (client ${describeExit(run)}; its last line: ${JSON.stringify(run.tail.trim().split("\n").at(-1) ?? "")})`);
    else if (run.handshake.turnEndedAt === undefined && scenario !== "version") card.notes.push(`${scenario} run: the turn did not finish (client ${describeExit(run)})`);
    if (scenario === "handshake" && run.handshake.version === 2) {
      // A v2 client: every row from here on is a v2 row, and a version-down run probes its fallback to 1.
      v2 = v2Scorecard();
      v2.notes.push(...card.notes);
      card = v2;
      scenarios.push("version-down");
    }
    if (scenario === "handshake") {
      judgeHandshake(card, run);
      judgeShutdown(card, run);
    }
    // The version runs' traffic follows a version other than the session's: only the fallback is judged on it.
    if (scenario === "version") judgeVersion(card, run);
    else if (scenario === "version-down") judgeVersionDown(card, run);
    else judgeTraffic(card, run);
    if (scenario === "offers") judgeOffers(card, run);
    if (scenario === "cancel") judgeInternalCancel(card, run);
    if (run.exit.error) break;
  }
  const first = runs[0]?.handshake;
  const negotiated = { offered: first?.offered ?? [], answered: first?.answered };
  if (first?.init !== undefined) card.notes.unshift(negotiationNote(negotiated.offered, negotiated.answered));
  const nothingJudged = runs.every((r) => !r.peer.connected);
  if (nothingJudged) for (const e of CLIENT_CHECKLIST.entries) card.score(e.id, notRun("the client never started the agent"));
  else {
    judgeGates(card, runs);
    judgeCoverage(card, runs);
    if (v2 !== undefined) judgeCoverageV2(v2, runs);
  }
  const rows = card.rows(UNPROBED);
  const passed = !rows.some((r) => r.outcome === "fail" && r.tier.startsWith("MUST"));
  const firstRun = runs[0];
  const nothingJudgedLine = nothingJudged && firstRun !== undefined ? `nothing judged: the client never started the agent in any of the ${runs.length} runs (first run: client ${describeExit(firstRun)}; its last line: ${JSON.stringify(firstRun.tail.trim().split("\n").at(-1) ?? "")})` : undefined;
  return {
    protocol: card.checklist.version,
    catalogue: card.checklist.catalogue,
    rows,
    notes: card.notes,
    sections: card.sections,
    passed,
    nothingJudged,
    ...(nothingJudgedLine !== undefined ? { nothingJudgedLine } : {}),
    negotiated,
    runs: runs.map((r) => ({ scenario: r.scenario, exit: describeExit(r), tail: r.tail.split("\n").slice(-6).join("\n") })),
  };
}
