/**
 * The client-side rows `check --client` decides from what the runs already
 * showed, after the scenario turns (judge.ts, scenarios.ts, permission.ts)
 * scored theirs, and the reason for every row still open:
 *
 * - rows decided by the whole traffic: the client's envelopes, request ids,
 *   lines and error messages (inspect's monitor watched them all; a breach
 *   was failed already), the session's paths, what the client sent although
 *   check's agent advertised nothing (additionalDirectories, HTTP / SSE MCP
 *   servers, the gated methods);
 * - rows whose precondition never held, n/a with the reason: check's agent
 *   advertises no session/load, resume, close, delete or logout, so the client
 *   never has a reason to call them (session/list and auth methods are offered
 *   in the offers run only, judged in judge.ts); the client did not
 *   advertise elicitation or terminal;
 * - rows no traffic can decide (what a user interface shows, what a client
 *   does internally): not observable, with the reason;
 * - MAY rows: a permission, which no traffic can break: n/a, saying so;
 * - rows a run would have judged but did not reach: "not run" with what was
 *   missing (the client answered no request with an error, the updates run
 *   stopped early), never "no probe" — that reason is kept for rows no code
 *   of check --client judges.
 */
import { isAbsolute } from "node:path";
import { customRootField } from "./root-fields.ts";
import { na, notObservable, notRun, pass, fail, type Scorecard } from "../check/score.ts";
import type { RunResult } from "./run.ts";
import { quoteText } from "../check/kit.ts";
import { NOT_OBSERVABLE, ELICITATION_UI, ELICITATION, UNADVERTISED, CHECK_BEFORE, NOT_REACHED } from "./coverage-reasons.ts";

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};
const bodiesOf = (runs: readonly RunResult[]) => runs.flatMap((r) => r.peer.lines.filter((l) => l.body !== undefined).map((l) => l.body as Record<string, unknown>));
const violated = (runs: readonly RunResult[], ids: readonly string[]) => runs.some((r) => r.peer.monitor.violations.some((v) => v.by === "client" && ids.includes(v.requirement)));

/** Scores the rows the finished runs decide, then gives every open row its reason. */
export function judgeCoverage(card: Scorecard, runs: readonly RunResult[]): void {
  const connected = runs.filter((r) => r.peer.connected);
  const bodies = bodiesOf(connected);
  const lines = connected.flatMap((r) => r.peer.lines);
  const requests = bodies.filter((b) => typeof b.method === "string" && "id" in b);
  const answers = bodies.filter((b) => b.method === undefined && ("result" in b || "error" in b));
  if (connected.length > 0) card.score("ACP-TRANSPORT-103", pass);
  // The monitor judged every line; a breach failed its row already (judgeTraffic), so a clean traffic passes.
  if (lines.length > 0) {
    // The bytes decide, not a decoded U+FFFD (a real character is valid UTF-8): a stream that was not UTF-8 fails.
    const bad = connected.find((r) => r.peer.utf8.invalid !== undefined);
    card.score("ACP-TRANSPORT-002", bad === undefined ? pass : fail(`in the ${bad.scenario} run the client wrote bytes that are not UTF-8 at byte ${bad.peer.utf8.invalid!.offset}: ${bad.peer.utf8.invalid!.hex}`));
    // A message split over lines (an embedded newline) shows as a line that is not JSON but is with its neighbour; a line that
    // is not JSON at all (a log line) is output that is not a message, ACP-TRANSPORT-101's, not a framing breach. A batch answer
    // (v2) is one JSON array on one line: as much one message as an object.
    const split = connected.flatMap((r) => r.peer.lines.filter((l, i, all) => l.body === undefined && !isJson(l.text) && ((all[i + 1] !== undefined && isJson(`${l.text}\n${all[i + 1]!.text}`)) || (all[i - 1] !== undefined && isJson(`${all[i - 1]!.text}\n${l.text}`)))));
    card.score("ACP-TRANSPORT-203", split.length === 0 ? pass : fail(`a message the client wrote spans lines (an embedded newline): ${JSON.stringify(quoteText(split[0]!.text))} is JSON only with the line next to it`));
  }
  if (bodies.length > 0 && !violated(connected, ["ACP-JSONRPC-101"])) card.score("ACP-JSONRPC-101", pass);
  // Custom root fields in what the client sent (custom data goes in _meta), against the schemas of the version it spoke.
  const rootField = customRootField(card.checklist.version, bodies);
  if (rootField !== undefined) card.score("ACP-SCHEMA-002", fail(`custom fields at the root of a spec type, which no published ACP schema defines (custom data goes in _meta): ${rootField}`));
  else if (bodies.length > 0 && !violated(connected, ["ACP-SCHEMA-002"])) card.score("ACP-SCHEMA-002", pass);
  if (requests.length > 0 && !violated(connected, ["ACP-JSONRPC-102"])) card.score("ACP-JSONRPC-102", pass);
  if (requests.length > 0 && !violated(connected, ["ACP-JSONRPC-103"])) card.score("ACP-JSONRPC-103", pass);
  // Notifications of check's agent (session/update) that the client answered would be answers naming no request: failed as ACP-JSONRPC-001.
  if (connected.some((r) => r.handshake.turnEndedAt !== undefined)) {
    const stray = answers.filter((a) => a.id === undefined || a.id === null).filter((a) => "result" in a);
    card.score("ACP-JSONRPC-003", stray.length === 0 ? pass : fail(`the client sent a result with no usable id: ${quoteText(JSON.stringify(stray[0]))}`));
  }
  const errors = answers.filter((a) => "error" in a).map((a) => (a.error as { message?: unknown } | null)?.message);
  if (errors.length > 0) {
    const long = errors.filter((m) => typeof m !== "string" || m.includes("\n") || m.length > 300);
    card.score("ACP-ERROR-001", long.length === 0 ? pass : fail(`an error message is not one concise sentence: ${quoteText(JSON.stringify(long[0]))}`));
  }
  const initRun = connected.find((r) => r.handshake.init !== undefined && r.scenario === "handshake") ?? connected.find((r) => r.handshake.init !== undefined);
  const init = initRun?.handshake.init;
  if (init !== undefined && initRun?.handshake.version === 1) {
    const info = init.params.clientInfo as { name?: unknown; version?: unknown } | undefined;
    card.score("ACP-INIT-110", typeof info?.name === "string" && typeof info.version === "string" ? pass : fail(`initialize carried clientInfo ${JSON.stringify(info) ?? "(absent)"}: no name and version`));
    // The same initialize decides ACP-INIT-102 (judge.ts): one fact, one count.
    card.link("ACP-INIT-110", "ACP-INIT-102", "the same initialize's clientInfo");
    const caps = (init.params.clientCapabilities ?? {}) as Record<string, unknown>;
    const elicitation = caps.elicitation !== undefined && caps.elicitation !== null && caps.elicitation !== false;
    for (const id of ELICITATION) {
      if (!elicitation) card.score(id, na("the client did not advertise elicitation"));
      else if (ELICITATION_UI[id] !== undefined) card.score(id, notObservable(ELICITATION_UI[id]));
    }
    if (caps.terminal !== true) card.score("ACP-TERM-103", na("the client did not advertise terminal"));
  }
  // session/new: the cwd, additionalDirectories and MCP servers the client sent (check's agent advertised none of their capabilities).
  const news = connected.flatMap((r) => r.peer.lines.filter((l) => l.body?.method === "session/new").map((l) => (l.body?.params ?? {}) as Record<string, unknown>));
  if (news.length > 0) {
    const relative = news.map((p) => p.cwd).filter((c) => typeof c !== "string" || !isAbsolute(c));
    card.all(["ACP-SESSION-103", "ACP-PATH-101"], relative.length === 0 ? pass : fail(`session/new carried cwd ${JSON.stringify(relative[0])}, not an absolute path`));
    const dirs = news.flatMap((p) => (Array.isArray(p.additionalDirectories) ? p.additionalDirectories : []));
    card.score("ACP-AGENTCAP-108", dirs.length === 0 ? pass : fail(`session/new carried additionalDirectories ${quoteText(JSON.stringify(dirs))} although check's agent did not advertise sessionCapabilities.additionalDirectories`));
    if (dirs.length === 0) card.score("ACP-ADDDIRS-101", na("the client sent no additionalDirectories"));
    else {
      const bad = dirs.filter((d) => typeof d !== "string" || !isAbsolute(d));
      card.score("ACP-ADDDIRS-101", bad.length === 0 ? pass : fail(`additionalDirectories entry ${JSON.stringify(bad[0])} is not an absolute path`));
    }
    const remote = news.flatMap((p) => (Array.isArray(p.mcpServers) ? p.mcpServers : [])).filter((s) => ["http", "sse"].includes(String((s as { type?: unknown } | null)?.type)));
    card.score("ACP-AGENTCAP-109", remote.length === 0 ? pass : fail(`session/new carried an ${String((remote[0] as { type?: unknown }).type)} MCP server although check's agent advertised no mcpCapabilities.http / .sse`));
  }
  if (connected.some((r) => r.handshake.sessions.length > 0)) {
    // Every gate is closed: a call to a gated method failed its MUST NOT row already.
    const gates = ["ACP-AGENTCAP-103", "ACP-AGENTCAP-105", "ACP-AGENTCAP-107", "ACP-AGENTCAP-111", "ACP-AGENTCAP-113", "ACP-AGENTCAP-114"];
    const pair: Record<string, string> = { "ACP-AGENTCAP-102": "ACP-AGENTCAP-103", "ACP-AGENTCAP-104": "ACP-AGENTCAP-105", "ACP-AGENTCAP-106": "ACP-AGENTCAP-107", "ACP-AGENTCAP-110": "ACP-AGENTCAP-111", "ACP-AGENTCAP-112": "ACP-AGENTCAP-113" };
    for (const id of CHECK_BEFORE) {
      const gate = pair[id];
      const failedGates = gate !== undefined ? [gate] : gates;
      const broken = card.rows("").filter((r) => failedGates.includes(r.id) && r.outcome === "fail");
      // One defect, one fail: a gated call is charged to its MUST NOT row alone.
      card.score(id, broken.length === 0 ? pass : na(`the client called a gated method without checking: charged to ${broken.map((r) => r.id).join(", ")}`));
    }
    card.score("ACP-INIT-103", violated(connected, ["ACP-JSONRPC-101"]) ? fail("the client's messages broke the schema of the version it negotiated") : pass);
  }
  // ACP-PROMPT-103 (adapt to promptCapabilities): on the wire, prompt content within them, as ACP-AGENTCAP-101.
  const agentcap = card.rows("").find((r) => r.id === "ACP-AGENTCAP-101");
  if (agentcap !== undefined && card.has("ACP-AGENTCAP-101")) card.score("ACP-PROMPT-103", agentcap.outcome === "pass" ? pass : fail(agentcap.evidence ?? ""));
  // ACP-META-001 (MAY): the _meta-laden update was tolerated.
  const meta = card.rows("").find((r) => r.id === "ACP-META-102");
  if (meta?.outcome === "pass") card.score("ACP-META-001", pass);
  const extSent = requests.concat(bodies.filter((b) => typeof b.method === "string" && !("id" in b))).some((b) => String(b.method).startsWith("_"));
  if (!extSent && connected.length > 0) card.all(["ACP-EXT-103", "ACP-EXT-202"], na("the client sent no _ request or notification: it uses no extension to advertise"));
  for (const [id, why] of Object.entries(UNADVERTISED)) if (connected.length > 0) card.score(id, na(why));
  for (const [id, why] of Object.entries(NOT_OBSERVABLE)) card.score(id, notObservable(why));
  for (const e of card.checklist.entries) {
    if (card.has(e.id)) continue;
    if (e.tier === "MAY") card.score(e.id, na("a MAY grants a permission: no traffic can break it"));
    else if (NOT_REACHED[e.id] !== undefined) card.score(e.id, notRun(NOT_REACHED[e.id] as string));
  }
}
