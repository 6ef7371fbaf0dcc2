/**
 * The session lifecycle probes of check's deeper v1 run, each only when the
 * agent advertises it: session/load (the conversation replayed before the
 * answer, judged against conversation the agent produced), session/resume
 * (nothing replayed), session/close on a running turn (it ends cancelled),
 * session/list (absolute cwds, a filter matching nothing, a bad cursor) and
 * session/delete of a session that never existed (a silent success).
 */
import { isAbsolute, join } from "node:path";
import { tmpdir } from "node:os";
import { answerOf, describeError, exchange, isConversation, quote, type Run, show, silent, step, updateFor, updateKind } from "./kit.ts";
import { fail, na, pass, passNoted, type Verdict } from "./score.ts";
import { isObj, updatesOf, type Obj } from "./depth-kit.ts";

/**
 * Text that reads as a notice the agent wrote instead of working (no credentials, no connection): not conversation
 * the agent produced, so not what ACP-LOAD-102 asks to replay.
 */
export const NOTICE = /\b(authenticat\w*|log ?in|sign ?in|api key|credentials?|unauthori[sz]ed|unable to connect|cannot connect|network)\b/i;

/** The text of the updates of one kind, joined. */
export const textOf = (us: readonly Obj[], kind: string) =>
  us
    .filter((u) => u.sessionUpdate === kind)
    .flatMap((u) => (Array.isArray(u.content) ? u.content : [u.content]))
    .map((c) => (isObj(c) && typeof c.text === "string" ? c.text : ""))
    .join("");

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

/** The lifecycle probes on the session `sid` of the main run and fresh ones. */
export async function sessionLifecycleDepth(run: Run, init: Obj, sessionCaps: Obj, sid: string): Promise<void> {
  const { d, card } = run;
  const cwd = run.options.cwd;
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
    const live = updatesOf(d.lines.slice(liveFrom))
      .filter((u) => u.sessionId === id)
      .map((u) => u.update);
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
    card.score(
      "ACP-LOAD-102",
      judgeReplay(
        hello,
        live,
        updatesOf(replay).map((u) => u.update),
        promptExchange,
      ),
    );
  });

  await step(run, "session/resume", ["ACP-RESUME-002"], async () => {
    if (!isObj(sessionCaps.resume)) return card.score("ACP-RESUME-002", na("sessionCapabilities.resume is not advertised"));
    const at = d.lines.length;
    const resumed = await d.request("session/resume", { sessionId: sid, cwd, mcpServers: [] });
    if (resumed === undefined) return card.score("ACP-RESUME-002", silent(run, "ACP-RESUME-002"));
    if (resumed.error !== undefined) return card.score("ACP-RESUME-002", na(`session/resume was answered ${describeError(resumed)}`));
    const before = d.lines
      .slice(at)
      .filter(updateFor(sid!))
      .filter((l) => d.lines.indexOf(l) < d.lines.indexOf(d.answerTo(d.lastRequestId)!));
    const history = before.filter(isConversation);
    card.score("ACP-RESUME-002", history.length === 0 ? pass : fail(`session/resume replayed history before answering: ${quote(d, history[0]!)}`));
  });

  await step(run, "session/close", ["ACP-CLOSE-002"], async () => {
    if (!isObj(sessionCaps.close)) return card.score("ACP-CLOSE-002", na("sessionCapabilities.close is not advertised"));
    // As for session/cancel: a turn of an agent whose prompts are all refused (offline, unauthenticated) fails on its
    // own, so how a closed one is answered shows nothing about the close.
    if (run.turnSession === undefined) return card.score("ACP-CLOSE-002", na("no prompt was answered with a result, so a turn ended by session/close could not be told from one failing on its own"));
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
    const closing = d.request("session/close", { sessionId: id });
    const closeId = d.lastRequestId;
    const closed = await closing;
    const answer = await turn;
    if (closed === undefined) return card.score("ACP-CLOSE-002", silent(run, "ACP-CLOSE-002"));
    // The lines that show it: the turn's prompt and the update that showed it running, the close and its answer.
    const shown = `check sent ${quote(d, d.sentLine(promptId)!)}; the agent sent ${quote(d, first)} for that session with the prompt still unanswered; ${exchange(d, d.sentLine(closeId), d.answerTo(closeId))}`;
    if (closed.error !== undefined) return card.score("ACP-CLOSE-002", fail(`${shown}: session/close of a session with a running turn was refused`));
    const judge = (a: Obj, note = ""): Verdict =>
      (a.result as { stopReason?: unknown } | undefined)?.stopReason === "cancelled"
        ? note === ""
          ? pass
          : passNoted(note)
        : fail(`${shown}; the running turn was then answered ${d.answerTo(promptId) !== undefined ? quote(d, d.answerTo(promptId)!) : show(a)}, not stopReason "cancelled" (as session/cancel would have ended it)${note === "" ? "" : ` (${note})`}`);
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
