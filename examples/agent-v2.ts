/**
 * The example agent in ACP protocol version 2 (`acp-router/v2`), served by
 * `agent.ts` beside the v1 agent through the version router. A v2 prompt is
 * answered at once with the id of the inserted user message; the turn then
 * reports that message (a `user_message` update with the same `messageId`,
 * as the v2 prompt-lifecycle page requires), streams its updates and ends
 * with an idle `state_update` carrying the stop reason. `session/cancel` aborts the running turn (its `ctx.signal` stays
 * live after the answer until that `state_update`).
 *
 * Prompts it understands: any text is echoed back in chunks; `slow` counts
 * for ten seconds (cancel it); `plan` shows a three-step plan. v2 has no fs
 * or terminal methods and no modes, so `read` is not offered here.
 */
import { randomUUID } from "node:crypto";
import { RpcError, type AgentContext, type AgentHandler, type ContentBlock, type PlanEntry, type SessionInfo, type SessionUpdate } from "../src/v2/index.ts";
import { sleep } from "./agent-turns.ts";

interface Session {
  readonly id: string;
  readonly cwd: string;
  title: string | undefined;
  updatedAt: string;
  /** Aborts the running turn (used by `session/close`); undefined when idle. */
  turn: AbortController | undefined;
  /** Settles once the running turn sent its idle `state_update` (what `session/close` waits for). */
  ended: Promise<void> | undefined;
  /** The conversation as the client saw it live (the user messages and the turns' updates, no state_update): what `replayFrom: {type: "start"}` replays. */
  readonly history: SessionUpdate[];
}

/** The stop reasons this agent reports in its idle `state_update`. */
type StopReason = "end_turn" | "cancelled";

/** Creates the v2 example agent's handler, with its own in-memory sessions. */
export function createExampleAgentV2(): AgentHandler {
  const sessions = new Map<string, Session>();
  let messages = 0;
  const get = (sessionId: string): Session => {
    const session = sessions.get(sessionId);
    if (!session) throw RpcError.resourceNotFound(`session:${sessionId}`);
    return session;
  };

  return {
    initialize: () => ({
      protocolVersion: 2,
      info: { name: "acp-router-example-agent", title: "acp-router example agent", version: "0.1.0" },
      capabilities: { session: {} },
    }),

    newSession(params) {
      const session: Session = { id: randomUUID(), cwd: params.cwd, title: undefined, updatedAt: new Date().toISOString(), turn: undefined, ended: undefined, history: [] };
      sessions.set(session.id, session);
      return { sessionId: session.id };
    },

    listSessions(params): { sessions: SessionInfo[] } {
      if (params.cursor != null) throw RpcError.invalidParams({ cursor: params.cursor, reason: "this agent lists every session in one page and issues no cursor" });
      const found = [...sessions.values()].filter((s) => params.cwd == null || s.cwd === params.cwd);
      return { sessions: found.map((s) => ({ sessionId: s.id, cwd: s.cwd, title: s.title ?? null, updatedAt: s.updatedAt })) };
    },

    // Without replayFrom the current state is the whole snapshot; with `{type: "start"}` the whole
    // conversation (the echoed user messages included, as sent live) is replayed first, before the answer.
    async resumeSession(params, ctx) {
      const session = get(params.sessionId);
      const from = params.replayFrom;
      if (from != null && from.type !== "start") throw RpcError.invalidParams({ replayFrom: from, reason: 'this agent replays only from {"type": "start"}' });
      if (from != null) for (const update of session.history) await ctx.peer.sessionUpdate({ sessionId: session.id, update });
      await ctx.peer.sessionUpdate({ sessionId: session.id, update: { sessionUpdate: "state_update", state: session.turn ? "running" : "idle" } });
      return {};
    },

    setSessionConfigOption(params) {
      throw RpcError.invalidParams({ configId: params.configId, reason: "this agent has no config options" });
    },

    // No tool call or terminal of this agent advertises capabilities.cancel, so these never arrive from a conforming client.
    cancelToolCall(params) {
      throw RpcError.resourceNotFound(`tool call ${params.toolCallId}`);
    },
    cancelTerminal(params) {
      throw RpcError.resourceNotFound(`terminal ${params.terminalId}`);
    },

    // Stops the running turn and waits for its idle update, so nothing about the session follows the answer; then forgets it.
    async closeSession(params) {
      const session = get(params.sessionId);
      session.turn?.abort();
      await session.ended;
      sessions.delete(params.sessionId);
      return {};
    },

    // The acknowledgement goes out first; the turn runs after it and ends with an idle state_update.
    prompt(params, ctx) {
      const session = get(params.sessionId);
      if (session.turn) throw RpcError.invalidRequest("a prompt is already running in this session");
      const turn = new AbortController();
      session.turn = turn;
      const text = promptText(params.prompt);
      session.title ??= text.trim().slice(0, 60) || undefined;
      const messageId = `user-${++messages}`;
      const user: SessionUpdate = { sessionUpdate: "user_message", messageId, content: params.prompt };
      session.ended = new Promise((resolve) => setImmediate(() => void runTurn(session, user, text, AbortSignal.any([ctx.signal, turn.signal]), ctx, `agent-${messages}`).then(resolve)));
      return { messageId };
    },
  };
}

/** Runs one turn: reports the inserted user message (`user`), then the work, and its end as an idle `state_update`, whatever happened. */
async function runTurn(session: Session, user: SessionUpdate, text: string, signal: AbortSignal, ctx: AgentContext, messageId: string): Promise<void> {
  const send = (update: SessionUpdate) => {
    session.updatedAt = new Date().toISOString();
    if (update.sessionUpdate !== "state_update") session.history.push(update);
    return ctx.peer.sessionUpdate({ sessionId: session.id, update });
  };
  const say = async (words: string, delayMs = 20): Promise<boolean> => {
    for (const [i, piece] of words.split(/(?<=\s)/).entries()) {
      if (i > 0 && !(await sleep(delayMs, signal))) return false;
      await send({ sessionUpdate: "agent_message_chunk", messageId, content: { type: "text", text: piece } });
    }
    return !signal.aborted;
  };
  let stopReason: StopReason = "cancelled";
  try {
    await send(user);
    await send({ sessionUpdate: "state_update", state: "running" });
    const trimmed = text.trim();
    if (trimmed.startsWith("slow")) stopReason = (await slow(say, signal)) ? "end_turn" : "cancelled";
    else if (trimmed.startsWith("plan")) stopReason = (await plan(send, say, signal)) ? "end_turn" : "cancelled";
    else stopReason = (await say(`You said (v2): ${text}\n`)) ? "end_turn" : "cancelled";
  } catch (error) {
    if (!signal.aborted) process.stderr.write(`[example-agent] v2 turn failed: ${error instanceof Error ? error.message : String(error)}\n`);
  } finally {
    session.turn = undefined;
    // Sent even after a cancel (unless the connection is gone): it is what ends the turn for the client.
    await send({ sessionUpdate: "state_update", state: "idle", stopReason: signal.aborted ? "cancelled" : stopReason }).catch(() => {});
  }
}

/** Ten seconds of counting, one chunk every 100 ms; false once cancelled. */
async function slow(say: (text: string, delayMs?: number) => Promise<boolean>, signal: AbortSignal): Promise<boolean> {
  if (!(await say("Counting slowly:"))) return false;
  for (let i = 1; i <= 100; i++) {
    if (!(await sleep(100, signal))) return false;
    if (!(await say(` ${i}`))) return false;
  }
  return say("\nDone counting.\n");
}

/** A three-step plan whose entries go pending → in_progress → completed; false once cancelled. */
async function plan(send: (u: SessionUpdate) => Promise<void>, say: (text: string) => Promise<boolean>, signal: AbortSignal): Promise<boolean> {
  const entries: PlanEntry[] = [
    { content: "Understand the request", priority: "high", status: "pending" },
    { content: "Sketch the change", priority: "medium", status: "pending" },
    { content: "Report back", priority: "low", status: "pending" },
  ];
  const sendPlan = () => send({ sessionUpdate: "plan_update", plan: { type: "items", planId: "plan-1", entries: entries.map((e) => ({ ...e })) } });
  await sendPlan();
  for (const entry of entries) {
    entry.status = "in_progress";
    await sendPlan();
    if (!(await sleep(150, signal))) return false;
    entry.status = "completed";
    await sendPlan();
  }
  return say("All three steps of the plan are done.\n");
}

/** The prompt's text blocks joined; other blocks are named. */
function promptText(blocks: readonly ContentBlock[]): string {
  return blocks.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("");
}
