/**
 * The mock agent's ACP v2 handler. A v2 prompt is acknowledged at once with
 * the user message's id, unless the turn cannot run at all (a grammar error,
 * a refused step, or `#error` as the first step): then the prompt itself
 * answers the JSON-RPC error. The turn then reports the user message, runs
 * its steps and ends with an idle `state_update`; an `#error` later in the
 * turn ends it with `stopReason: "error"` carrying that error.
 */
import { methods } from "../../tables/v2.ts";
import { RpcError, type AgentContext, type AgentHandler, type UpdateSessionNotification } from "../../src/v2/index.ts";
import { MOCK_AGENT_INFO, peerMethodsOf, startTurn } from "./agent-v1.ts";
import { preflight } from "./needs.ts";
import { REFUSED_CODE, runSteps, type StepContext, type TurnEnd } from "./run-steps.ts";
import { createSessions, promptText, setConfig, stepsFor, type MockOptions, type MockSession } from "./sessions.ts";
import { mockConfigOptions, type JsonObject } from "./updates.ts";

const peerMethods = peerMethodsOf(methods);

/** The update kinds that are conversation, replayed by session/resume with replayFrom {"type":"start"}. */
const CONVERSATION = new Set(["user_message", "user_message_chunk", "agent_message", "agent_message_chunk", "agent_thought", "agent_thought_chunk", "tool_call_update", "plan_update"]);

/** Creates the v2 handler; list, resume and close are baseline in v2, config options follow `options.advertise`. */
export function createMockAgentV2(options: MockOptions): AgentHandler {
  const { advertise } = options;
  const sessions = createSessions();
  /** Per session, the last turn's end (settles after its idle state_update). */
  const ended = new Map<string, Promise<void>>();
  const config = (s: MockSession) => (advertise.configOptions ? { configOptions: mockConfigOptions(2, s.model, s.verbose) } : {}) as Record<string, never>;
  const send = (ctx: AgentContext, session: MockSession, update: JsonObject, sessionId = session.id) => {
    // The conversation (messages, thoughts, tool calls, plans) is kept for session/resume's replay.
    if (sessionId === session.id && CONVERSATION.has(String(update.sessionUpdate))) session.history.push(update);
    return ctx.peer.sessionUpdate({ sessionId, update } as unknown as UpdateSessionNotification);
  };

  return {
    // The same prompt capabilities as the v1 handler: embedded context (resource blocks) is understood.
    initialize: () => ({ protocolVersion: 2, info: { ...MOCK_AGENT_INFO }, capabilities: { session: { prompt: { embeddedContext: {} } } } }),

    newSession(params) {
      const session = sessions.create(params.cwd);
      return { sessionId: session.id, ...config(session) };
    },

    // This agent never hands out a cursor: any cursor is one it did not issue (session-list: agents SHOULD return an error).
    listSessions(params) {
      if (params.cursor !== undefined && params.cursor !== null) throw RpcError.invalidParams({ reason: `unknown cursor ${JSON.stringify(params.cursor)}: this agent issues none` });
      return { sessions: sessions.list(params.cwd).map((s) => ({ sessionId: s.id, cwd: s.cwd, title: s.title, updatedAt: s.updatedAt })) };
    },

    // Without replayFrom nothing is replayed; with {"type":"start"} the whole conversation is, before the state snapshot;
    // any other cursor is one this agent does not support: -32602, never a resume without replay.
    async resumeSession(params, ctx) {
      const session = sessions.get(params.sessionId);
      const from = (params as { replayFrom?: { type?: unknown } | null }).replayFrom;
      if (from !== undefined && from !== null && from.type !== "start") throw RpcError.invalidParams({ reason: `unsupported replayFrom cursor ${JSON.stringify(from.type)}` });
      if (from?.type === "start") for (const update of [...session.history]) await ctx.peer.sessionUpdate({ sessionId: session.id, update } as unknown as UpdateSessionNotification);
      await send(ctx, session, { sessionUpdate: "state_update", state: session.turn ? "running" : "idle", ...(session.turn ? {} : { stopReason: null }) });
      return config(session);
    },

    // Stops the running turn and waits for its idle update (at most 1 s: a turn blocked on a client
    // request the client never answers ends later), so nothing about the session follows the answer.
    async closeSession(params) {
      sessions.get(params.sessionId).turn?.abort();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([ended.get(params.sessionId), new Promise<void>((resolve) => (timer = setTimeout(resolve, 1000)))]);
      clearTimeout(timer);
      sessions.remove(params.sessionId);
      return {};
    },

    setSessionConfigOption(params) {
      if (!advertise.configOptions) throw RpcError.methodNotFound("session/set_config_option", "this mock agent was started without configOptions");
      const session = sessions.get(params.sessionId);
      setConfig(session, params.configId, (params as { value?: unknown }).value);
      return { configOptions: mockConfigOptions(2, session.model, session.verbose) } as never;
    },

    // No tool call or terminal of this agent advertises capabilities.cancel, so a conforming client never sends these.
    cancelToolCall(params) {
      throw RpcError.resourceNotFound(`tool call ${params.toolCallId}`);
    },
    cancelTerminal(params) {
      throw RpcError.resourceNotFound(`terminal ${params.terminalId}`);
    },

    prompt(params, ctx) {
      const session = sessions.get(params.sessionId);
      if (session.turn) throw RpcError.invalidRequest("a prompt is already running in this session");
      const text = promptText(params.prompt);
      const steps = stepsFor(options, session, text);
      const refused = preflight(steps, 2, ctx.clientCapabilities);
      if (refused !== undefined) {
        options.log(`prompt refused: ${refused}`);
        throw new RpcError(REFUSED_CODE, refused, { reason: refused });
      }
      const first = steps[0];
      if (first?.op === "error") throw new RpcError(first.code, first.message);
      const messageId = `mock-user-${session.id}-${session.prompts}`;
      const sc = startTurn(2, ctx, session, text, `mock-agent-${session.id}-${session.prompts}`, (update, sessionId) => send(ctx, session, update, sessionId), peerMethods, options.log);
      ended.set(session.id, new Promise((resolve) => setImmediate(() => void turnOf(sc, session, { sessionUpdate: "user_message", messageId, content: params.prompt as unknown[] }, steps).then(resolve))));
      return { messageId };
    },
  };
}

/** Reports the user message, runs the steps, and ends with an idle `state_update` whatever happened. */
async function turnOf(sc: StepContext, session: MockSession, user: JsonObject, steps: Parameters<typeof runSteps>[1]): Promise<void> {
  let end: TurnEnd = { stopReason: "cancelled" };
  try {
    await sc.sendUpdate(user);
    await sc.sendUpdate({ sessionUpdate: "state_update", state: "running" });
    end = await runSteps(sc, steps);
  } catch (error) {
    if (!sc.signal.aborted) sc.log(`v2 turn failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    session.turn = undefined;
    const idle = "error" in end ? { stopReason: "error", error: { code: end.error.code, message: end.error.message } } : { stopReason: sc.signal.aborted ? "cancelled" : end.stopReason };
    // Sent after a cancel too (unless the connection is gone): it is what ends the turn for the client.
    await sc.sendUpdate({ sessionUpdate: "state_update", state: "idle", ...idle }).catch(() => {});
  }
}
