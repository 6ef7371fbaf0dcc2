/**
 * The run of `acp-router check` on one agent process: negotiate the
 * protocol (ask for v2; an agent answering 1 gets a v1 initialize on the
 * same connection, as the negotiating client does), pick that version's
 * checklist, run the session-independent probes (always), then the session
 * probes, then shutdown by closing stdin. inspect's monitor watches the
 * traffic throughout: its findings about the agent become fails of their
 * requirements, and its silence passes the rows it is the only judge of
 * when the traffic exercised them. Requests still pending when check hangs
 * up are not charged to the agent.
 */
import { V1_CHECKLIST, V2_CHECKLIST } from "./checklist.ts";
import type { Driver } from "./driver.ts";
import { deathReason, describeError, quoteText, type Run, type RunOptions, seconds, show } from "./kit.ts";
import { depthProbes, V1_DEPTH_ROWS } from "./probes-depth.ts";
import { sessionProbes, V1_SESSION_ROWS } from "./probes-session.ts";
import { unstableProbes, v2UnstableProbes } from "./probes-unstable.ts";
import { V1_UNSTABLE_ROWS, V2_UNSTABLE_ROWS } from "./unstable-surface.ts";
import { v2Probes, V2_ROWS } from "./probes-v2.ts";
import { v2TrafficProbes } from "./probes-v2-traffic.ts";
import { V1_WIRE, V2_WIRE, wireProbes, wireRows } from "./probes-wire.ts";
import { createScorecard, fail, na, notRun, pass, passNoted, type Scorecard } from "./score.ts";
import { judgeV2Initialize } from "./probes-v2-init.ts";
import { shutdown } from "./probes-shutdown.ts";
import { firstInitialize, SLOW_START_FACTOR } from "./first-initialize.ts";
import { mcpProbe } from "./probes-mcp.ts";
import { fromMonitor } from "./traffic.ts";

const CLIENT_INFO = { name: "acp-router-check", version: "0.1.0" };

type Body = Record<string, unknown> | undefined;

/** Sends the first `initialize` and waits (first-initialize.ts); an answer after the timeout (a slow start) is noted. */
async function initialize(run: Run, params: unknown): Promise<{ answer: Body; late: string | undefined }> {
  const { d } = run;
  const { answer, lateMs } = await firstInitialize(d, params);
  if (answer === undefined && d.death === undefined && d.unanswered.some((u) => u.id === d.lastRequestId)) return { answer, late: `no answer within ${seconds(d.timeout)}, nor in the ${seconds(d.timeout * SLOW_START_FACTOR)} after` };
  if (lateMs === undefined) return { answer, late: undefined };
  return { answer, late: `no answer within ${seconds(d.timeout)}; answered after ${seconds(lateMs)} (a slow start: --timeout ${Math.ceil(lateMs / 1000) + 10} waits for it)` };
}

/** Runs the whole check; resolves with the scorecard (whose checklist says which protocol was used). */
export async function runCheck(d: Driver, options: RunOptions): Promise<CheckResult> {
  const run: Run = { d, card: createScorecard(V1_CHECKLIST), options, watched: [], judged: new Set() };
  const v2Params = { protocolVersion: 2, info: CLIENT_INFO, capabilities: {} };
  const v1Params = { protocolVersion: 1, clientCapabilities: {}, clientInfo: CLIENT_INFO };
  let first = await initialize(run, options.protocol === 1 ? v1Params : v2Params);
  const initId = d.lastRequestId;
  let result = first.answer?.result as Record<string, unknown> | undefined;
  const v2 = options.protocol !== 1 && result?.protocolVersion === 2;
  if (v2) run.card = createScorecard(V2_CHECKLIST);
  else if (options.protocol === undefined && first.answer !== undefined) {
    run.card.notes.push(`asked for protocol 2, the agent answered ${show(first.answer)}; initialized again with protocol 1`);
    first = { ...(await initialize(run, v1Params)), late: first.late };
    result = first.answer?.result as Record<string, unknown> | undefined;
  }
  const { card } = run;
  const initRows = v2 ? ["ACP-INIT-303", "ACP-INIT-307"] : ["ACP-INIT-001"];
  if (d.death !== undefined && first.answer === undefined) card.all(initRows, fail(`${deathReason(d)}, before answering initialize`));
  else if (first.late !== undefined && first.answer === undefined) card.all(initRows, fail(first.late));
  else if (first.late !== undefined) {
    card.all(initRows, passNoted(first.late));
    card.notes.push(`late answers (after --timeout ${seconds(d.timeout)}; not violations): initialize ${first.late}`);
  }
  if (result === undefined || typeof result.protocolVersion !== "number") {
    if (first.answer !== undefined) card.all(initRows, fail(`initialize answered ${show(first.answer)}`));
    await shutdown(run);
    return finish(run, "initialize was not answered with a result");
  }
  if (v2) {
    run.notV2 = judgeV2Initialize(run, result, initId);
    await v2Probes(run, result);
    await v2UnstableProbes(run, result);
    await v2TrafficProbes(run, result, options.spawn);
  } else {
    card.score("ACP-INIT-001", pass);
    await wireProbes(run, V1_WIRE);
    await sessionProbes(run, result);
    await mcpProbe(run);
    await unstableProbes(run, result);
    await depthProbes(run, result, options.spawn);
  }
  await shutdown(run);
  return finish(run, "check has no probe for this requirement");
}

/** Adds the monitor's findings and the late answers; `unprobed` is the reason shown on rows nothing scored. */
function finish(run: Run, unprobed: string): CheckResult {
  const { d, card } = run;
  fromMonitor(run);
  if (d.death !== undefined) {
    const probed = card.checklist.version === 2 ? [...wireRows(V2_WIRE), ...V2_ROWS, ...V2_UNSTABLE_ROWS] : [...wireRows(V1_WIRE), ...V1_SESSION_ROWS, ...V1_DEPTH_ROWS, ...V1_UNSTABLE_ROWS];
    for (const id of probed) if (!card.has(id)) card.score(id, notRun(deathReason(d)));
  }
  // Late answers are not violations of "must answer": the silence's fail is withdrawn, the latency noted.
  const latencies: string[] = [];
  for (const w of run.watched) {
    const late = d.answerTo(w.id);
    const u = d.unanswered.find((x) => x.id === w.id);
    if (late === undefined || u === undefined) continue;
    const after = `answered after ${seconds(late.t - u.sent)} (past --timeout ${seconds(d.timeout)})`;
    card.relieve?.(w.row, w.evidence, w.judge !== undefined && late.body !== undefined ? w.judge(late.body, after) : late.body?.error === undefined ? passNoted(after) : na(`${after} with ${describeError(late.body)}; the probe could not continue`));
    latencies.push(`${w.row} ${seconds(late.t - u.sent)}`);
  }
  if (latencies.length > 0) card.notes.push(`late answers (after --timeout ${seconds(d.timeout)}; not violations): ${[...new Set(latencies)].join(", ")}`);
  return { card, unprobed };
}

/** A finished run: its scorecard and the reason for rows no probe scored. */
export interface CheckResult {
  readonly card: Scorecard;
  readonly unprobed: string;
}
