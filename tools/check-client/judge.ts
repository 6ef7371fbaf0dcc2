/**
 * The rows of `check --client` judged on a finished run rather than during
 * its turn: the handshake (initialize first, its protocolVersion, clientInfo
 * and capabilities, the order of session/new and session/prompt, prompt
 * content within the agent's promptCapabilities), the shutdown (the client
 * closes the agent's stdin, then waits for the agent's exit), the answers to
 * the agent's requests (ids echoed exactly, one answer each, result or error,
 * integer error codes) and what inspect's monitor found in the client's
 * traffic (gated methods called, lines that are not JSON, schema breaches).
 * The offers run is judged in judge-offers.ts, the cancel run's request left
 * pending through the client's shutdown in judge-pending.ts.
 */
import { fail, na, pass, type Scorecard } from "../check/score.ts";
import { FUTURE_VERSION } from "./agent.ts";
import { AGENT_EXIT_DELAY_MS } from "./peer.ts";
import type { RunResult } from "./run.ts";
import { quoteText } from "../check/kit.ts";

/** The gated agent methods and the rows that forbid calling them unadvertised (every one is unadvertised here). */
export const GATE_ROWS = ["ACP-AGENTCAP-103", "ACP-AGENTCAP-105", "ACP-AGENTCAP-107", "ACP-AGENTCAP-111", "ACP-AGENTCAP-113", "ACP-AGENTCAP-114"] as const;

/** Monitor rules this tool judges itself (with the agent's own bookkeeping), so their findings are not counted twice. */
const OWN_RULES = new Set(["answered-twice", "unknown-response-id", "permission-after-cancel"]);
/** Rows judgeOffers decides with the offered method and the client's line, so the monitor's finding on them is not counted twice. */
const OWN_ROWS = new Set(["ACP-AUTH-101"]);

/** Rule and row pairs already failed from the monitor, per scorecard: a defect repeated in every run is reported once, from its first run. */
const reported = new WeakMap<Scorecard, Set<string>>();

const ms = (n: number) => `${Math.round(n)} ms`;

/** Scores the handshake rows from the first run that got as far as a session. */
export function judgeHandshake(card: Scorecard, run: RunResult): void {
  const hs = run.handshake;
  if (hs.init === undefined) return;
  card.score("ACP-INIT-101", hs.first === "initialize" ? pass : fail(`the client's first request was ${String(hs.first)}, not initialize`));
  const p = hs.init.params;
  card.score("ACP-INIT-104", Number.isInteger(p.protocolVersion) && (p.protocolVersion as number) >= 1 ? pass : fail(`initialize carried protocolVersion ${JSON.stringify(p.protocolVersion)}, not a version number`));
  // v2 names them info and capabilities.
  const [infoField, capsField] = hs.version === 2 ? ["info", "capabilities"] : ["clientInfo", "clientCapabilities"];
  const info = p[infoField] as { name?: unknown; version?: unknown } | undefined;
  card.score("ACP-INIT-102", typeof info?.name === "string" && typeof info.version === "string" ? pass : fail(`initialize carried ${infoField} ${JSON.stringify(info) ?? "(absent)"}: no name and version`));
  card.score("ACP-INIT-108", typeof p[capsField] === "object" && p[capsField] !== null ? pass : fail(`initialize carried no ${capsField}`));
  for (const id of ["ACP-SESSION-102", "ACP-PROMPT-102"]) {
    const found = hs.order.filter((o) => o.id === id);
    if (found.length > 0) card.score(id, fail(found.map((o) => o.evidence).join("; ")));
    else if (id === "ACP-SESSION-102" ? hs.sessions.length > 0 : hs.promptTypes.length > 0) card.score(id, pass);
  }
}

/** Scores ACP-SHUTDOWN-101: the client closed the agent's stdin and exited only after the agent did. */
export function judgeShutdown(card: Scorecard, run: RunResult): void {
  const { peer, exitAt } = run;
  if (run.handshake.turnEndedAt === undefined) return;
  if (run.ended && peer.eofAt === undefined) {
    card.score("ACP-SHUTDOWN-101", fail("the client neither closed the agent's stdin nor exited after its turn ended (ended at the run's bound)"));
    return;
  }
  if (peer.eofAt === undefined) {
    card.score("ACP-SHUTDOWN-101", fail(peer.droppedAt !== undefined ? "the client exited without closing the agent's stdin; the agent was ended with the client's process group" : "the client exited without closing the agent's stdin"));
    return;
  }
  if (peer.eofAt >= exitAt) {
    card.score("ACP-SHUTDOWN-101", fail(`the client exited with the agent's stdin still open (it closed ${ms(peer.eofAt - exitAt)} after the client's exit, as the process went)`));
    return;
  }
  if (peer.agentExitAt === undefined || exitAt < peer.agentExitAt) {
    card.score("ACP-SHUTDOWN-101", fail(`the agent's stdin closed ${ms(exitAt - peer.eofAt)} before the client exited: the client did not wait for the agent's exit (the agent exits ${AGENT_EXIT_DELAY_MS} ms after EOF)`));
    return;
  }
  card.score("ACP-SHUTDOWN-101", pass);
}

/** Scores the traffic rows of one run: prompt content, answers to the agent's requests, the monitor's client findings. */
export function judgeTraffic(card: Scorecard, run: RunResult): void {
  const { peer } = run;
  for (const types of run.handshake.promptTypes) {
    const extra = types.filter((t) => t !== "text" && t !== "resource_link");
    card.score("ACP-AGENTCAP-101", extra.length === 0 ? pass : fail(`session/prompt carried ${extra.join(", ")} content although promptCapabilities advertised none`));
  }
  const answers = peer.lines.filter((l) => l.body !== undefined && l.body.method === undefined && ("result" in l.body || "error" in l.body));
  const counts = new Map<number | string, number>();
  for (const a of answers) {
    // An answer a probe judged itself (the big-id probe's: its id parses to 2^53, which no request of the agent has).
    if (peer.judged.has(a.index)) continue;
    const id = a.body?.id;
    // An error with id null answers a line without a usable id (the wire probes judge those).
    if (id === null && a.body !== undefined && "error" in a.body) continue;
    const request = peer.sent.find((r) => r.id === id);
    if (request === undefined) {
      card.score("ACP-JSONRPC-001", fail(`an answer with id ${JSON.stringify(id)} names no request the agent sent (its ids: ${peer.sent.map((r) => JSON.stringify(r.id)).join(", ")}): ${quoteText(a.text)}`));
      continue;
    }
    counts.set(request.id, (counts.get(request.id) ?? 0) + 1);
    const b = a.body as Record<string, unknown>;
    card.score("ACP-JSONRPC-002", "result" in b !== "error" in b ? pass : fail(`the answer to ${request.method} carries both result and error: ${quoteText(a.text)}`));
    if ("error" in b) {
      const code = (b.error as { code?: unknown } | null)?.code;
      card.score("ACP-ERROR-101", Number.isInteger(code) ? pass : fail(`the error answer to ${request.method} has code ${JSON.stringify(code)}`));
    }
  }
  for (const r of peer.sent) {
    const n = counts.get(r.id) ?? 0;
    if (n > 0) card.score("ACP-JSONRPC-001", pass);
    if (n > 1) card.score("ACP-JSONRPC-104", fail(`${r.method} #${JSON.stringify(r.id)} was answered ${n} times`));
    else if (n === 1) card.score("ACP-JSONRPC-104", pass);
  }
  if (peer.lines.length > 0) card.score("ACP-TRANSPORT-101", pass);
  const seen = reported.get(card) ?? new Set<string>();
  reported.set(card, seen);
  for (const v of peer.monitor.violations) {
    if (v.by !== "client" || OWN_RULES.has(v.rule) || OWN_ROWS.has(v.requirement) || peer.judged.has(v.index)) continue;
    const id = v.rule === "non-json" ? "ACP-TRANSPORT-101" : v.requirement;
    if (seen.has(`${v.rule} ${id}`)) continue;
    seen.add(`${v.rule} ${id}`);
    const line = peer.lines.find((l) => l.index === v.index)?.text;
    const evidence = line !== undefined && !v.message.includes(line.slice(0, 40)) ? `${v.message}: ${line.slice(0, 200)}` : v.message;
    // A v2 card maps a v1 id to its v2 row (and notes the rest) itself.
    if (card.checklist.version === 2 || card.checklist.entries.some((e) => e.id === id)) card.score(id, fail(`${run.scenario} run: ${evidence}`));
    else card.notes.push(`inspect rule ${v.rule} (${v.requirement}) in the ${run.scenario} run: ${evidence}`);
  }
  if (peer.extraConnections > 0) card.notes.push(`the ${run.scenario} run: the client started the agent ${peer.extraConnections + 1} times; only the first connection was served`);
}

/** Scores the gate rows: pass when a session was set up and no gated method was called (the monitor fails the ones that were). */
export function judgeGates(card: Scorecard, runs: readonly RunResult[]): void {
  if (runs.some((r) => r.handshake.sessions.length > 0)) card.all(GATE_ROWS, pass);
  else card.all(GATE_ROWS, na("no run got as far as a session"));
}

/**
 * Scores ACP-INIT-105 on the version run, where initialize was answered with
 * {@link FUTURE_VERSION}: pass when the client closed the connection or exited
 * without another request (a repeated initialize is negotiation, not going
 * on), fail when it went on (session/new…) or did neither within the run's
 * bound. Whether it informed the user is not judged.
 */
export function judgeVersion(card: Scorecard, run: RunResult): void {
  const hs = run.handshake;
  if (hs.initAnsweredAt === undefined) return;
  const answered = `initialize was answered with protocolVersion ${FUTURE_VERSION}`;
  if (hs.wentOn !== undefined) card.score("ACP-INIT-105", fail(`${answered}, and the client went on with ${hs.wentOn.method} ${ms(hs.wentOn.t - hs.initAnsweredAt)} later instead of closing the connection`));
  else if (run.ended) card.score("ACP-INIT-105", fail(`${answered}; the client neither closed the connection nor exited (ended at the run's bound)`));
  else card.score("ACP-INIT-105", pass);
}
