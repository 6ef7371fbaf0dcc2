/**
 * The rows of `check --client` judged on a finished run rather than during
 * its turn: the handshake (initialize first, its protocolVersion, clientInfo
 * and capabilities, the order of session/new and session/prompt, prompt
 * content within the agent's promptCapabilities), the shutdown (the client
 * closes the agent's stdin, then waits for the agent's exit), the answers to
 * the agent's requests (ids echoed exactly, one answer each, result or error,
 * integer error codes) and what inspect's monitor found in the client's
 * traffic (gated methods called, lines that are not JSON, schema breaches);
 * the offers run (session/list paging and auth method types) and the cancel
 * run's request left pending through the client's shutdown (ACP-CANCEL-109).
 */
import { fail, na, pass, passNoted, type Scorecard } from "../check/score.ts";
import { isAbsolute } from "node:path";
import { ErrorCode } from "../../src/errors.ts";
import { FUTURE_VERSION, LIST_CURSOR } from "./agent.ts";
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

const short = (text: string) => (text.length > 240 ? `${text.slice(0, 240)}…` : text);

/**
 * Scores the offers run (v1; agent.ts): check's agent advertised
 * sessionCapabilities.list and offered auth methods.
 *
 * - ACP-AUTH-101 / ACP-AUTH-102 (MUST NOT, the same rule in the schema and the
 *   prose): a terminal method is offered only to a client that advertised
 *   auth.terminal; an authenticate naming it fails both, with the method
 *   offered and the line sent; a client that went on past initialize without
 *   one passes.
 * - ACP-AUTH-103 (no keyword: a method without type is read as type agent):
 *   an authenticate naming the type-less method is what an agent-type method
 *   allows, a pass with a note; no authenticate shows nothing, n/a.
 * - ACP-LIST-106 (MUST: cursors are opaque): every session/list cursor must be
 *   {@link LIST_CURSOR} byte for byte; ACP-LIST-105 (MUST: a missing
 *   nextCursor ends the results): no session/list with a cursor after the last
 *   page; ACP-LIST-102 (MUST: the cwd filter is absolute); ACP-LIST-101 (MUST:
 *   initialization first; the monitor fails a breach) passes on a listing.
 */
export function judgeOffers(card: Scorecard, run: RunResult): void {
  const hs = run.handshake;
  if (hs.initAnsweredAt === undefined || hs.version !== 1) return;
  const goneOn = hs.wentOn !== undefined;
  const methodOf = (l: { body: Record<string, unknown> | undefined }) => (l.body?.params as { methodId?: unknown } | undefined)?.methodId;
  const terminal = hs.authOffered.find((m) => m.type === "terminal");
  const typeless = hs.authOffered.find((m) => m.type === undefined);
  const offered = `check's agent answered initialize with authMethods ${JSON.stringify(hs.authOffered)}`;
  if (terminal === undefined) card.all(["ACP-AUTH-101", "ACP-AUTH-102"], na("the client did not advertise clientCapabilities.auth.terminal, so check's agent offered no terminal auth method (an agent offers one only then)"));
  else {
    const bad = hs.authenticates.find((l) => methodOf(l) === terminal.id);
    if (bad !== undefined) card.all(["ACP-AUTH-101", "ACP-AUTH-102"], fail(`${offered}, and the client sent ${short(bad.text)}: a terminal method is run outside ACP, never passed to authenticate`));
    else if (goneOn) card.all(["ACP-AUTH-101", "ACP-AUTH-102"], pass);
    else card.all(["ACP-AUTH-101", "ACP-AUTH-102"], na(`${offered}; the client sent nothing after initialize`));
  }
  if (typeless !== undefined) {
    const used = hs.authenticates.find((l) => methodOf(l) === typeless.id);
    if (used !== undefined) {
      card.score("ACP-AUTH-103", passNoted(`the client called authenticate with the method without type (read as type agent, which authenticate serves): ${short(used.text)}`));
    } else card.score("ACP-AUTH-103", na(`${offered}; the client called authenticate with no method, so nothing on the wire shows how it read the method without type`));
  }
  const listRows = ["ACP-LIST-101", "ACP-LIST-102", "ACP-LIST-105", "ACP-LIST-106"];
  if (hs.lists.length === 0) return void card.all(listRows, na(`check's agent advertised sessionCapabilities.list in the offers run, and the client sent no session/list`));
  card.score("ACP-LIST-101", pass);
  const cwds = hs.lists.map((l) => (l.line.body?.params as { cwd?: unknown } | undefined)?.cwd).filter((c) => c !== undefined && c !== null);
  const relative = cwds.find((c) => typeof c !== "string" || !isAbsolute(c));
  card.score("ACP-LIST-102", cwds.length === 0 ? na("the client's session/list carried no cwd filter") : relative === undefined ? pass : fail(`session/list carried the cwd filter ${JSON.stringify(relative)}, not an absolute path`));
  const paged = hs.lists.filter((l) => (l.line.body?.params as { cursor?: unknown } | undefined)?.cursor !== undefined && (l.line.body?.params as { cursor?: unknown }).cursor !== null);
  const first = hs.lists.find((l) => l.answered === "first");
  const given = `check's agent answered ${first !== undefined ? `session/list ${short(first.line.text)}` : "session/list"} with nextCursor ${JSON.stringify(LIST_CURSOR)}`;
  const altered = paged.find((l) => (l.line.body?.params as { cursor?: unknown }).cursor !== LIST_CURSOR);
  if (altered !== undefined) card.score("ACP-LIST-106", fail(`${given}, and the client sent cursor ${JSON.stringify((altered.line.body?.params as { cursor?: unknown }).cursor)}: ${short(altered.line.text)}`));
  else if (paged.length > 0) card.score("ACP-LIST-106", pass);
  else card.score("ACP-LIST-106", na(`${given}; the client did not ask for the next page, so no cursor came back`));
  const lastAt = hs.lists.findIndex((l) => l.answered === "last");
  if (lastAt < 0) card.score("ACP-LIST-105", na("the client did not fetch the last page (the one without nextCursor)"));
  else {
    const after = hs.lists.slice(lastAt + 1).find((l) => paged.includes(l));
    card.score("ACP-LIST-105", after === undefined ? pass : fail(`the page answering ${short(hs.lists[lastAt]?.line.text ?? "")} had no nextCursor, and the client went on with ${short(after.line.text)}`));
  }
}

/**
 * Scores ACP-CANCEL-109 on the cancel run, where check's agent left a
 * terminal/wait_for_exit pending through the cancel and the client's
 * shutdown (permission.ts, holdTerminal, has the decision): -32800 passes;
 * another error fails; an exit status is a completed request (n/a); no
 * answer before the client closed the connection or exited fails (a request
 * cancelled by shutdown); no answer and no shutdown before the run's bound is
 * n/a (check ended the client).
 */
export function judgeInternalCancel(card: Scorecard, run: RunResult): void {
  const wait = run.peer.sent.find((r) => r.method === "terminal/wait_for_exit");
  if (wait === undefined) return;
  const { peer } = run;
  const answer = peer.lines.find((l) => l.body !== undefined && l.body.method === undefined && l.body.id === wait.id && ("result" in l.body || "error" in l.body));
  const cancelled = run.handshake.cancels.length > 0 ? ", the user cancelled the turn (SIGINT, then the client's session/cancel)" : "";
  const lead = `check's agent sent ${short(wait.line)} for a command that runs until the client ends it${cancelled}, and ended the turn with it pending`;
  if (answer?.body !== undefined) {
    const code = (answer.body.error as { code?: unknown } | undefined)?.code;
    if ("result" in answer.body) card.score("ACP-CANCEL-109", na(`${lead}; the client answered it with an exit status, ${short(answer.text)}: it completed the request rather than cancelling it`));
    else card.score("ACP-CANCEL-109", code === ErrorCode.RequestCancelled ? pass : fail(`${lead}; the client answered it ${short(answer.text)}, not -32800 (a request cancelled internally should be answered -32800)`));
    return;
  }
  if (peer.eofAt === undefined && run.ended) return void card.score("ACP-CANCEL-109", na(`${lead}; the client neither answered it nor shut down before the run's bound, where check ended it`));
  const how = peer.eofAt !== undefined ? `closed the agent's stdin ${ms(peer.eofAt - wait.t)} after it was sent` : peer.droppedAt !== undefined ? "dropped the agent's connection" : "exited";
  card.score("ACP-CANCEL-109", fail(`${lead}; the client then ${how} without ever answering it: a request cancelled by shutdown should be answered -32800`));
}
