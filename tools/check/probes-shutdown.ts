/**
 * The end of a `check` run: check closes the agent's stdin, as the
 * lifecycle diagram has a client end a stdio connection, and waits the
 * grace period (`--exit-grace`, default 5 s) for the agent to exit before ending
 * its process group. On v1 it first leaves a turn pending (ACP-CANCEL-109): when the
 * session probes found a session whose prompt is answered with a result,
 * check sends one more prompt, waits until it is shown running (a
 * session/update) or for the timeout, and closes stdin with it unanswered.
 * The client hanging up cancels that turn inside the agent ("internal
 * cancellation"); the spec asks the same answer as for `$/cancel_request`:
 * -32800, or the method's cancellation result (stopReason "cancelled").
 * An agent that exits without answering fails the row (a SHOULD); one that
 * answers the turn otherwise, or is still running it when the grace period
 * ends, shows no internal cancellation, so the row is n/a with what it did.
 * ACP-SHUTDOWN-001 (the agent exits promptly) has no normative keyword: a
 * lingering agent is noted, never failed (score.ts).
 */
import { deathReason, describeError, errorCode, quoteText, type Run, seconds, show, updateFor, quote } from "./kit.ts";
import { fail, na, notRun, pass } from "./score.ts";
import { ErrorCode } from "../../src/errors.ts";

/** The id of the prompt left pending at shutdown: a string, so it never meets a counter's id. */
const PENDING_ID = '"acp-router-check-shutdown-turn"';
const CANCEL_ROW = "ACP-CANCEL-109";

/** Sends the prompt left pending when stdin closes; resolves with why it cannot be judged, or with what was seen before the close. */
async function leavePending(run: Run): Promise<string | { readonly shown: string }> {
  const { d } = run;
  const sessionId = run.turnSession;
  if (sessionId === undefined) return "no session whose prompt was answered with a result, so no turn to leave pending";
  const id = JSON.parse(PENDING_ID) as string;
  const first = await d.requestRaw(PENDING_ID, "session/prompt", { sessionId, prompt: [{ type: "text", text: "slow" }] }, (l) => updateFor(sessionId)(l) || (l.body?.id === id && l.body.method === undefined), d.timeout);
  if (first !== undefined && first.body?.method === undefined) return `the prompt was answered before check closed stdin: ${show(first.body)}`;
  return { shown: first === undefined ? `no session/update within ${seconds(d.timeout)}` : `a session/update showed it running: ${quote(d, first)}` };
}

/** Closes the agent's stdin (after leaving a turn pending, on v1) and judges what happened. */
export async function shutdown(run: Run): Promise<void> {
  const { d, card } = run;
  const v1 = run.card.checklist.version === 1;
  const row = v1 ? "ACP-SHUTDOWN-001" : undefined;
  if (d.death !== undefined) {
    if (row) card.all([row, CANCEL_ROW], notRun(`${deathReason(d)}, before check closed its stdin`));
    card.notes.push(`${deathReason(d)} at ${seconds(d.death.t)}${d.death.probe === "shutdown" ? "" : "; the probes after it did not run"}`);
    await d.close();
    return;
  }
  d.probe = "shutdown";
  const pending = v1 ? await leavePending(run) : undefined;
  if (typeof pending === "string") card.score(CANCEL_ROW, na(pending));
  const end = await d.close();
  if (pending !== undefined && typeof pending !== "string") {
    const id = JSON.parse(PENDING_ID) as string;
    const answer = d.lines.find((l) => l.body?.id === id && l.body.method === undefined);
    const sent = `check sent session/prompt ${PENDING_ID} (${pending.shown}) and closed the agent's stdin with it unanswered`;
    const stop = (answer?.body?.result as { stopReason?: unknown } | undefined)?.stopReason;
    if (answer !== undefined && (errorCode(answer.body) === ErrorCode.RequestCancelled || stop === "cancelled")) card.score(CANCEL_ROW, pass);
    else if (answer !== undefined) card.score(CANCEL_ROW, na(`${sent}; the agent answered it ${answer.body?.error !== undefined ? describeError(answer.body) : `stopReason ${JSON.stringify(stop)}`}: the turn was not cancelled`));
    else if (end.exited)
      card.score(CANCEL_ROW, fail(`${sent}; the agent exited (${end.signal !== null ? `signal ${end.signal}` : `code ${String(end.code)}`}) without answering it. A request cancelled internally (here: by the client hanging up) should get the -32800 answer it would get for $/cancel_request`));
    else card.score(CANCEL_ROW, na(`${sent}; the agent neither answered it nor exited within ${seconds(d.grace)}: no cancellation seen`));
  }
  if (end.exited) {
    if (row) card.score(row, pass);
  } else {
    const note = end.note ?? `did not exit within ${seconds(d.grace)} of stdin closing; terminated`;
    if (row) card.score(row, fail(`${note} (signalled as a process group)`));
    card.notes.push(`the agent ${note}; its process group was ended, so nothing it started is left running`);
  }
}
