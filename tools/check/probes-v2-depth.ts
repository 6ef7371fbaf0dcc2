/**
 * The deeper v2 probes of `check`, on the session the v2 prompt probes made
 * (its "hello" turn is the conversation later probes look for):
 *
 * - content: a resource_link prompt must be accepted (ACP-INIT-310) and an
 *   image block the agent did not advertise refused -32602 if refused at all
 *   (ACP-PROMPT-321);
 * - the exercise turns (the mock agent's `#` grammar and a plain plan
 *   request), with check's client answering five permission requests: allow,
 *   reject, a custom outcome it does not expect the agent to know, an optionId
 *   it never offered, then session/cancel and the cancelled outcome. After the
 *   last three the tool call must not go on (ACP-PERM-301/303/302); after an
 *   allow it runs (ACP-TOOL-303); the foreground state reports the wait
 *   (ACP-PROMPT-306/307);
 * - sessions: session/list (a filter matching nothing, a cursor never issued,
 *   absolute cwds), session/close and session/delete of sessions that never
 *   existed, session ids unique, the session methods supported;
 * - session/resume: without replayFrom nothing of the conversation comes
 *   before the answer; with {"type":"start"} the conversation (judged only
 *   against a turn that ended normally with the agent's own text) comes back
 *   with unique message ids and a current state_update before the answer; an
 *   unknown cursor is refused -32602;
 * - config options: a value set is answered with the whole list, an unknown
 *   value refused -32602.
 */
import { describeError, errorCode, exchange, isConversation, quote, silent, step, updateFor, updateKind, type Run } from "./kit.ts";
import { fail, na, pass, type Verdict } from "./score.ts";
import { isObj, type Obj } from "./depth-kit.ts";
import type { AgentLine, ClientAnswer } from "./driver.ts";
import { ErrorCode } from "../../src/errors.ts";
import { kindsOf, NOTICE, textOf } from "./probes-session-lifecycle.ts";

const isIdle = (l: AgentLine) => updateKind(l) === "state_update" && (l.body?.params as { update: { state?: unknown } }).update.state === "idle";
const stateOf = (l: AgentLine) => (updateKind(l) === "state_update" ? String((l.body?.params as { update: { state?: unknown } }).update.state) : undefined);
const text = (sessionId: string, t: string) => ({ sessionId, prompt: [{ type: "text", text: t }] });

/** The exercise turns of the v2 run: a plan asked in plain words, every update kind, five permission requests. */
export const EXERCISES_V2 = ["plan the steps to say hello", "#updates all", "#permission\n#permission\n#permission\n#permission\n#permission"];

/** Every row this file scores. */
export const V2_DEPTH_ROWS = [
  "ACP-INIT-310",
  "ACP-PROMPT-321",
  "ACP-TOOL-301",
  "ACP-TOOL-303",
  "ACP-PERM-301",
  "ACP-PERM-302",
  "ACP-PERM-303",
  "ACP-PROMPT-306",
  "ACP-PROMPT-307",
  "ACP-PROMPT-309",
  "ACP-LIST-301",
  "ACP-LIST-302",
  "ACP-LIST-306",
  "ACP-SESSION-313",
  "ACP-SESSION-303",
  "ACP-SESSION-304",
  "ACP-SESSION-319",
  "ACP-SESSION-325",
  "ACP-DELETE-302",
  "ACP-SESSION-306",
  "ACP-SESSION-307",
  "ACP-SESSION-308",
  "ACP-SESSION-309",
  "ACP-SESSION-310",
  "ACP-CONFIG-302",
  "ACP-CONFIG-303",
  "ACP-CONFIG-304",
];

/** One permission request check's client answered, and how. */
interface Answered {
  readonly line: AgentLine;
  readonly how: "allow" | "reject" | "unknown outcome" | "unknown option" | "cancel";
}

/** check's client for the exercise turns: permission requests answered in the order of {@link Answered}'s `how`. */
function permissionAnswerer(run: Run, answered: Answered[]): Run["d"]["answerer"] {
  const order: Answered["how"][] = ["allow", "reject", "unknown outcome", "unknown option", "cancel"];
  return (method, params, line): ClientAnswer | Promise<ClientAnswer> => {
    if (method !== "session/request_permission") return { error: { code: ErrorCode.MethodNotFound, message: `Method not found: check's client does not offer ${method}` } };
    const how = order[answered.length % order.length]!;
    answered.push({ line, how });
    const options = Array.isArray(params.options) ? params.options.filter(isObj) : [];
    const pick = (kind: string) => options.find((o) => typeof o.kind === "string" && o.kind.startsWith(kind))?.optionId ?? options[0]?.optionId;
    if (how === "unknown outcome") return { result: { outcome: { outcome: "_acp-router.check/undecided" } } };
    if (how === "unknown option") return { result: { outcome: { outcome: "selected", optionId: "acp-router-check-never-offered" } } };
    if (how === "cancel") {
      run.d.notify("session/cancel", { sessionId: params.sessionId });
      return { result: { outcome: { outcome: "cancelled" } } };
    }
    return { result: { outcome: { outcome: "selected", optionId: pick(how === "allow" ? "allow" : "reject") } } };
  };
}

/** The tool call a permission request is about, when it names one. */
const toolOf = (line: AgentLine): unknown => {
  const p = isObj(line.body?.params) ? (line.body.params as Obj) : {};
  const subject = isObj(p.subject) ? p.subject : {};
  return isObj(subject.toolCall) ? subject.toolCall.toolCallId : subject.toolCallId;
};

/** The tool call updates of `toolCallId` after `from` (a line index) in `lines`, up to the next permission request. */
const progressOf = (lines: readonly AgentLine[], from: number, toolCallId: unknown) => {
  const next = lines.findIndex((l, i) => i > from && l.body?.method === "session/request_permission");
  return lines
    .slice(from, next === -1 ? undefined : next)
    .filter((l) => updateKind(l) === "tool_call_update" && (l.body?.params as { update: { toolCallId?: unknown } }).update.toolCallId === toolCallId)
    .map((l) => ({ l, status: String((l.body?.params as { update: { status?: unknown } }).update.status) }));
};

/** Judges one row on the permission answered `how`: the tool call may not go on (`mustStop`) or must run (allow). */
function judgePermission(run: Run, id: string, answered: readonly Answered[], how: Answered["how"], what: string): void {
  const { d, card } = run;
  const a = answered.find((x) => x.how === how);
  if (a === undefined) return card.score(id, na(`the agent asked fewer permissions than the exercise turn requests (${answered.length}): none was answered with ${what}`));
  const toolCallId = toolOf(a.line);
  if (toolCallId === undefined || toolCallId === null) return card.score(id, na(`the permission check's client answered with ${what} names no tool call to follow: ${quote(d, a.line)}`));
  const from = d.lines.indexOf(a.line);
  const progress = progressOf(d.lines, from, toolCallId);
  if (how === "allow") return card.score(id, progress.some((p) => p.status === "in_progress") ? pass : fail(`check's client allowed ${quote(d, a.line)}, and tool call ${JSON.stringify(toolCallId)} was never reported in_progress after it`));
  const went = progress.find((p) => p.status === "in_progress" || p.status === "completed");
  card.score(id, went === undefined ? pass : fail(`check's client answered ${quote(d, a.line)} with ${what}, and the agent went on with the tool call: ${quote(d, went.l)}`));
}

/** Runs the deeper v2 probes on the session `sid`, whose "hello" turn was `hello` (its answer and the live updates). */
export async function v2DepthProbes(run: Run, init: Obj, sid: string, hello: { readonly stop: unknown; readonly live: readonly Obj[] } | undefined): Promise<void> {
  const { d, card } = run;
  const caps = isObj(init.capabilities) ? init.capabilities : {};
  const session = isObj(caps.session) ? caps.session : {};
  const promptCaps = isObj(session.prompt) ? session.prompt : {};

  await step(run, "v2 prompt content", ["ACP-INIT-310", "ACP-PROMPT-321"], async () => {
    const link = await d.request("session/prompt", { sessionId: sid, prompt: [{ type: "resource_link", uri: "file:///README.md", name: "README.md" }] });
    const said = exchange(d, d.sentLine(d.lastRequestId), d.answerTo(d.lastRequestId));
    card.score("ACP-INIT-310", link === undefined ? silent(run, "ACP-INIT-310") : link.result !== undefined ? pass : errorCode(link) === ErrorCode.InvalidParams ? fail(`${said}: a resource_link prompt refused`) : na(`${said}: an error that is not about the content`));
    await d.waitFor((l) => updateFor(sid)(l) && isIdle(l), d.timeout, d.lines.length);
    if (promptCaps.image === true) return card.score("ACP-PROMPT-321", na("the agent advertises image prompts: no unsupported content block to send"));
    const image = await d.request("session/prompt", { sessionId: sid, prompt: [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }] });
    const shown = exchange(d, d.sentLine(d.lastRequestId), d.answerTo(d.lastRequestId));
    card.score(
      "ACP-PROMPT-321",
      image === undefined
        ? silent(run, "ACP-PROMPT-321")
        : image.result !== undefined
          ? na(`${shown}: accepted, so the agent supports it (not advertising a capability is no evidence against support)`)
          : errorCode(image) === ErrorCode.InvalidParams
            ? pass
            : fail(`${shown}: an image block the agent did not advertise refused with another code than -32602`),
    );
    await d.waitFor((l) => updateFor(sid)(l) && isIdle(l), d.timeout, d.lines.length);
  });

  const answered: Answered[] = [];
  await step(run, "v2 exercise turns", ["ACP-TOOL-301", "ACP-TOOL-303", "ACP-PERM-301", "ACP-PERM-302", "ACP-PERM-303", "ACP-PROMPT-306", "ACP-PROMPT-307", "ACP-PROMPT-309"], async () => {
    const previous = d.answerer;
    d.answerer = permissionAnswerer(run, answered);
    const from = d.lines.length;
    for (const t of EXERCISES_V2) {
      const at = d.lines.length;
      const ack = await d.request("session/prompt", text(sid, t));
      if (ack?.result !== undefined) await d.waitFor((l) => updateFor(sid)(l) && isIdle(l), d.timeout, at);
    }
    d.answerer = previous;
    const lines = d.lines.slice(from);
    card.score("ACP-TOOL-301", lines.some((l) => updateKind(l) === "tool_call_update") ? pass : na("the agent reported no tool call in answer to the exercise prompts"));
    judgePermission(run, "ACP-TOOL-303", answered, "allow", "an allow option");
    judgePermission(run, "ACP-PERM-301", answered, "unknown outcome", "a custom outcome (_acp-router.check/undecided) the agent cannot know");
    judgePermission(run, "ACP-PERM-303", answered, "unknown option", "an optionId it never offered");
    judgePermission(run, "ACP-PERM-302", answered, "cancel", "the cancelled outcome, after session/cancel");
    judgeWaitStates(run, answered);
    // An error answer to a prompt whose user message the agent had already reported inserted.
    const errored = d.lines.filter((l) => l.body?.method === undefined && l.body?.error !== undefined && d.sent.get(l.body?.id as number) === "session/prompt");
    const inserted = errored.find((l) => {
      const sent = d.sentLine(l.body?.id as number);
      return sent !== undefined && d.lines.some((u) => u.index > sent.index && u.index < l.index && updateFor(sid)(u) && /^user_message/.test(updateKind(u)));
    });
    card.score(
      "ACP-PROMPT-309",
      inserted === undefined
        ? errored.length === 0
          ? pass
          : na("the prompts answered with an error came before any user message was reported inserted")
        : fail(`the agent reported the user message inserted, then answered session/prompt with an error: ${exchange(d, d.sentLine(inserted.body?.id as number), inserted)}`),
    );
  });

  await sessionMethods(run, sid, session);
  await resumeProbes(run, sid, hello);
  await configProbes(run, sid);
}

/** ACP-PROMPT-306/307: while a permission is pending the foreground state is requires_action, and the next state after it is running or idle. */
function judgeWaitStates(run: Run, answered: readonly Answered[]): void {
  const { d, card } = run;
  if (answered.length === 0) return card.all(["ACP-PROMPT-306", "ACP-PROMPT-307"], na("the agent asked no permission"));
  const sid = (answered[0]!.line.body?.params as { sessionId?: unknown }).sessionId;
  const states = d.lines.filter((l) => updateFor(String(sid))(l) && stateOf(l) !== undefined);
  const waiting = answered.filter((a) => {
    const at = d.lines.indexOf(a.line);
    const before = states.filter((s) => d.lines.indexOf(s) < at).at(-1);
    const after = states.find((s) => d.lines.indexOf(s) > at);
    return stateOf(before ?? a.line) === "requires_action" || stateOf(after ?? a.line) === "requires_action";
  });
  card.score("ACP-PROMPT-306", waiting.length > 0 ? pass : fail(`the agent asked ${answered.length} permission(s), the first ${quote(d, answered[0]!.line)}, and reported no requires_action state around any of them`));
  const blocked = states.filter((s) => stateOf(s) === "requires_action");
  if (blocked.length === 0) return card.score("ACP-PROMPT-307", na("the agent never reported requires_action"));
  const stuck = blocked.find((s) => {
    const next = states.find((x) => d.lines.indexOf(x) > d.lines.indexOf(s));
    return next === undefined;
  });
  card.score("ACP-PROMPT-307", stuck === undefined ? pass : fail(`after ${quote(d, stuck)} the agent reported neither running nor idle again`));
}

/** session/list, session/close and session/delete of sessions that never existed, unique session ids, the baseline methods supported. */
async function sessionMethods(run: Run, sid: string, session: Obj): Promise<void> {
  const { d, card } = run;
  await step(run, "v2 session methods", ["ACP-LIST-301", "ACP-LIST-302", "ACP-LIST-306", "ACP-SESSION-313", "ACP-SESSION-303", "ACP-SESSION-304", "ACP-SESSION-319", "ACP-SESSION-325", "ACP-DELETE-302"], async () => {
    const other = await d.request("session/new", { cwd: run.options.cwd, mcpServers: [] });
    const otherId = (other?.result as { sessionId?: unknown } | undefined)?.sessionId;
    card.score(
      "ACP-SESSION-303",
      typeof otherId !== "string"
        ? na(`a second session/new was answered ${exchange(d, d.sentLine(d.lastRequestId), d.answerTo(d.lastRequestId))}`)
        : otherId !== sid
          ? pass
          : fail(`two session/new requests were answered with the same sessionId ${JSON.stringify(sid)}: ${exchange(d, d.sentLine(d.lastRequestId), d.answerTo(d.lastRequestId))}`),
    );
    const list = await d.request("session/list", {});
    const listed = isObj(list?.result) && Array.isArray(list.result.sessions) ? list.result.sessions.filter(isObj) : undefined;
    const said = () => exchange(d, d.sentLine(d.lastRequestId), d.answerTo(d.lastRequestId));
    card.score("ACP-LIST-301", list === undefined ? silent(run, "ACP-LIST-301") : listed !== undefined ? pass : fail(`${said()}: no sessions array`));
    const relative = listed?.find((s) => typeof s.cwd !== "string" || !s.cwd.startsWith("/"));
    card.score("ACP-SESSION-313", listed === undefined || listed.length === 0 ? na("session/list listed no session") : relative === undefined ? pass : fail(`${said()}: a session whose cwd is not absolute`));
    const nowhere = await d.request("session/list", { cwd: "/acp-router-check/no-session-here" });
    const found = isObj(nowhere?.result) && Array.isArray(nowhere.result.sessions) ? nowhere.result.sessions : undefined;
    card.score("ACP-LIST-302", nowhere === undefined ? silent(run, "ACP-LIST-302") : found?.length === 0 ? pass : nowhere.error !== undefined ? na(`${said()}: an error, so no list to judge`) : fail(`${said()}: not an empty sessions array for a cwd no session uses`));
    const cursor = await d.request("session/list", { cursor: "acp-router-check: not a cursor this agent issued" });
    card.score("ACP-LIST-306", cursor === undefined ? silent(run, "ACP-LIST-306") : cursor.error !== undefined ? pass : fail(`${said()}: a page, not an error, for a cursor the agent never issued`));
    const closed = await d.request("session/close", { sessionId: "acp-router-check-never-existed" });
    card.score("ACP-SESSION-325", closed === undefined ? silent(run, "ACP-SESSION-325") : closed.result !== undefined || errorCode(closed) === -32002 ? pass : fail(`${said()}: closing a session that never existed is neither a success nor -32002`));
    // An MCP transport the agent does not advertise: refused -32602 if refused at all (accepting it shows the agent supports it).
    const mcp = isObj(session.mcp) ? session.mcp : {};
    if (mcp.http === true) card.score("ACP-SESSION-319", na("the agent advertises HTTP MCP servers: no unsupported transport to send"));
    else {
      const http = await d.request("session/new", { cwd: run.options.cwd, mcpServers: [{ type: "http", name: "acp-router-check", url: "http://127.0.0.1:9/mcp", headers: [] }] });
      card.score(
        "ACP-SESSION-319",
        http === undefined
          ? silent(run, "ACP-SESSION-319")
          : http.result !== undefined
            ? na(`${said()}: accepted, so the agent supports HTTP servers (not advertising a capability is no evidence against support)`)
            : errorCode(http) === ErrorCode.InvalidParams
              ? pass
              : fail(`${said()}: an MCP transport the agent did not advertise refused with another code than -32602`),
      );
    }
    const missing = [list, closed].filter((a) => errorCode(a) === ErrorCode.MethodNotFound);
    card.score("ACP-SESSION-304", missing.length === 0 ? pass : fail(`the agent advertises capabilities.session, yet answered ${describeError(missing[0])} for a baseline session method`));
    if (!isObj(session.delete)) return card.score("ACP-DELETE-302", na("session.delete is not advertised"));
    const gone = await d.request("session/delete", { sessionId: "acp-router-check-never-existed" });
    card.score("ACP-DELETE-302", gone === undefined ? silent(run, "ACP-DELETE-302") : gone.error === undefined ? pass : fail(`${said()}: deleting a session that never existed is not a silent success`));
  });
}

/** session/resume without replayFrom, with {"type":"start"}, and with a cursor no agent knows. */
async function resumeProbes(run: Run, sid: string, hello: { readonly stop: unknown; readonly live: readonly Obj[] } | undefined): Promise<void> {
  const { d, card } = run;
  const cwd = run.options.cwd;
  await step(run, "v2 session/resume", ["ACP-SESSION-306", "ACP-SESSION-307", "ACP-SESSION-308", "ACP-SESSION-309", "ACP-SESSION-310"], async () => {
    const before = (at: number) => {
      const answer = d.answerTo(d.lastRequestId);
      const end = answer === undefined ? d.lines.length : d.lines.indexOf(answer);
      return d.lines.slice(at, end).filter(updateFor(sid));
    };
    let at = d.lines.length;
    const plain = await d.request("session/resume", { sessionId: sid, cwd, mcpServers: [] });
    const said = () => exchange(d, d.sentLine(d.lastRequestId), d.answerTo(d.lastRequestId));
    if (plain === undefined) return card.score("ACP-SESSION-306", silent(run, "ACP-SESSION-306"));
    if (plain.error !== undefined) return card.all(["ACP-SESSION-306", "ACP-SESSION-307", "ACP-SESSION-308", "ACP-SESSION-309", "ACP-SESSION-310"], na(`${said()}: the session was not resumed`));
    const history = before(at).filter(isConversation);
    card.score("ACP-SESSION-306", history.length === 0 ? pass : fail(`${said()}, and before that answer, without replayFrom, came conversation: ${quote(d, history[0]!)}`));
    at = d.lines.length;
    const start = await d.request("session/resume", { sessionId: sid, cwd, mcpServers: [], replayFrom: { type: "start" } });
    if (start === undefined) return card.score("ACP-SESSION-307", silent(run, "ACP-SESSION-307"));
    if (start.error !== undefined) card.all(["ACP-SESSION-307", "ACP-SESSION-308", "ACP-SESSION-309"], fail(`${said()}: replayFrom {"type":"start"} refused`));
    else {
      const replay = before(at);
      const replayed = replay.map((l) => (l.body?.params as { update: Obj }).update);
      card.score("ACP-SESSION-307", judgeReplay(hello, replayed, said()));
      const messages = replayed.filter((u) => /message/.test(String(u.sessionUpdate)));
      const ids = messages.map((u) => u.messageId);
      card.score(
        "ACP-SESSION-308",
        messages.length === 0
          ? na("nothing replayed carries a message")
          : ids.every((x) => typeof x === "string") && new Set(ids).size === new Set(messages.map((u) => `${String(u.messageId)}|${String(u.sessionUpdate).replace(/_chunk$/, "")}`)).size
            ? pass
            : fail(`${said()}: a replayed message without a messageId, or two messages sharing one (${JSON.stringify(ids)})`),
      );
      const lastState = replay.filter((l) => stateOf(l) !== undefined).at(-1);
      card.score("ACP-SESSION-309", lastState !== undefined ? pass : fail(`${said()}: no state_update came after the replay and before the answer`));
    }
    const odd = await d.request("session/resume", { sessionId: sid, cwd, mcpServers: [], replayFrom: { type: "_acp-router.check/no-such-cursor" } });
    card.score("ACP-SESSION-310", odd === undefined ? silent(run, "ACP-SESSION-310") : errorCode(odd) === ErrorCode.InvalidParams ? pass : fail(`${said()}: a cursor type the agent cannot support is not refused -32602`));
  });
}

/** ACP-SESSION-307, judged like session/load's replay: only against a live turn that ended normally with the agent's own text. */
function judgeReplay(hello: { readonly stop: unknown; readonly live: readonly Obj[] } | undefined, replayed: readonly Obj[], said: string): Verdict {
  const what = `session/resume with replayFrom {"type":"start"} replayed ${replayed.length} update(s) (${kindsOf(replayed)})`;
  if (hello === undefined) return na(`no live turn to compare with (${what})`);
  const liveAgent = textOf(hello.live, "agent_message_chunk") + textOf(hello.live, "agent_message");
  if (hello.stop !== "end_turn") return na(`the live turn ended with stopReason ${JSON.stringify(hello.stop)}, not end_turn: no conversation the agent produced to judge against (${what})`);
  if (liveAgent.trim() === "") return na(`the live turn produced no agent text: nothing of the agent's to judge against (${what})`);
  if (NOTICE.test(liveAgent)) return na(`the live turn's only agent text reads as a notice, not conversation: ${JSON.stringify(liveAgent.slice(0, 300))} (${what})`);
  const user = textOf(replayed, "user_message_chunk") + textOf(replayed, "user_message");
  const agent = textOf(replayed, "agent_message_chunk") + textOf(replayed, "agent_message");
  return user.includes("hello") && agent.includes(liveAgent) ? pass : fail(`${said}: ${what}, with user text ${JSON.stringify(user.slice(0, 200))} and agent text ${JSON.stringify(agent.slice(0, 200))}; live, the agent said ${JSON.stringify(liveAgent.slice(0, 300))}`);
}

/** session/set_config_option with a value the agent offered and with one it did not. */
async function configProbes(run: Run, sid: string): Promise<void> {
  const { d, card } = run;
  await step(run, "v2 config options", ["ACP-CONFIG-302", "ACP-CONFIG-303", "ACP-CONFIG-304"], async () => {
    const offered = d.lines.filter((l) => isObj(l.body?.result) && Array.isArray((l.body.result as Obj).configOptions)).at(-1);
    const options = offered === undefined ? [] : ((offered.body?.result as Obj).configOptions as unknown[]).filter(isObj);
    const select = options.find((o) => o.type === "select" && Array.isArray(o.options) && o.options.some((x) => isObj(x) && x.value !== o.currentValue));
    if (select === undefined) return card.all(["ACP-CONFIG-302", "ACP-CONFIG-303", "ACP-CONFIG-304"], na("the agent offered no select option with a second value"));
    const value = (select.options as Obj[]).find((x) => isObj(x) && x.value !== select.currentValue)!.value;
    // A v2 value names its option's type (SetSessionConfigOptionRequest's discriminator).
    const set = await d.request("session/set_config_option", { sessionId: sid, configId: select.configId, type: select.type, value });
    const said = () => exchange(d, d.sentLine(d.lastRequestId), d.answerTo(d.lastRequestId));
    if (set === undefined) return card.score("ACP-CONFIG-303", silent(run, "ACP-CONFIG-303"));
    card.score("ACP-CONFIG-303", errorCode(set) === ErrorCode.MethodNotFound ? fail(`the agent offers config options, yet ${said()}`) : pass);
    const after = isObj(set.result) && Array.isArray(set.result.configOptions) ? set.result.configOptions.filter(isObj) : undefined;
    card.score(
      "ACP-CONFIG-302",
      set.error !== undefined
        ? na(`${said()}: an error, so no list to judge`)
        : after !== undefined && options.every((o) => after.some((x) => x.configId === o.configId)) && after.find((x) => x.configId === select.configId)?.currentValue === value
          ? pass
          : fail(`${said()}: not the complete list with the new value`),
    );
    const bad = await d.request("session/set_config_option", { sessionId: sid, configId: select.configId, type: select.type, value: "acp-router-check-no-such-value" });
    card.score("ACP-CONFIG-304", bad === undefined ? silent(run, "ACP-CONFIG-304") : errorCode(bad) === ErrorCode.InvalidParams ? pass : fail(`${said()}: a value the option does not offer is not refused -32602`));
  });
}
