/**
 * The deeper v1 probes of `check`, driven by what the agent advertises:
 * initialization rules (the version answered, agentInfo, capabilities, auth
 * method shapes), `_meta` and unknown fields accepted, a stdio MCP server
 * accepted, session ids unique, config options (current values, a set, the
 * boolean gate), session/load (the whole conversation replayed before the
 * answer), session/resume (nothing replayed), session/close on a running turn,
 * session/list (absolute cwds, a filter matching nothing, a bad cursor),
 * session/delete, and session/cancel never answered.
 *
 * Then the client-capability gates, in two runs of the agent: the main run
 * advertises no client capability, and `EXERCISES` (prompts that ask for a
 * plan, a file read and write, a terminal, a permission, an elicitation —
 * in plain words and in the mock agent's `#` grammar) must bring no fs/*,
 * terminal/*, elicitation, notice or compaction traffic and no boolean
 * config option; a second run (`spawn`) advertises every capability, asks
 * for a version no agent has (the answer must be the agent's latest), and
 * runs the same prompts with check's client answering: permissions allow,
 * reject, then cancel mid-permission (session/cancel, then the `cancelled`
 * outcome; the turn must end `cancelled`), file reads with fixed text,
 * writes and terminals faked (nothing runs, nothing is written), an
 * elicitation declined. Tool calls, plans, paths, line numbers and the
 * terminal lifecycle are judged on that traffic. A feature the agent never
 * showed makes its rows n/a with that reason, never a pass.
 *
 * MAY rows are n/a: a permission, which no behaviour breaks.
 */
import type { AgentLine, Driver } from "./driver.ts";
import { describeError, quoteText, type Run, show, step, quote } from "./kit.ts";
import { fail, na, pass, type Verdict } from "./score.ts";
import { configLists, isObj, requestsOf, updatesOf, type Obj } from "./depth-kit.ts";
import { answerer, capabilitiesRun, exercise } from "./probes-capabilities.ts";
import { CAPS_ROWS, EXERCISES, newSeen, type Seen } from "./capabilities-exercises.ts";
import { sessionNewDepth } from "./probes-session-depth.ts";
import { sessionLifecycleDepth } from "./probes-session-lifecycle.ts";
import { trafficRows } from "./probes-traffic-v1.ts";

export { ALL_CLIENT_CAPABILITIES } from "./probes-capabilities.ts";
export { EXERCISES } from "./capabilities-exercises.ts";
export { properties } from "./probes-traffic-v1.ts";

/** The rows of the session lifecycle probes (probes-session-lifecycle.ts), which need a session. */
const LIFECYCLE_ROWS = ["ACP-LOAD-102", "ACP-LOAD-002", "ACP-RESUME-002", "ACP-CLOSE-002", "ACP-LIST-204", "ACP-LIST-002", "ACP-LIST-107", "ACP-SESSION-103", "ACP-ADDDIRS-101", "ACP-DELETE-002"];

/** A probe's rows that never break: MAY statements. */
const MAY_ROWS = ["ACP-TRANSPORT-102", "ACP-CANCEL-106", "ACP-CANCEL-107", "ACP-CANCEL-108", "ACP-EXT-203", "ACP-CLOSE-102", "ACP-AUTH-104", "ACP-EXT-102"];
const INIT_ROWS = ["ACP-INIT-002", "ACP-INIT-004", "ACP-INIT-109", "ACP-INIT-110", "ACP-AUTH-001", "ACP-AUTH-002", "ACP-MCP-103", "ACP-TRANSPORT-103"];
const SESSION_ROWS = [
  "ACP-META-001",
  "ACP-META-102",
  "ACP-MCP-101",
  "ACP-MCP-102",
  "ACP-EXT-101",
  "ACP-SESSION-002",
  "ACP-CONFIG-003",
  "ACP-CONFIG-101",
  "ACP-CONFIG-002",
  "ACP-CONFIG-111",
  "ACP-CONFIG-114",
  "ACP-CANCEL-205",
  "ACP-LOAD-102",
  "ACP-LOAD-002",
  "ACP-RESUME-002",
  "ACP-CLOSE-002",
  "ACP-LIST-204",
  "ACP-LIST-002",
  "ACP-LIST-107",
  "ACP-SESSION-103",
  "ACP-ADDDIRS-101",
  "ACP-DELETE-002",
];
const GATE_ROWS = ["ACP-CLIENTCAP-001", "ACP-CLIENTCAP-002", "ACP-CLIENTCAP-003", "ACP-FS-101", "ACP-TERM-101", "ACP-INIT-107", "ACP-CLIENTCAP-101", "ACP-CLIENTCAP-102", "ACP-ELICIT-102"];
const TRAFFIC_ROWS = ["ACP-META-101", "ACP-EXT-103", "ACP-EXT-202", "ACP-TRANSPORT-002", "ACP-JSONRPC-102", "ACP-JSONRPC-103", "ACP-ERROR-001", "ACP-INIT-103", "ACP-SCHEMA-002"];
/** Every row this file scores. */
export const V1_DEPTH_ROWS = [...MAY_ROWS, ...INIT_ROWS, ...SESSION_ROWS, ...GATE_ROWS, ...CAPS_ROWS, ...TRAFFIC_ROWS];

const MAY = na("a MAY: a permission, which no behaviour of the agent can break");

/** Runs the deeper probes; `init` is the agent's initialize result, `spawn` starts another run of the agent. */
export async function depthProbes(run: Run, init: Obj, spawn: ((label: string) => Driver) | undefined): Promise<void> {
  const { d, card } = run;
  card.all(MAY_ROWS, MAY);
  const caps = isObj(init.agentCapabilities) ? init.agentCapabilities : {};
  const sessionCaps = isObj(caps.sessionCapabilities) ? caps.sessionCapabilities : {};

  // Initialization: the version answered, the agent's description, its capabilities, its auth methods.
  card.score("ACP-INIT-002", init.protocolVersion === 1 ? pass : fail(`asked for protocol 1 (which it serves), the agent answered protocolVersion ${show(init.protocolVersion)}`));
  // check speaks stdio only: an agent it scores at all answered initialize over stdio (one that never answers fails ACP-INIT-001).
  card.score("ACP-TRANSPORT-103", pass);
  const info = isObj(init.agentInfo) ? init.agentInfo : undefined;
  const described = typeof info?.name === "string" && typeof info.version === "string";
  card.all(["ACP-INIT-004", "ACP-INIT-110"], described ? pass : fail(init.agentInfo === undefined ? "the initialize answer has no agentInfo (name and version)" : `initialize answered agentInfo ${show(init.agentInfo)}, without a name and a version`));
  card.score("ACP-INIT-109", isObj(init.agentCapabilities) ? pass : fail(`initialize answered agentCapabilities ${show(init.agentCapabilities)}: the agent does not state what it supports`));
  const methods = Array.isArray(init.authMethods) ? init.authMethods.filter(isObj) : [];
  const ids = methods.map((m) => m.id);
  card.score("ACP-AUTH-001", methods.length === 0 ? na("the agent lists no authMethods") : new Set(ids).size === ids.length ? pass : fail(`authMethods ids repeat: ${show(ids)}`));
  const terminal = methods.filter((m) => m.type === "terminal");
  card.score("ACP-AUTH-002", terminal.length === 0 ? pass : fail(`initialize lists the terminal auth method ${show(terminal[0]?.id)}, but check's client did not advertise auth.terminal`));
  const mcp = isObj(caps.mcpCapabilities) ? caps.mcpCapabilities : {};
  card.score("ACP-MCP-103", mcp.http === true ? pass : na("mcpCapabilities.http is not advertised (a SHOULD for new agents; check cannot tell a new agent from an old one)"));

  const seen = newSeen();
  d.answerer = answerer(d, seen, false);
  const from = d.lines.length;
  const sid = await sessionNewDepth(run);
  if (sid !== undefined) await sessionLifecycleDepth(run, init, sessionCaps, sid);
  // No session to load, resume, close, list or delete: those rows are n/a with session/new's answer (not "not run" by a later probe).
  else if (run.noSession !== undefined)
    card.all(
      LIFECYCLE_ROWS.filter((id) => !card.has(id)),
      na(run.noSession),
    );
  await step(run, "capability gates (none advertised)", GATE_ROWS, async () => {
    const created = await d.request("session/new", { cwd: run.options.cwd, mcpServers: [] });
    const sid = (created?.result as { sessionId?: unknown } | undefined)?.sessionId;
    if (typeof sid !== "string") return card.all(GATE_ROWS, na(created === undefined ? "session/new got no answer" : `session/new was answered ${created.error !== undefined ? describeError(created) : show(created)}`));
    await exercise(run, d, sid, seen);
    const lines = d.lines.slice(from);
    const fs = requestsOf(lines, "fs/");
    const term = requestsOf(lines, "terminal/");
    const elicit = requestsOf(lines, "elicitation/");
    const ran = `${EXERCISES.length} exercise prompts (${seen.results} answered with a result, ${seen.errors} with an error)`;
    const verdict = (found: AgentLine[], what: string): Verdict => (found.length === 0 ? pass : fail(`check's client advertised no ${what}, yet the agent sent ${quote(d, found[0]!)}`));
    card.all(["ACP-CLIENTCAP-001", "ACP-FS-101"], verdict(fs, "fs capability"));
    card.all(["ACP-CLIENTCAP-002", "ACP-TERM-101"], verdict(term, "terminal capability"));
    card.score("ACP-CLIENTCAP-003", verdict(elicit, "elicitation capability"));
    card.score("ACP-INIT-107", verdict([...fs, ...term, ...elicit], "client capability"));
    // The request that breaks ACP-INIT-107 is the one its capability row shows: one fact, one count.
    const first = fs.length > 0 ? "ACP-CLIENTCAP-001" : term.length > 0 ? "ACP-CLIENTCAP-002" : elicit.length > 0 ? "ACP-CLIENTCAP-003" : undefined;
    if (first !== undefined) card.link("ACP-INIT-107", first, "the same request, sent without the capability");
    const notices = updatesOf(lines, "notice");
    card.score("ACP-CLIENTCAP-101", notices.length === 0 ? pass : fail(`check's client did not advertise session.notices, yet the agent sent ${quote(d, notices[0]!.line)}`));
    const compaction = [...updatesOf(lines, "compaction_update"), ...updatesOf(lines, "compaction_summary_chunk")];
    card.score("ACP-CLIENTCAP-102", compaction.length === 0 ? pass : fail(`check's client did not advertise session.compaction, yet the agent sent ${quote(d, compaction[0]!.line)}`));
    if (seen.results + seen.errors === 0) card.all(GATE_ROWS, na(`none of the ${ran} was answered`));
    else card.notes.push(`capability gates: ${ran}, with no client capability advertised`);
    seen.lines.push(...lines);
  });
  const lists = configLists(d.lines.slice(from));
  const booleans = lists.filter((l) => l.options.some((o) => o.type === "boolean"));
  card.score("ACP-CONFIG-003", lists.length === 0 ? na("the agent offered no config options") : booleans.length === 0 ? pass : fail(`check's client did not advertise session.configOptions.boolean, yet the agent offered a boolean option in ${booleans[0]!.where}`));

  let other: Seen | undefined;
  if (spawn !== undefined && d.death === undefined) other = await capabilitiesRun(run, spawn);
  else card.all(CAPS_ROWS, na("no second run of the agent"));
  // ACP-ELICIT-102: with elicitation withheld, an agent that elicits when it can still answered its turns.
  const elicits = other !== undefined && requestsOf(other.lines, "elicitation/create").length > 0;
  if (!elicits) card.score("ACP-ELICIT-102", na("the agent sent no elicitation even when check's client advertised it"));
  else card.score("ACP-ELICIT-102", seen.results + seen.errors === EXERCISES.length ? pass : fail("with elicitation not advertised, not every exercise prompt was answered"));

  trafficRows(run, init, [...d.lines, ...(other?.lines ?? [])], other !== undefined);
}
