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
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { isAbsolute, join } from "node:path";
import { tmpdir } from "node:os";
import type { AgentLine, ClientAnswer, Driver } from "./driver.ts";
import { answerOf, deathReason, describeError, errorCode, exchange, isConversation, isResponse, quote, seconds, show, silent, step, updateFor, updateKind, withSentinel, type Run } from "./kit.ts";
import { fail, na, pass, passNoted, type Verdict } from "./score.ts";
import { ErrorCode } from "../../src/errors.ts";
import { withdrawn } from "./withdrawn-fields.ts";
import { traceContextUses } from "./trace-context.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const CLIENT_INFO = { name: "acp-router-check", version: "0.1.0" };

/** Every client capability v1 defines, as the capabilities run advertises them. */
export const ALL_CLIENT_CAPABILITIES = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
  auth: { terminal: true },
  elicitation: { form: {}, url: {} },
  session: { configOptions: { boolean: {} }, notices: {}, compaction: {} },
};

/**
 * The prompts both runs send, one turn each: plain requests an example or
 * model-backed agent may act on, and the mock agent's directives (one per
 * line; three permissions in one turn: allowed, rejected, cancelled). `FILE`
 * becomes an absolute path in the session cwd (check's client answers reads
 * of it with fixed text; nothing is read or written on disk).
 */
/** The file the plain-words prompts name by absolute path; the `#` directives name RELATIVE_FILE, relative to the session cwd. */
const ABSOLUTE_FILE = "acp-router-check-absolute.txt";
const RELATIVE_FILE = "acp-router-check.txt";

export const EXERCISES = [
  "plan the steps to say hello",
  "read FILE", "read FILE", "read FILE",
  "#updates plan\n#updates tool\n#read acp-router-check.txt\n#write acp-router-check.txt checked\n#terminal echo checked\n#terminal-kill sleep 5\n#elicit\n#updates all",
  "#permission\n#permission\n#permission",
];

/** A probe's rows that never break: MAY statements. */
const MAY_ROWS = ["ACP-TRANSPORT-102", "ACP-CANCEL-106", "ACP-CANCEL-107", "ACP-CANCEL-108", "ACP-EXT-203", "ACP-CLOSE-102", "ACP-AUTH-104", "ACP-EXT-102"];
const INIT_ROWS = ["ACP-INIT-002", "ACP-INIT-004", "ACP-INIT-109", "ACP-INIT-110", "ACP-AUTH-001", "ACP-AUTH-002", "ACP-MCP-103", "ACP-TRANSPORT-103"];
const SESSION_ROWS = ["ACP-META-001", "ACP-META-102", "ACP-MCP-101", "ACP-MCP-102", "ACP-EXT-101", "ACP-SESSION-002", "ACP-CONFIG-003", "ACP-CONFIG-101", "ACP-CONFIG-002", "ACP-CONFIG-111", "ACP-CONFIG-114", "ACP-CANCEL-205",
  "ACP-LOAD-102", "ACP-LOAD-002", "ACP-RESUME-002", "ACP-CLOSE-002", "ACP-LIST-204", "ACP-LIST-002", "ACP-LIST-107", "ACP-SESSION-103", "ACP-ADDDIRS-101", "ACP-DELETE-002"];
const GATE_ROWS = ["ACP-CLIENTCAP-001", "ACP-CLIENTCAP-002", "ACP-CLIENTCAP-003", "ACP-FS-101", "ACP-TERM-101", "ACP-INIT-107", "ACP-CLIENTCAP-101", "ACP-CLIENTCAP-102", "ACP-ELICIT-102"];
const CAPS_ROWS = ["ACP-SESSION-104", "ACP-SESSION-105", "ACP-INIT-003", "ACP-INIT-106", "ACP-TOOL-101", "ACP-TOOL-102", "ACP-PLAN-101", "ACP-PLAN-102", "ACP-PLAN-103", "ACP-PATH-101", "ACP-PATH-102", "ACP-TERM-102", "ACP-TERM-104", "ACP-TERM-105",
  "ACP-SESSION-107", "ACP-ELICIT-116", "ACP-ELICIT-117", "ACP-ELICIT-119", "ACP-ELICIT-122", "ACP-ELICIT-123"];
const TRAFFIC_ROWS = ["ACP-META-101", "ACP-EXT-103", "ACP-EXT-202", "ACP-TRANSPORT-002", "ACP-JSONRPC-102", "ACP-JSONRPC-103", "ACP-ERROR-001", "ACP-INIT-103", "ACP-SCHEMA-002"];
/** Every row this file scores. */
export const V1_DEPTH_ROWS = [...MAY_ROWS, ...INIT_ROWS, ...SESSION_ROWS, ...GATE_ROWS, ...CAPS_ROWS, ...TRAFFIC_ROWS];

const MAY = na("a MAY: a permission, which no behaviour of the agent can break");

/** What check's client did and saw in one run, for the judgements at the end. */
interface Seen {
  readonly lines: AgentLine[];
  /** Exercise prompts answered with a result / with an error. */
  results: number;
  errors: number;
  /** Turns cancelled mid-permission and how they ended. */
  readonly cancelledMidPermission: string[];
  /** Permission requests answered "allow", with their tool call id. */
  readonly allowed: { toolCallId: string; at: number; sessionId: string }[];
  /** Terminal ids check's client handed out. */
  readonly terminals: string[];
  /** Elicitations declined, and whether their turn was then answered. */
  readonly declined: number[];
}

const newSeen = (): Seen => ({ lines: [], results: 0, errors: 0, cancelledMidPermission: [], allowed: [], terminals: [], declined: [] });

/**
 * check's client: permissions allow, reject, then cancel mid-permission (the
 * rest allow); fs reads answer fixed text, writes succeed without writing,
 * terminals are faked, elicitations declined. Without a capability the
 * matching request gets -32601 (and the monitor charges the call).
 */
function answerer(d: Driver, seen: Seen, advertised: boolean): Driver["answerer"] {
  let permissions = 0;
  let terminals = 0;
  return (method, params, line): ClientAnswer | Promise<ClientAnswer> => {
    const sessionId = typeof params.sessionId === "string" ? params.sessionId : "";
    if (method === "session/request_permission") {
      const n = ++permissions;
      const options = Array.isArray(params.options) ? params.options.filter(isObj) : [];
      const pick = (kind: string) => options.find((o) => typeof o.kind === "string" && o.kind.startsWith(kind))?.optionId ?? options[0]?.optionId;
      if (n === 3) {
        // Cancel mid-permission: session/cancel first, then the outcome a client owes a pending permission after it.
        d.notify("session/cancel", { sessionId });
        seen.cancelledMidPermission.push(sessionId);
        return new Promise((resolve) => setTimeout(() => resolve({ result: { outcome: { outcome: "cancelled" } } }), 50));
      }
      const toolCallId = isObj(params.toolCall) && typeof params.toolCall.toolCallId === "string" ? params.toolCall.toolCallId : undefined;
      const optionId = pick(n === 2 ? "reject" : "allow");
      if (n !== 2 && toolCallId !== undefined) seen.allowed.push({ toolCallId, at: line.t, sessionId });
      return optionId === undefined ? { result: { outcome: { outcome: "cancelled" } } } : { result: { outcome: { outcome: "selected", optionId } } };
    }
    if (!advertised) return { error: { code: ErrorCode.MethodNotFound, message: `Method not found: check's client did not advertise the capability for ${method}` } };
    switch (method) {
      case "fs/read_text_file": return { result: { content: "acp-router check: a line read through the client\nand a second one\n" } };
      case "fs/write_text_file": return { result: {} };
      case "terminal/create": {
        const terminalId = `check-terminal-${++terminals}`;
        seen.terminals.push(terminalId);
        return { result: { terminalId } };
      }
      case "terminal/output": return { result: { output: "checked\n", truncated: false, exitStatus: { exitCode: 0, signal: null } } };
      case "terminal/wait_for_exit": return { result: { exitCode: 0, signal: null } };
      case "terminal/kill": case "terminal/release": return { result: {} };
      case "elicitation/create":
        seen.declined.push(line.t);
        return { result: { action: "decline" } };
      default: return { error: { code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` } };
    }
  };
}

/** Sends every exercise prompt in `sessionId`, one turn after the other. */
async function exercise(run: Run, d: Driver, sessionId: string, seen: Seen, cwd = run.options.cwd): Promise<void> {
  const file = join(cwd, ABSOLUTE_FILE);
  for (const text of EXERCISES) {
    if (d.death !== undefined) return;
    const cancels = seen.cancelledMidPermission.length;
    const answer = await d.request("session/prompt", { sessionId, prompt: [{ type: "text", text: text.replace("FILE", file) }] });
    if (seen.cancelledMidPermission.length > cancels && answer?.result !== undefined) {
      // check's client cancelled this turn during its permission request (session/cancel, then the "cancelled" outcome).
      const stop = (answer.result as { stopReason?: unknown }).stopReason;
      run.card.score("ACP-CANCEL-001", stop === "cancelled" ? pass : fail(`a turn cancelled during its permission request (session/cancel, then the outcome "cancelled") was answered stopReason ${JSON.stringify(stop)}`));
    }
    if (answer === undefined) {
      d.notify("session/cancel", { sessionId });
      await d.waitFor(answerOf(d.lastRequestId), d.timeout);
    } else if (answer.error !== undefined) seen.errors++;
    else seen.results++;
  }
}

const updatesOf = (lines: readonly AgentLine[], kind?: string) =>
  lines.flatMap((l) => {
    const p = l.body?.method === "session/update" ? l.body.params : undefined;
    const u = isObj(p) ? p.update : undefined;
    return isObj(u) && (kind === undefined || u.sessionUpdate === kind) ? [{ line: l, update: u, sessionId: isObj(p) ? p.sessionId : undefined }] : [];
  });
const requestsOf = (lines: readonly AgentLine[], prefix: string) => lines.filter((l) => typeof l.body?.method === "string" && l.body.id !== undefined && (l.body.method as string).startsWith(prefix));
const paramsOf = (l: AgentLine): Obj => (isObj(l.body?.params) ? l.body.params : {});

/** Every config option list the agent sent (answers and config_option_update), with where it came from. */
function configLists(lines: readonly AgentLine[]): { where: string; options: Obj[] }[] {
  const out: { where: string; options: Obj[] }[] = [];
  for (const l of lines) {
    const r = l.body?.result;
    if (isObj(r) && Array.isArray(r.configOptions)) out.push({ where: `an answer: ${l.text.slice(0, 160)}`, options: r.configOptions.filter(isObj) });
  }
  for (const { update, line } of updatesOf(lines, "config_option_update")) if (Array.isArray(update.configOptions)) out.push({ where: `a config_option_update: ${line.text.slice(0, 160)}`, options: update.configOptions.filter(isObj) });
  return out;
}

/** Runs the deeper probes; `init` is the agent's initialize result, `spawn` starts another run of the agent. */
export async function depthProbes(run: Run, init: Obj, spawn: ((label: string) => Driver) | undefined): Promise<void> {
  const { d, card } = run;
  card.all(MAY_ROWS, MAY);
  const caps = isObj(init.agentCapabilities) ? init.agentCapabilities : {};
  const sessionCaps = isObj(caps.sessionCapabilities) ? caps.sessionCapabilities : {};

  // Initialization: the version answered, the agent's description, its capabilities, its auth methods.
  card.score("ACP-INIT-002", init.protocolVersion === 1 ? pass : fail(`asked for protocol 1 (which it serves), the agent answered protocolVersion ${show(init.protocolVersion)}`));
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
  await sessionDepth(run, init, sessionCaps);
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
    const verdict = (found: AgentLine[], what: string): Verdict => (found.length === 0 ? pass : fail(`check's client advertised no ${what}, yet the agent sent ${found[0]!.text.slice(0, 160)}`));
    card.all(["ACP-CLIENTCAP-001", "ACP-FS-101"], verdict(fs, "fs capability"));
    card.all(["ACP-CLIENTCAP-002", "ACP-TERM-101"], verdict(term, "terminal capability"));
    card.score("ACP-CLIENTCAP-003", verdict(elicit, "elicitation capability"));
    card.score("ACP-INIT-107", verdict([...fs, ...term, ...elicit], "client capability"));
    const notices = updatesOf(lines, "notice");
    card.score("ACP-CLIENTCAP-101", notices.length === 0 ? pass : fail(`check's client did not advertise session.notices, yet the agent sent ${notices[0]!.line.text.slice(0, 160)}`));
    const compaction = [...updatesOf(lines, "compaction_update"), ...updatesOf(lines, "compaction_summary_chunk")];
    card.score("ACP-CLIENTCAP-102", compaction.length === 0 ? pass : fail(`check's client did not advertise session.compaction, yet the agent sent ${compaction[0]!.line.text.slice(0, 160)}`));
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

/**
 * Text that reads as a notice the agent wrote instead of working (no credentials, no connection): not conversation
 * the agent produced, so not what ACP-LOAD-102 asks to replay.
 */
const NOTICE = /\b(authenticat\w*|log ?in|sign ?in|api key|credentials?|unauthori[sz]ed|unable to connect|cannot connect|network)\b/i;

/** The text of the updates of one kind, joined. */
const textOf = (us: readonly Obj[], kind: string) => us.filter((u) => u.sessionUpdate === kind).map((u) => (isObj(u.content) && typeof u.content.text === "string" ? u.content.text : "")).join("");

/** "user_message_chunk ×1, agent_message_chunk ×3": the kinds of a list of updates, counted. */
export const kindsOf = (us: readonly Obj[]): string => {
  const n = new Map<string, number>();
  for (const u of us) n.set(String(u.sessionUpdate), (n.get(String(u.sessionUpdate)) ?? 0) + 1);
  return n.size === 0 ? "none" : [...n].map(([k, c]) => `${k} ×${c}`).join(", ");
};

/**
 * ACP-LOAD-102 ("The Agent MUST replay the entire conversation"), judged only against conversation the agent produced
 * in a turn that ended normally (stopReason end_turn): the prompt and the agent's text of that turn must both come
 * back. A turn that ended otherwise, or whose only text is a notice (authentication, connection), produced no
 * conversation to replay: n/a, with what was replayed named by kind.
 */
function judgeReplay(hello: Obj, live: readonly Obj[], replayed: readonly Obj[], promptExchange: string): Verdict {
  const stop = (hello.result as { stopReason?: unknown } | undefined)?.stopReason;
  const liveAgent = textOf(live, "agent_message_chunk");
  const what = `session/load replayed ${replayed.length} update(s) (${kindsOf(replayed)})`;
  if (stop !== "end_turn") return na(`the live turn ended with stopReason ${JSON.stringify(stop)}, not end_turn: no conversation the agent produced to judge the replay against (${what})`);
  if (liveAgent.trim() === "") return na(`the live turn produced no agent text (${kindsOf(live)}): nothing of the agent's to judge the replay against (${what})`);
  if (NOTICE.test(liveAgent)) return na(`the live turn's only agent text reads as a notice, not conversation: ${JSON.stringify(liveAgent.slice(0, 300))} (${what})`);
  const userReplayed = textOf(replayed, "user_message_chunk");
  const agentReplayed = textOf(replayed, "agent_message_chunk");
  if (userReplayed.includes("hello from check") && agentReplayed.includes(liveAgent)) return pass;
  return fail(`${promptExchange}, with the agent's text ${JSON.stringify(liveAgent.slice(0, 500))} in that turn; ${what}: user text ${JSON.stringify(userReplayed.slice(0, 300))}, agent text ${JSON.stringify(agentReplayed.slice(0, 300))}`);
}

/** The session probes of the main run (no client capability advertised). */
async function sessionDepth(run: Run, init: Obj, sessionCaps: Obj): Promise<void> {
  const { d, card } = run;
  const cwd = run.options.cwd;
  let sid: string | undefined;
  const ids: string[] = [];
  await step(run, "session/new depth", SESSION_ROWS, async () => {
    const meta = { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "acp-router.check": { nested: [1, null, { deep: true }], odd: "" } };
    const created = await d.request("session/new", { cwd, mcpServers: [], _meta: meta });
    if (created === undefined) return card.score("ACP-META-102", silent(run, "ACP-META-102"));
    if (created.error !== undefined) return card.all(SESSION_ROWS, na(`session/new was answered ${describeError(created)}`));
    const result = isObj(created.result) ? created.result : {};
    if (typeof result.sessionId !== "string") return card.all(SESSION_ROWS, na(`session/new answered ${show(created)}`));
    sid = result.sessionId;
    ids.push(sid);
    card.all(["ACP-META-001", "ACP-META-102"], pass);
    const stdio = { name: "acp-router-check", command: process.execPath, args: ["-e", ""], env: [] };
    const withMcp = await d.request("session/new", { cwd, mcpServers: [stdio] });
    if (withMcp === undefined) card.score("ACP-MCP-101", silent(run, "ACP-MCP-101"));
    else if (errorCode(withMcp) === ErrorCode.InvalidParams) card.all(["ACP-MCP-101", "ACP-MCP-102"], fail(`session/new with a stdio MCP server was refused: ${describeError(withMcp)}`));
    else if (withMcp.error !== undefined) card.all(["ACP-MCP-101", "ACP-MCP-102"], na(`session/new with a stdio MCP server (one that exits at once) was answered ${describeError(withMcp)}`));
    else {
      card.all(["ACP-MCP-101", "ACP-MCP-102"], pass);
      const id = (withMcp.result as { sessionId?: unknown } | undefined)?.sessionId;
      if (typeof id === "string") ids.push(id);
    }
    const unknown = await d.request("session/new", { cwd, mcpServers: [], acpRouterCheckFutureField: { since: "a later version" } });
    if (unknown === undefined) card.score("ACP-EXT-101", silent(run, "ACP-EXT-101"));
    else if (unknown.error !== undefined) card.score("ACP-EXT-101", errorCode(unknown) === ErrorCode.InvalidParams ? fail(`session/new with an unknown field was refused: ${describeError(unknown)}`) : na(`session/new with an unknown field was answered ${describeError(unknown)}`));
    else {
      card.score("ACP-EXT-101", pass);
      const id = (unknown.result as { sessionId?: unknown } | undefined)?.sessionId;
      if (typeof id === "string") ids.push(id);
    }
    card.score("ACP-SESSION-002", new Set(ids).size === ids.length ? pass : fail(`session/new answered the same sessionId twice: ${show(ids)}`));

    // Config options: a current value each, a set answered with the whole list, an invalid value refused.
    const options = Array.isArray(result.configOptions) ? result.configOptions.filter(isObj) : [];
    if (options.length === 0) card.all(["ACP-CONFIG-101", "ACP-CONFIG-002", "ACP-CONFIG-111", "ACP-CONFIG-114"], na("session/new offered no config options"));
    else {
      const missing = options.filter((o) => o.currentValue === undefined || o.currentValue === null);
      card.score("ACP-CONFIG-101", missing.length === 0 ? pass : fail(`config option ${show(missing[0]!.id)} has no currentValue`));
      const select = options.find((o) => o.type === "select" && Array.isArray(o.options) && o.options.some((x) => isObj(x) && x.value !== o.currentValue));
      if (select === undefined) card.score("ACP-CONFIG-002", na("no select option with a second value to set"));
      else {
        const value = (select.options as Obj[]).find((x) => isObj(x) && x.value !== select.currentValue)!.value;
        const set = await d.request("session/set_config_option", { sessionId: sid, configId: select.id, value });
        const after = isObj(set?.result) && Array.isArray(set.result.configOptions) ? set.result.configOptions.filter(isObj) : undefined;
        const allIds = options.map((o) => o.id);
        if (set === undefined) card.score("ACP-CONFIG-002", silent(run, "ACP-CONFIG-002"));
        else if (set.error !== undefined) card.score("ACP-CONFIG-002", fail(`session/set_config_option ${show(select.id)} = ${show(value)} (a value it offered) was answered ${describeError(set)}`));
        else card.score("ACP-CONFIG-002", after !== undefined && allIds.every((id) => after.some((o) => o.id === id)) && after.find((o) => o.id === select.id)?.currentValue === value ? pass : fail(`session/set_config_option ${show(select.id)} = ${show(value)} was answered ${show(set)}, not the complete list with the new value`));
        const bad = await d.request("session/set_config_option", { sessionId: sid, configId: select.id, value: "acp-router-check-no-such-value" });
        if (bad?.result !== undefined) card.notes.push(`session/set_config_option with a value the option does not offer was accepted: ${show(bad)}`);
      }
      const modeLike = options.find((o) => o.category === "mode");
      const modes = isObj(result.modes) ? result.modes : undefined;
      card.score("ACP-CONFIG-111", modeLike === undefined ? na("no config option of category mode") : modes !== undefined ? pass : fail(`config option ${show(modeLike.id)} is mode-like, but session/new sent no modes`));
      if (modeLike === undefined || modes === undefined || !Array.isArray(modes.availableModes)) card.score("ACP-CONFIG-114", na("the agent does not offer both modes and a mode config option"));
      else {
        const target = (modes.availableModes as Obj[]).find((m) => isObj(m) && m.id !== modes.currentModeId)?.id;
        const at = d.lines.length;
        const set = target === undefined ? undefined : await d.request("session/set_mode", { sessionId: sid, modeId: target });
        if (set?.result === undefined) card.score("ACP-CONFIG-114", na(`session/set_mode was answered ${show(set)}`));
        else {
          await d.waitFor(() => false, d.quiet, at);
          const synced = configLists(d.lines.slice(at)).some((l) => l.options.some((o) => o.id === modeLike.id && o.currentValue === target));
          card.score("ACP-CONFIG-114", synced ? pass : fail(`after session/set_mode ${show(target)}, no config option update put ${show(modeLike.id)} at that value`));
        }
      }
    }

    // session/cancel is a notification: never answered.
    const cancel = await withSentinel(run, () => d.notify("session/cancel", { sessionId: sid }), (l) => isResponse(l) && (l.body?.id === null || l.body?.id === undefined));
    card.score("ACP-CANCEL-205", cancel.found.length > 0 ? fail(`session/cancel was answered: ${cancel.found[0]!.text.slice(0, 160)}`) : cancel.sentinel !== undefined ? pass : silent(run, "ACP-CANCEL-205"));
  });
  if (sid === undefined) return;
  const text = (sessionId: string, t: string) => ({ sessionId, prompt: [{ type: "text", text: t }] });

  await step(run, "session/load", ["ACP-LOAD-102", "ACP-LOAD-002"], async () => {
    if (init.agentCapabilities === undefined || (init.agentCapabilities as Obj).loadSession !== true) return card.all(["ACP-LOAD-102", "ACP-LOAD-002"], na("loadSession is not advertised"));
    const created = await d.request("session/new", { cwd, mcpServers: [] });
    const id = (created?.result as { sessionId?: unknown } | undefined)?.sessionId;
    if (typeof id !== "string") return card.all(["ACP-LOAD-102", "ACP-LOAD-002"], na(`session/new was answered ${show(created)}`));
    const liveFrom = d.lines.length;
    const hello = await d.request("session/prompt", text(id, "hello from check"));
    const promptExchange = exchange(d, d.sentLine(d.lastRequestId), d.answerTo(d.lastRequestId));
    if (hello?.result === undefined) return card.all(["ACP-LOAD-102", "ACP-LOAD-002"], na(`no conversation to replay: ${promptExchange}`));
    const live = updatesOf(d.lines.slice(liveFrom)).filter((u) => u.sessionId === id).map((u) => u.update);
    const at = d.lines.length;
    const loaded = await d.request("session/load", { sessionId: id, cwd, mcpServers: [] });
    if (loaded === undefined) return card.score("ACP-LOAD-002", silent(run, "ACP-LOAD-002"));
    const loadExchange = exchange(d, d.sentLine(d.lastRequestId), d.answerTo(d.lastRequestId));
    // A load that fails replays nothing: the rows are about the replay of a load that happens, so there is nothing to judge.
    if (loaded.error !== undefined) return card.all(["ACP-LOAD-102", "ACP-LOAD-002"], na(`loadSession is advertised, but ${loadExchange}: no replay to judge`));
    const answerLine = d.lines.findIndex((l, i) => i >= at && answerOf(d.lastRequestId)(l));
    await d.waitFor(() => false, d.quiet, d.lines.length);
    const replay = d.lines.slice(at).filter(updateFor(id));
    // Only the conversation is replayed; an available_commands_update, a mode or config change, a usage update may come at any time.
    const late = replay.filter((l) => d.lines.indexOf(l) > answerLine && isConversation(l));
    card.score("ACP-LOAD-002", late.length === 0 ? pass : fail(`${loadExchange}, and after that answer came a conversation update: ${quote(d, late[0]!)}`));
    const otherLate = replay.filter((l) => d.lines.indexOf(l) > answerLine && !isConversation(l));
    if (otherLate.length > 0) card.notes.push(`ACP-LOAD-002: after the session/load answer came ${otherLate.length} update(s) that are not conversation history (${[...new Set(otherLate.map(updateKind))].join(", ")}), which an agent may send at any time; not counted as replay`);
    card.score("ACP-LOAD-102", judgeReplay(hello, live, updatesOf(replay).map((u) => u.update), promptExchange));
  });

  await step(run, "session/resume", ["ACP-RESUME-002"], async () => {
    if (!isObj(sessionCaps.resume)) return card.score("ACP-RESUME-002", na("sessionCapabilities.resume is not advertised"));
    const at = d.lines.length;
    const resumed = await d.request("session/resume", { sessionId: sid, cwd, mcpServers: [] });
    if (resumed === undefined) return card.score("ACP-RESUME-002", silent(run, "ACP-RESUME-002"));
    if (resumed.error !== undefined) return card.score("ACP-RESUME-002", na(`session/resume was answered ${describeError(resumed)}`));
    const before = d.lines.slice(at).filter(updateFor(sid!)).filter((l) => d.lines.indexOf(l) < d.lines.indexOf(d.answerTo(d.lastRequestId)!));
    const history = before.filter(isConversation);
    card.score("ACP-RESUME-002", history.length === 0 ? pass : fail(`session/resume replayed history before answering: ${history[0]!.text.slice(0, 160)}`));
  });

  await step(run, "session/close", ["ACP-CLOSE-002"], async () => {
    if (!isObj(sessionCaps.close)) return card.score("ACP-CLOSE-002", na("sessionCapabilities.close is not advertised"));
    const created = await d.request("session/new", { cwd, mcpServers: [] });
    const id = (created?.result as { sessionId?: unknown } | undefined)?.sessionId;
    if (typeof id !== "string") return card.score("ACP-CLOSE-002", na(`session/new was answered ${show(created)}`));
    const at = d.lines.length;
    const turn = d.request("session/prompt", text(id, "slow"));
    const promptId = d.lastRequestId;
    const first = await d.waitFor((l) => updateFor(id)(l) || answerOf(promptId)(l), d.timeout, at);
    if (first === undefined || answerOf(promptId)(first) || d.answerTo(promptId) !== undefined) {
      d.notify("session/cancel", { sessionId: id });
      await turn;
      return card.score("ACP-CLOSE-002", na("the turn was not shown running (no session/update before its answer)"));
    }
    const closed = await d.request("session/close", { sessionId: id });
    const answer = await turn;
    if (closed === undefined) return card.score("ACP-CLOSE-002", silent(run, "ACP-CLOSE-002"));
    if (closed.error !== undefined) return card.score("ACP-CLOSE-002", fail(`session/close of a session with a running turn was answered ${describeError(closed)}`));
    const judge = (a: Obj, note = ""): Verdict => ((a.result as { stopReason?: unknown } | undefined)?.stopReason === "cancelled" ? (note === "" ? pass : passNoted(note)) : fail(`a running turn whose session was closed was answered ${show(a)}, not stopReason "cancelled"${note === "" ? "" : ` (${note})`}`));
    card.score("ACP-CLOSE-002", answer === undefined ? silent(run, "ACP-CLOSE-002", promptId, "after session/close, the running turn got no answer", judge) : judge(answer));
  });

  await step(run, "session/list depth", ["ACP-LIST-204", "ACP-LIST-002", "ACP-LIST-107", "ACP-SESSION-103", "ACP-ADDDIRS-101"], async () => {
    if (!isObj(sessionCaps.list)) return card.all(["ACP-LIST-204", "ACP-LIST-002", "ACP-LIST-107", "ACP-SESSION-103", "ACP-ADDDIRS-101"], na("sessionCapabilities.list is not advertised"));
    const list = await d.request("session/list", {});
    const sessions = isObj(list?.result) && Array.isArray(list.result.sessions) ? list.result.sessions.filter(isObj) : undefined;
    if (sessions === undefined) card.all(["ACP-LIST-204", "ACP-SESSION-103", "ACP-ADDDIRS-101"], list === undefined ? silent(run, "ACP-LIST-204") : na(`session/list was answered ${show(list)}`));
    else {
      const relative = sessions.find((s) => typeof s.cwd !== "string" || !isAbsolute(s.cwd));
      card.all(["ACP-LIST-204", "ACP-SESSION-103"], sessions.length === 0 ? na("session/list listed no session") : relative === undefined ? pass : fail(`session/list listed a session whose cwd is not absolute: ${show(relative)}`));
      const dirs = sessions.flatMap((s) => (Array.isArray(s.additionalDirectories) ? s.additionalDirectories : []));
      card.score("ACP-ADDDIRS-101", dirs.length === 0 ? na("no listed session has additionalDirectories") : dirs.every((x) => typeof x === "string" && isAbsolute(x)) ? pass : fail(`session/list listed additionalDirectories ${show(dirs)}, not all absolute`));
    }
    const nowhere = join(tmpdir(), `acp-router-check-no-session-here-${process.pid}`);
    const none = await d.request("session/list", { cwd: nowhere });
    const found = isObj(none?.result) && Array.isArray(none.result.sessions) ? none.result.sessions : undefined;
    card.score("ACP-LIST-002", none === undefined ? silent(run, "ACP-LIST-002") : found?.length === 0 ? pass : fail(`session/list for a cwd no session uses (${nowhere}) was answered ${show(none)}, not an empty sessions array`));
    const cursor = await d.request("session/list", { cursor: "acp-router-check: not a cursor this agent issued" });
    card.score("ACP-LIST-107", cursor === undefined ? silent(run, "ACP-LIST-107") : cursor.error !== undefined ? pass : fail(`session/list with a cursor it never issued was answered ${show(cursor)}, not an error`));
  });

  await step(run, "session/delete", ["ACP-DELETE-002"], async () => {
    if (!isObj(sessionCaps.delete)) return card.score("ACP-DELETE-002", na("sessionCapabilities.delete is not advertised"));
    const gone = await d.request("session/delete", { sessionId: "acp-router-check-never-existed" });
    card.score("ACP-DELETE-002", gone === undefined ? silent(run, "ACP-DELETE-002") : gone.error === undefined ? pass : fail(`session/delete of a session that never existed was answered ${describeError(gone)}, not a silent success`));
  });
}

/**
 * The second run: every client capability advertised, the exercise prompts
 * answered by check's client. It starts with a version no agent has
 * (9999: the answer must be the agent's latest, ACP-INIT-003); an agent that
 * answers another version than 1 gets a fresh process initialized with 1,
 * never a second initialize on the same connection (which an agent may
 * refuse: a repeated initialize is the client's option, not the agent's duty).
 */
async function capabilitiesRun(run: Run, spawn: (label: string) => Driver): Promise<Seen | undefined> {
  const { card } = run;
  let d = spawn("capabilities run: initialize with protocolVersion 9999");
  const seen = newSeen();
  d.answerer = answerer(d, seen, true);
  const label = "the capabilities run (every client capability advertised)";
  // A fresh session cwd, not the folder the agent was started in: paths must follow the session's cwd (ACP-SESSION-104/105).
  const cwd = mkdtempSync(join(tmpdir(), "acp-router-check-"));
  try {
    let first = await d.request("initialize", { protocolVersion: 9999, clientCapabilities: ALL_CLIENT_CAPABILITIES, clientInfo: CLIENT_INFO });
    // A slow start is waited for as in the main run (three times the timeout); its latency is not a violation.
    if (first === undefined && d.death === undefined) first = (await d.waitFor(answerOf(d.lastRequestId), d.timeout * 3, 0))?.body;
    const version = (first?.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    const asked = d.sentLine(d.lastRequestId);
    const answerLine = d.answerTo(d.lastRequestId);
    card.score("ACP-INIT-003", first === undefined ? fail(`check sent ${asked === undefined ? "initialize with protocolVersion 9999" : quote(d, asked)}; no answer within ${seconds(d.timeout * 4)}`)
      : typeof version === "number" && Number.isInteger(version) && version >= 1 && version < 9999 ? pass
      : fail(`${exchange(d, asked, answerLine)}: ${first.error !== undefined ? "an error, not" : `protocolVersion ${show(version)}, not`} the latest version the agent supports`));
    if (version !== 1) {
      // A fresh process for protocol 1: the first one is initialized with another version already.
      await d.close();
      d = spawn("capabilities run: initialize with protocolVersion 1");
      d.answerer = answerer(d, seen, true);
      const again = await d.request("initialize", { protocolVersion: 1, clientCapabilities: ALL_CLIENT_CAPABILITIES, clientInfo: CLIENT_INFO });
      if ((again?.result as { protocolVersion?: unknown } | undefined)?.protocolVersion !== 1) {
        card.all(CAPS_ROWS.filter((id) => id !== "ACP-INIT-003"), na(`in ${label}, a fresh process asked for protocol 1 answered ${show(again)}`));
        return undefined;
      }
    }
    const created = await d.request("session/new", { cwd, mcpServers: [] });
    const sid = (created?.result as { sessionId?: unknown } | undefined)?.sessionId;
    if (typeof sid !== "string") {
      card.all(CAPS_ROWS.filter((id) => id !== "ACP-INIT-003"), na(`in ${label}, session/new was answered ${show(created)}`));
      return undefined;
    }
    const booleans = configLists(d.lines).filter((l) => l.options.some((o) => o.type === "boolean"));
    if (booleans.length > 0) card.notes.push("ACP-CONFIG-003: with session.configOptions.boolean advertised the agent offers a boolean option (it withholds it otherwise)");
    await exercise(run, d, sid, seen, cwd);
    seen.lines.push(...d.lines);
    // Coping is shown by answers; an agent that exits fails. A prompt still unanswered at the timeout is no evidence (late is not never: an
    // agent without credentials may wait minutes on its model), so it leaves the row n/a with the count.
    const answered = seen.results + seen.errors;
    card.score("ACP-INIT-106", d.death !== undefined ? fail(`in ${label} the agent exited (${deathReason(d)})`) : answered === EXERCISES.length ? pass : na(`in ${label}, ${EXERCISES.length - answered} of ${EXERCISES.length} exercise prompts got no answer within ${seconds(d.timeout)}: not shown either way`));
    judgeCapabilities(run, seen, cwd);
    return seen;
  } finally {
    await d.close();
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** Tool calls, plans, paths, terminals and elicitations as the capabilities run showed them. */
function judgeCapabilities(run: Run, seen: Seen, cwd: string): void {
  const { card } = run;
  const lines = seen.lines;
  const tools = updatesOf(lines, "tool_call");
  const toolUpdates = updatesOf(lines, "tool_call_update");
  card.score("ACP-TOOL-101", tools.length > 0 ? pass : na("the agent reported no tool call in answer to the exercise prompts"));
  if (seen.allowed.length === 0) card.score("ACP-TOOL-102", na("the agent asked no permission that check's client allowed"));
  else {
    const notRun = seen.allowed.filter((a) => !toolUpdates.some((u) => u.update.toolCallId === a.toolCallId && u.update.status === "in_progress" && u.line.t >= a.at));
    card.score("ACP-TOOL-102", notRun.length === 0 ? pass : fail(`tool call ${show(notRun[0]!.toolCallId)} was permitted but never reported in_progress`));
  }
  const plans = updatesOf(lines, "plan");
  card.score("ACP-PLAN-101", plans.length > 0 ? pass : na("the agent reported no plan in answer to the exercise prompts"));
  card.score("ACP-PLAN-102", plans.length > 1 ? pass : na(plans.length === 0 ? "the agent reported no plan" : "one plan update only: no progress to report"));
  const badPlan = plans.find((p) => !Array.isArray(p.update.entries) || !(p.update.entries as unknown[]).every((e) => isObj(e) && typeof e.content === "string" && typeof e.status === "string" && typeof e.priority === "string"));
  card.score("ACP-PLAN-103", plans.length === 0 ? na("the agent reported no plan") : badPlan === undefined ? pass : fail(`a plan update without the complete entries (content, priority, status each): ${badPlan.line.text.slice(0, 160)}`));

  // Paths and lines the agent sent: fs requests, terminal cwds, tool call locations.
  const fs = requestsOf(lines, "fs/");
  const creates = requestsOf(lines, "terminal/create");
  const locations = [...tools, ...toolUpdates].flatMap((u) => (Array.isArray(u.update.locations) ? u.update.locations.filter(isObj) : []));
  const paths = [...fs.map((l) => paramsOf(l).path), ...creates.map((l) => paramsOf(l).cwd).filter((c) => c !== undefined && c !== null), ...locations.map((x) => x.path)];
  card.score("ACP-PATH-101", paths.length === 0 ? na("the agent sent no path (no fs request, terminal cwd or tool call location)") : paths.every((p) => typeof p === "string" && isAbsolute(p)) ? pass : fail(`the agent sent the path ${show(paths.find((p) => typeof p !== "string" || !isAbsolute(p)))}, not absolute`));
  const numbers = [...fs.map((l) => paramsOf(l).line), ...locations.map((x) => x.line)].filter((n) => n !== undefined && n !== null);
  card.score("ACP-PATH-102", numbers.length === 0 ? na("the agent sent no line number") : numbers.every((n) => Number.isInteger(n) && (n as number) >= 1) ? pass : fail(`the agent sent the line number ${show(numbers.find((n) => !Number.isInteger(n) || (n as number) < 1))} (lines are 1-based)`));
  const touched = [...fs.map((l) => paramsOf(l).path), ...creates.map((l) => paramsOf(l).cwd).filter((c) => c !== undefined && c !== null)];
  const outside = touched.filter((p) => typeof p === "string" && isAbsolute(p) && !(p === cwd || p.startsWith(`${cwd}/`)));
  const spawnDir = process.cwd();
  const inSpawnDir = touched.filter((p) => typeof p === "string" && (p === spawnDir || p.startsWith(`${spawnDir}/`)) && !(p === cwd || p.startsWith(`${cwd}/`)));
  card.score("ACP-SESSION-104", touched.length === 0 ? na("the agent made no file-system call and created no terminal") : inSpawnDir.length === 0 ? pass : fail(`the session's cwd was ${cwd}, but the agent reached ${show(inSpawnDir[0])} in the folder it was started in`));
  const relative = fs.map((l) => paramsOf(l).path).filter((p) => typeof p === "string" && p.endsWith(`/${RELATIVE_FILE}`));
  card.score("ACP-SESSION-105", relative.length === 0 ? na(`the agent resolved no relative path (no fs request for ${RELATIVE_FILE}, which the # directives name relative to the session cwd)`) : relative.every((p) => p === join(cwd, RELATIVE_FILE)) ? pass : fail(`${RELATIVE_FILE}, relative to the session cwd ${cwd}, was resolved to ${show(relative.find((p) => p !== join(cwd, RELATIVE_FILE)))}`));
  card.score("ACP-SESSION-107", touched.length === 0 ? na("the agent made no file-system call and created no terminal") : outside.length === 0 ? pass : fail(`the agent reached ${show(outside[0])}, outside the session's roots (${cwd})`));

  card.score("ACP-TERM-102", creates.length === 0 ? na("the agent created no terminal") : creates.every((l) => paramsOf(l).cwd == null || (typeof paramsOf(l).cwd === "string" && isAbsolute(paramsOf(l).cwd as string))) ? pass : fail(`terminal/create with a cwd that is not absolute: ${creates.find((l) => typeof paramsOf(l).cwd === "string" && !isAbsolute(paramsOf(l).cwd as string))?.text.slice(0, 160)}`));
  const released = new Set(requestsOf(lines, "terminal/release").map((l) => paramsOf(l).terminalId));
  const unreleased = seen.terminals.filter((t) => !released.has(t));
  card.score("ACP-TERM-104", seen.terminals.length === 0 ? na("the agent created no terminal") : unreleased.length === 0 ? pass : fail(`terminal ${unreleased[0]} was never released`));
  const kills = requestsOf(lines, "terminal/kill");
  const killedUnreleased = kills.filter((k) => !requestsOf(lines.slice(lines.indexOf(k)), "terminal/release").some((r) => paramsOf(r).terminalId === paramsOf(k).terminalId));
  card.score("ACP-TERM-105", kills.length === 0 ? na("the agent killed no terminal") : killedUnreleased.length === 0 ? pass : fail(`terminal ${show(paramsOf(killedUnreleased[0]!).terminalId)} was killed but never released`));

  // Elicitations.
  const elicits = requestsOf(lines, "elicitation/create");
  const none = na("the agent sent no elicitation in answer to the exercise prompts");
  if (elicits.length === 0) {
    card.all(["ACP-ELICIT-116", "ACP-ELICIT-117", "ACP-ELICIT-119", "ACP-ELICIT-122", "ACP-ELICIT-123"], none);
    return;
  }
  card.score("ACP-ELICIT-116", seen.results + seen.errors === EXERCISES.length ? pass : fail("after check's client declined an elicitation, a turn was left unanswered"));
  const urls = elicits.filter((l) => paramsOf(l).mode === "url");
  const urlIds = urls.map((l) => paramsOf(l).elicitationId);
  card.score("ACP-ELICIT-117", urls.length === 0 ? na("no URL-mode elicitation") : new Set(urlIds).size === urlIds.length ? pass : fail(`URL elicitations reuse an elicitationId: ${show(urlIds)}`));
  const completes = requestsOf(lines, "elicitation/complete").concat(lines.filter((l) => l.body?.method === "elicitation/complete" && l.body.id === undefined));
  card.score("ACP-ELICIT-119", completes.length === 0 ? na("the agent sent no elicitation/complete") : completes.every((c) => urlIds.includes(paramsOf(c).elicitationId)) ? pass : fail(`elicitation/complete for an elicitationId check's client never got: ${completes[0]!.text.slice(0, 160)}`));
  const insecure = urls.filter((l) => typeof paramsOf(l).url === "string" && !/^https:|^http:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/.test(paramsOf(l).url as string));
  card.score("ACP-ELICIT-122", urls.length === 0 ? na("no URL-mode elicitation") : insecure.length === 0 ? pass : fail(`a URL elicitation to ${show(paramsOf(insecure[0]!).url)}, not HTTPS`));
  const forms = elicits.filter((l) => paramsOf(l).mode !== "url");
  const linked = forms.find((l) => /https?:\/\//.test(JSON.stringify(paramsOf(l).requestedSchema ?? {})));
  card.score("ACP-ELICIT-123", forms.length === 0 ? na("no form-mode elicitation") : linked === undefined ? pass : fail(`a form elicitation carries a URL in its fields: ${linked.text.slice(0, 160)}`));
}

let schemaProps: Map<string, Set<string>> | undefined | null;
/** The properties of the v1 schema's (stable and unstable) response and notification types, by name; null when the schema is not installed. */
export function properties(): Map<string, Set<string>> | null {
  if (schemaProps !== undefined) return schemaProps;
  try {
    const require = createRequire(import.meta.url);
    const out = new Map<string, Set<string>>();
    for (const file of ["schema.json", "schema.unstable.json"]) {
      const defs = (JSON.parse(readFileSync(require.resolve(`@agentclientprotocol/sdk/schema/v1/${file}`), "utf8")) as { $defs: Record<string, { properties?: Obj }> }).$defs;
      for (const name of ["InitializeResponse", "NewSessionResponse", "LoadSessionResponse", "PromptResponse", "SessionNotification"]) {
        const set = out.get(name) ?? new Set<string>();
        for (const k of Object.keys(defs[name]?.properties ?? {})) set.add(k);
        out.set(name, set);
      }
    }
    schemaProps = out;
  } catch {
    schemaProps = null;
  }
  return schemaProps;
}

/** Rows the whole traffic decides: UTF-8, ids, error messages, the version kept, custom root fields. */
function trafficRows(run: Run, init: Obj, lines: readonly AgentLine[], twoRuns: boolean): void {
  const { card } = run;
  const replaced = lines.find((l) => l.text.includes("\uFFFD"));
  card.score("ACP-TRANSPORT-002", replaced === undefined ? pass : fail(`a line from the agent carries U+FFFD (bytes that are not UTF-8, or a replacement character sent as such): ${replaced.text.slice(0, 120)}`));
  if (lines.some((l) => l.body?.id !== undefined)) card.score("ACP-JSONRPC-102", pass);
  const requests = lines.filter((l) => typeof l.body?.method === "string" && l.body.id !== undefined);
  if (requests.length === 0) card.score("ACP-JSONRPC-103", na(`the agent sent no request${twoRuns ? " in either run" : ""}`));
  else {
    const odd = requests.find((l) => l.body?.id === null || (typeof l.body?.id === "number" && !Number.isInteger(l.body.id)));
    card.score("ACP-JSONRPC-103", odd === undefined ? pass : fail(`the agent sent a request with id ${show(odd.body?.id)}: ${odd.text.slice(0, 120)}`));
  }
  const errors = lines.filter((l) => isResponse(l) && isObj(l.body?.error)).map((l) => ({ l, message: (l.body!.error as Obj).message }));
  const wordy = errors.find((e) => typeof e.message !== "string" || e.message.trim() === "" || e.message.includes("\n") || e.message.length > 300);
  card.score("ACP-ERROR-001", errors.length === 0 ? na("the agent sent no error") : wordy === undefined ? pass : fail(`an error message that is not one concise sentence: ${show(wordy.message)}`));
  card.score("ACP-INIT-103", pass);
  // Extensions: a custom `_` request check sent that got a result shows an extension, which should be advertised in a capability's _meta.
  const served = run.d.lines.filter((l) => isResponse(l) && l.body?.result !== undefined && typeof l.body.id === "number" && run.d.sent.get(l.body.id)?.startsWith("_") === true && run.d.sent.get(l.body.id) !== "_acp-router.check/sentinel");
  const caps = isObj(init.agentCapabilities) ? init.agentCapabilities : {};
  const advertised = isObj(caps._meta) && Object.keys(caps._meta).length > 0;
  card.all(["ACP-EXT-103", "ACP-EXT-202"], served.length === 0 ? na("the agent served none of check's custom `_` requests: no extension seen") : advertised ? pass : fail("the agent served a custom `_` request with a result, but advertises nothing under agentCapabilities._meta"));
  // ACP-META-101, the part on the wire: the reserved _meta keys, wherever the agent writes them, hold W3C trace context.
  const traces = lines.flatMap((l) => traceContextUses(l.body).map((u) => ({ ...u, l })));
  const badTrace = traces.find((u) => u.problem !== undefined);
  card.score("ACP-META-101", traces.length === 0 ? na("the agent wrote none of the _meta keys reserved for W3C trace context (traceparent, tracestate, baggage)") : badTrace === undefined ? pass : fail(`in the agent's _meta, ${badTrace.problem!}; the key is reserved for W3C trace context: ${badTrace.l.text.slice(0, 200)}`));
  const props = properties();
  if (props === null) return card.score("ACP-SCHEMA-002", na("the v1 schema (@agentclientprotocol/sdk) is not installed: no list of fields to compare with"));
  const extra: string[] = [];
  const drift = new Set<string>();
  const check = (name: string, value: unknown, where: string) => {
    if (!isObj(value)) return;
    const known = props.get(name)!;
    for (const k of Object.keys(value)) {
      if (known.has(k)) continue;
      // A field an earlier published schema defined is protocol data of that version (schema drift), not a custom field.
      const w = withdrawn(name, k);
      if (w !== undefined) drift.add(`ACP-SCHEMA-002: ${where} has the field ${JSON.stringify(k)}, which ${name} had in ${w.definedIn} and the schema withdrew in ${w.withdrawnIn}; schema drift, not a custom field`);
      else extra.push(`${where} has the field ${JSON.stringify(k)}`);
    }
  };
  for (const l of lines) {
    if (l.body?.method === "session/update") check("SessionNotification", l.body.params, "a session/update's params");
    else if (isResponse(l) && isObj(l.body?.result)) {
      const r = l.body.result;
      if ("protocolVersion" in r) check("InitializeResponse", r, "the initialize answer");
      else if ("stopReason" in r) check("PromptResponse", r, "a session/prompt answer");
      else if ("sessionId" in r) check("NewSessionResponse", r, "a session/new answer");
      else if (run.d.sent.get(l.body.id as number) === "session/load") check("LoadSessionResponse", r, "a session/load answer");
    }
  }
  card.notes.push(...drift);
  card.score("ACP-SCHEMA-002", extra.length === 0 ? pass : fail(`custom fields at the root of spec types, which no published ACP schema defines (custom data goes in _meta): ${[...new Set(extra)].slice(0, 3).join("; ")}`));
}
