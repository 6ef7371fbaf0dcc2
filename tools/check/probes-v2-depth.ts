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
 * - then the session probes (probes-v2-sessions.ts): session/list, close
 *   and delete, session/resume and its replay, config options.
 */
import { errorCode, exchange, quote, silent, step, updateFor, updateKind, type Run } from "./kit.ts";
import { fail, na, pass } from "./score.ts";
import { isObj, type Obj } from "./depth-kit.ts";
import type { AgentLine, ClientAnswer } from "./driver.ts";
import { ErrorCode } from "../../src/errors.ts";
("./probes-session-lifecycle.ts");
import { configProbes, resumeProbes, sessionMethods } from "./probes-v2-sessions.ts";

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
