/**
 * The prompt-turn rules, by the turn model of the table in force:
 * - v1: a turn ends with the `session/prompt` answer; turn content after it
 *   (and before the next prompt) breaks ACP-PROMPT-001, or ACP-CANCEL-002
 *   after a cancelled turn;
 * - v2 (the prompt row has a `turnEnd`): the answer only acknowledges, with
 *   the `messageId` of the inserted user message; the work runs until the
 *   idle `state_update` the row's `turnEnd` names, and updates in between
 *   are the turn's. At that end every acknowledged prompt must have been
 *   echoed by a `user_message` / `user_message_chunk` update carrying its
 *   `messageId`, before or after the answer (ACP-PROMPT-303, rule
 *   `user-message-echo`). After it, message and thought updates are out of
 *   turn (ACP-PROMPT-302: idle means no foreground work); after a cancelled
 *   turn, tool-call and plan updates too (ACP-CANCEL-306). Other updates
 *   after idle are allowed: the v2 prompt-lifecycle page lets background
 *   activity go on while the agent reports idle.
 */
import type { RequestId } from "../../src/context.ts";
import type { Call } from "./calls.ts";
import type { Found } from "./checks.ts";
import type { MonitorState, SessionState } from "./monitor-state.ts";

/** v1 turn content: updates that belong to a prompt turn (not session-level state such as modes, commands or usage). */
const V1_CONTENT: ReadonlySet<string> = new Set(["agent_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update", "plan"]);

/** v2 foreground output, never sent once the agent reported idle. */
const V2_CONTENT: ReadonlySet<string> = new Set(["agent_message", "agent_message_chunk", "agent_thought", "agent_thought_chunk"]);

/** v2 updates that come before the idle state_update reporting a cancellation, never after it. */
const V2_CANCELLED_CONTENT: ReadonlySet<string> = new Set([...V2_CONTENT, "tool_call_update", "tool_call_content_chunk", "plan_update"]);

/** The user-message updates of v2 that echo an accepted prompt. */
const USER_MESSAGE: ReadonlySet<string> = new Set(["user_message", "user_message_chunk"]);

/** A session/prompt request was sent for `s`: a turn starts (v2: or joins the running work). */
export function onPromptSent(s: SessionState, key: RequestId): void {
  s.prompt = key;
  s.turnEnded = false;
}

/** The client sent session/cancel for `s`. */
export function onSessionCancel(s: SessionState): void {
  if (s.prompt !== undefined || s.accepted.length > 0) s.cancelRequested = true;
}

/** A session/prompt was answered: `result` is its result, undefined for an error. v1 ends the turn; v2 accepts the prompt into the running work. */
export function onPromptAnswered(s: SessionState, key: RequestId, call: Call, result: unknown): void {
  if (s.prompt === key) s.prompt = undefined;
  if (call.table.turnEnd === undefined) {
    s.turnEnded = true;
    s.lastTurnCancelled = call.cancelledBySession || call.cancelledByRequest;
    return;
  }
  if (result !== undefined) {
    const messageId = (typeof result === "object" && result !== null ? result : {}) as { messageId?: unknown };
    s.accepted.push({ messageId: typeof messageId.messageId === "string" ? messageId.messageId : undefined, call: `${call.method} #${JSON.stringify(call.id)}` });
  } else if (s.accepted.length === 0 && s.prompt === undefined) {
    // A refused prompt starts no work: the session is where it was before.
    s.turnEnded = true;
    s.lastTurnCancelled = false;
  }
}

/** A session/update from the agent for a known session: the v2 turn end and echo, and turn content out of turn. */
export function onTurnUpdate(state: MonitorState, sessionId: string, s: SessionState, params: Record<string, unknown>, report: Found): void {
  const update = (typeof params.update === "object" && params.update !== null ? params.update : {}) as Record<string, unknown>;
  const kind = update.sessionUpdate;
  if (typeof kind !== "string") return;
  const turnEnd = state.table.turnEnd;
  if (turnEnd !== undefined) {
    if (USER_MESSAGE.has(kind) && typeof update.messageId === "string") s.userMessages.add(update.messageId);
    if (s.accepted.length > 0 && matches(params, turnEnd.match)) {
      endWork(sessionId, s, update, report);
      return;
    }
  }
  const content = turnEnd === undefined ? V1_CONTENT : s.lastTurnCancelled ? V2_CANCELLED_CONTENT : V2_CONTENT;
  if (!content.has(kind) || s.prompt !== undefined || !s.turnEnded || s.loading > 0) return;
  const cancelled = s.lastTurnCancelled ? "cancelled " : "";
  const after = turnEnd === undefined ? `the ${cancelled}turn was answered` : `the idle state_update ended the ${cancelled}turn`;
  const requirement = turnEnd === undefined ? (s.lastTurnCancelled ? "ACP-CANCEL-002" : "ACP-PROMPT-001") : s.lastTurnCancelled ? "ACP-CANCEL-306" : "ACP-PROMPT-302";
  report("update-after-turn", `agent sent a ${kind} update for session ${sessionId} after ${after} and before the next prompt`, "agent", requirement);
}

/** The v2 turn end: every accepted prompt must have been echoed; the session is idle unless another prompt is in flight. */
function endWork(sessionId: string, s: SessionState, update: Record<string, unknown>, report: Found): void {
  for (const a of s.accepted) {
    if (a.messageId === undefined || s.userMessages.has(a.messageId)) continue;
    report("user-message-echo", `agent ended the turn of ${a.call} in session ${sessionId} without a user_message or user_message_chunk update with messageId ${JSON.stringify(a.messageId)}`, "agent");
  }
  s.accepted = [];
  if (s.prompt !== undefined) return;
  s.turnEnded = true;
  s.lastTurnCancelled = s.cancelRequested || update.stopReason === "cancelled";
  s.cancelRequested = false;
  s.userMessages.clear();
}

/** True when every dotted path of `match` (`update.state`) holds its value in `params`. */
export function matches(params: unknown, match: Readonly<Record<string, string>>): boolean {
  for (const [path, value] of Object.entries(match)) {
    let at = params;
    for (const key of path.split(".")) {
      if (typeof at !== "object" || at === null || !Object.prototype.hasOwnProperty.call(at, key)) return false;
      at = (at as Record<string, unknown>)[key];
    }
    if (at !== value) return false;
  }
  return true;
}
