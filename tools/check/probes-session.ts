/**
 * The v1 probes of `check` that need a session: session/new (with
 * `--auth` first), session/list when advertised, a text and a
 * resource_link prompt, then cancellation judged on a turn shown to be
 * running (a session/update arrived and the prompt is unanswered):
 * session/cancel must end it with stopReason "cancelled" (an `end_turn`
 * is a fail), `$/cancel_request` must still get an answer.
 *
 * Authentication required (session/new → -32000) makes every session row
 * n/a "authentication required (methods: …)"; any other error answer to
 * session/new makes them n/a with that error (-32601 fails ACP-SESSION-101). An error answer to a
 * prompt makes the prompt rows n/a with that error, except -32601 (the
 * method every agent supports is missing: ACP-SESSION-101 fails) and
 * -32602 (the prompt's content was refused: the content rows fail).
 */
import { gate } from "../../src/connection/gate.ts";
import { protocol as v1 } from "../../src/generated/protocol.ts";
import { authenticate, describeMethods, mergeMethods, type AuthMethod } from "./auth.ts";
import { answerOf, describeError, errorCode, quoteText, type Run, seconds, show, silent, step, updateFor } from "./kit.ts";
import { fail, na, pass, passNoted } from "./score.ts";
import { ErrorCode } from "../../src/errors.ts";

const SESSION_ROWS = ["ACP-SESSION-001", "ACP-AUTH-005", "ACP-LIST-103"];
const PROMPT_ROWS = ["ACP-PROMPT-001", "ACP-PROMPT-101", "ACP-SESSION-101", "ACP-PROMPT-003"];
const CANCEL_ROWS = ["ACP-CANCEL-001", "ACP-CANCEL-002", "ACP-CANCEL-101", "ACP-CANCEL-102", "ACP-CANCEL-105"];
/** Every row this file scores. */
export const V1_SESSION_ROWS = [...SESSION_ROWS, ...PROMPT_ROWS, ...CANCEL_ROWS];

const text = (sessionId: string, t: string) => ({ sessionId, prompt: [{ type: "text", text: t }] });
type Body = Record<string, unknown> | undefined;

/** Runs the session probes; `init` is the agent's initialize result. */
export async function sessionProbes(run: Run, init: Record<string, unknown>): Promise<void> {
  const { d, card } = run;
  const caps = init.agentCapabilities;
  let methods: AuthMethod[] = mergeMethods([], undefined);
  methods = mergeMethods(methods, { authMethods: init.authMethods });
  if (run.options.auth !== undefined) {
    const why = await authenticate(run, methods, run.options.auth, "authenticate");
    if (why !== undefined) return card.all(V1_SESSION_ROWS, na(why));
  }

  let sessionId: string | undefined;
  await step(run, "session/new", SESSION_ROWS, async () => {
    const created = await d.request("session/new", { cwd: run.options.cwd, mcpServers: [] });
    if (created === undefined) return card.score("ACP-SESSION-001", silent(run, "ACP-SESSION-001"));
    if (errorCode(created) === ErrorCode.AuthRequired) {
      methods = mergeMethods(methods, (created.error as { data?: unknown }).data);
      const why = `authentication required (methods: ${describeMethods(methods)})${run.options.auth === undefined && methods.length > 0 ? "; --auth METHOD_ID authenticates first" : ""}`;
      card.all([...V1_SESSION_ROWS.filter((id) => id !== "ACP-AUTH-005")], na(why));
      const listed = Array.isArray(init.authMethods) && init.authMethods.length > 0;
      card.score("ACP-AUTH-005", listed ? na("the agent lists authMethods in initialize") : fail(`session/new was answered ${describeError(created)} but initialize listed no authMethods${methods.length > 0 ? ` (the error's data lists ${describeMethods(methods)})` : ""}`));
      return;
    }
    if (created.error !== undefined) {
      // An error is a well-formed answer (the agent's environment, a missing binary): no row about sessions can be judged.
      const why = `session/new was answered ${describeError(created)}`;
      if (errorCode(created) === ErrorCode.MethodNotFound) card.score("ACP-SESSION-101", fail(`${why}: method not found`));
      return card.all(V1_SESSION_ROWS, na(why));
    }
    const id = (created.result as { sessionId?: unknown } | undefined)?.sessionId;
    card.score("ACP-SESSION-001", typeof id === "string" ? pass : fail(`session/new answered ${show(created)}, with no sessionId`));
    card.score("ACP-AUTH-005", pass);
    if (typeof id === "string") sessionId = id;
    else card.all([...PROMPT_ROWS, ...CANCEL_ROWS, "ACP-LIST-103"], na("session/new gave no session"));
  });
  if (sessionId === undefined) return;
  const sid = sessionId;

  await step(run, "session/list", ["ACP-LIST-103"], async () => {
    // The connection's own gate decides, in its words (`agentCapabilities.sessionCapabilities.list was not advertised by the agent`).
    const refusal = gate(v1, { agentCapabilities: caps, clientCapabilities: undefined }, v1.inboundRow("agent", "request", "session/list") ?? { wire: "session/list", capability: undefined }, "agent");
    if (refusal !== undefined) return card.score("ACP-LIST-103", na(refusal.message));
    const list = await d.request("session/list", {});
    if (list === undefined) return card.score("ACP-LIST-103", silent(run, "ACP-LIST-103"));
    card.score("ACP-LIST-103", Array.isArray((list.result as { sessions?: unknown } | undefined)?.sessions) ? pass : fail(`session/list answered ${show(list)}`));
  });

  let prompting = true;
  let refused: { answer: Body; ms: number } | undefined;
  await step(run, "prompt", PROMPT_ROWS, async () => {
    const sentAt = d.now();
    const hello = await d.request("session/prompt", text(sid, "hello"));
    if (hello?.error !== undefined) refused = { answer: hello, ms: d.now() - sentAt };
    prompting = judgePrompt(run, hello, ["ACP-PROMPT-001", "ACP-PROMPT-101", "ACP-SESSION-101"], "a text prompt");
    if (hello === undefined) d.notify("session/cancel", { sessionId: sid });
    const link = await d.request("session/prompt", { sessionId: sid, prompt: [{ type: "resource_link", uri: "file:///README.md", name: "README.md" }] });
    judgePrompt(run, link, ["ACP-PROMPT-003"], "a resource_link prompt");
    if (link === undefined) d.notify("session/cancel", { sessionId: sid });
  });
  if (!prompting && refused !== undefined) await compareCancelled(run, sid, refused);
  if (!prompting) return card.all(CANCEL_ROWS, na("no turn to cancel: the text prompt was not answered with a result"));
  run.turnSession = sid;

  await step(run, "session/cancel", ["ACP-CANCEL-001", "ACP-CANCEL-002", "ACP-CANCEL-101", "ACP-CANCEL-102"], async () => {
    const turn = await runningTurn(run, sid);
    if (typeof turn === "string") return card.all(["ACP-CANCEL-001", "ACP-CANCEL-002", "ACP-CANCEL-101", "ACP-CANCEL-102"], na(turn));
    const cancelledAt = d.now();
    d.notify("session/cancel", { sessionId: sid });
    const answer = await turn.answer;
    // A late answer is judged by its stop reason, as an answer in time would be.
    const late = (a: Record<string, unknown>, note: string) => ((a.result as { stopReason?: unknown } | undefined)?.stopReason === "cancelled" ? passNoted(note) : fail(`a running turn cancelled with session/cancel was answered ${show(a)} (${note})`));
    if (answer === undefined) return card.score("ACP-CANCEL-001", silent(run, "ACP-CANCEL-001", turn.id, "a running turn cancelled with session/cancel got no answer", late));
    const after = seconds(d.now() - cancelledAt);
    if (answer.error !== undefined) {
      card.score("ACP-CANCEL-102", fail(`a running turn cancelled with session/cancel was answered ${describeError(answer)} (${after} after the cancel)`));
      card.score("ACP-CANCEL-001", na("the cancelled turn was answered with an error (ACP-CANCEL-102)"));
      return;
    }
    card.score("ACP-CANCEL-102", pass);
    card.score("ACP-CANCEL-002", pass);
    card.score("ACP-CANCEL-101", pass);
    card.notes.push(`ACP-CANCEL-101: a running turn was answered ${Math.round(d.now() - cancelledAt)} ms after session/cancel`);
    const stop = (answer.result as { stopReason?: unknown } | undefined)?.stopReason;
    card.score("ACP-CANCEL-001", stop === "cancelled" ? pass : fail(`a turn shown running (a session/update arrived) was cancelled with session/cancel and answered stopReason ${JSON.stringify(stop)} ${after} later: ${quoteText(d.answerTo(turn.id)?.text ?? "")}`));
  });

  await step(run, "$/cancel_request", ["ACP-CANCEL-105"], async () => {
    const turn = await runningTurn(run, sid);
    if (typeof turn === "string") return card.score("ACP-CANCEL-105", na(turn));
    d.notify("$/cancel_request", { requestId: turn.id });
    const answer = await turn.answer;
    if (answer === undefined) {
      card.score("ACP-CANCEL-105", silent(run, "ACP-CANCEL-105", turn.id, "a running turn cancelled with $/cancel_request got no answer"));
      d.notify("session/cancel", { sessionId: sid });
      return;
    }
    const code = errorCode(answer);
    card.score("ACP-CANCEL-105", answer.result !== undefined || code === ErrorCode.RequestCancelled ? pass : fail(`a running turn cancelled with $/cancel_request was answered ${describeError(answer)}, neither a result nor -32800`));
  });
}

/**
 * When the text prompt is answered with an error, no turn can be shown
 * running; the same prompt is then sent again and cancelled 50 ms later. A
 * cancelled turn answered with a result other than stopReason "cancelled"
 * (the uncancelled one errored, so the turn cannot have completed its work)
 * fails ACP-CANCEL-001; "cancelled" passes it; an error leaves it n/a.
 */
async function compareCancelled(run: Run, sessionId: string, uncancelled: { answer: Body; ms: number }): Promise<void> {
  const { d, card } = run;
  await step(run, "session/cancel (compared)", ["ACP-CANCEL-001"], async () => {
    const answer = d.request("session/prompt", text(sessionId, "hello"));
    const id = d.lastRequestId;
    await new Promise((r) => setTimeout(r, 50));
    const early = d.answerTo(id);
    if (early !== undefined) return card.score("ACP-CANCEL-001", na(`the prompt to cancel was answered within 50 ms (${show(early.body)}), before the cancel`));
    const cancelledAt = d.now();
    d.notify("session/cancel", { sessionId });
    const a = await answer;
    if (a === undefined) return card.score("ACP-CANCEL-001", silent(run, "ACP-CANCEL-001", id, "a prompt cancelled with session/cancel got no answer"));
    const after = `${Math.round(d.now() - cancelledAt)} ms after session/cancel`;
    const before = `the same prompt uncancelled was answered ${describeError(uncancelled.answer)} after ${seconds(uncancelled.ms)}`;
    const stop = (a.result as { stopReason?: unknown } | undefined)?.stopReason;
    if (a.error !== undefined) return card.score("ACP-CANCEL-001", na(`the cancelled prompt was answered ${describeError(a)} ${after}, as the uncancelled one`));
    card.score("ACP-CANCEL-001", stop === "cancelled" ? pass : fail(`a prompt cancelled with session/cancel was answered stopReason ${JSON.stringify(stop)} ${after}; ${before}, so the turn did not complete its work`));
  });
}

/** Scores a prompt's answer on `rows`; true when it was answered with a stopReason. */
function judgePrompt(run: Run, answer: Body, rows: readonly string[], what: string): boolean {
  const { card } = run;
  if (answer === undefined) {
    for (const row of rows) card.score(row, silent(run, row));
    return false;
  }
  if (answer.error !== undefined) {
    const code = errorCode(answer);
    for (const row of rows) {
      if (code === ErrorCode.MethodNotFound && row === "ACP-SESSION-101") card.score(row, fail(`session/prompt was answered ${describeError(answer)}: method not found`));
      else if (code === ErrorCode.InvalidParams && row !== "ACP-SESSION-101" && row !== "ACP-PROMPT-001") card.score(row, fail(`${what} was refused: ${describeError(answer)}`));
      else card.score(row, na(`${what} was answered ${describeError(answer)}`));
    }
    return false;
  }
  const stop = (answer.result as { stopReason?: unknown } | undefined)?.stopReason;
  for (const row of rows) card.score(row, row !== "ACP-PROMPT-001" || typeof stop === "string" ? pass : fail(`session/prompt answered ${show(answer)}, with no stopReason`));
  return typeof stop === "string";
}

/**
 * Starts a long prompt and waits until it is shown to be running (a
 * session/update for the session and no answer yet). Resolves with the
 * pending answer, or with why no running turn could be judged.
 */
async function runningTurn(run: Run, sessionId: string): Promise<{ id: number; answer: Promise<Body> } | string> {
  const { d } = run;
  const from = d.lines.length;
  const answer = d.request("session/prompt", text(sessionId, "slow"));
  const id = d.lastRequestId;
  const first = await d.waitFor((l) => updateFor(sessionId)(l) || answerOf(id)(l), d.timeout, from);
  if (first === undefined) {
    d.notify("session/cancel", { sessionId });
    await answer;
    return d.death !== undefined ? "the agent exited before the turn showed it was running" : `the turn sent no session/update within ${seconds(d.timeout)}: not shown to be running`;
  }
  if (answerOf(id)(first)) return `the turn was answered (${show(first.body)}) before any session/update showed it running`;
  // A fast turn's answer can arrive right behind its first update: if it is
  // here before the cancel is sent, the agent never saw a cancel to honour.
  const ended = d.answerTo(id);
  if (ended !== undefined) return `the turn was answered (${show(ended.body)}) before the cancel could be sent: too fast to judge`;
  return { id, answer };
}
