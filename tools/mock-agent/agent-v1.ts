/**
 * The mock agent's ACP v1 handler: sessions in memory, the capabilities of
 * `options.advertise`, and prompts run by the step engine. A turn's
 * `#error` (or a refused step) answers the prompt with that JSON-RPC error.
 */
import { methods } from "../../method-table.ts";
import { RpcError, type AgentContext, type AgentHandler, type SessionNotification } from "../../src/index.ts";
import { runSteps, type StepContext } from "./run-steps.ts";
import { createSessions, promptText, setConfig, stepsFor, type MockOptions, type MockSession } from "./sessions.ts";
import { booleanConfigAdvertised, mockConfigOptions, mockModes, type JsonObject } from "./updates.ts";

/** The name the mock agent gives in `initialize`. */
export const MOCK_AGENT_INFO = { name: "acp-router-mock-agent", title: "acp-router mock agent", version: "0.1.0" } as const;

/** Client request wire → the peer proxy's method name, for the client requests of a method table. */
export const peerMethodsOf = (rows: readonly { readonly side: string; readonly kind: string; readonly wire: string; readonly callback?: string | undefined }[]): ReadonlyMap<string, string> =>
  new Map(rows.filter((r) => r.side === "client" && r.kind === "request" && r.callback !== undefined).map((r) => [r.wire, r.callback as string]));

/** The v1 table's client requests. */
const peerMethods = peerMethodsOf(methods);

/** Calls the client method `wire` through the typed peer proxy of `ctx`. */
export function requestThrough(peer: object, table: ReadonlyMap<string, string>, wire: string, params: JsonObject): Promise<unknown> {
  const name = table.get(wire);
  const fn = name === undefined ? undefined : (peer as Record<string, ((p: unknown) => Promise<unknown>) | undefined>)[name];
  if (fn === undefined) return Promise.reject(RpcError.methodNotFound(wire, "not a client method of this protocol"));
  return fn.call(peer, params);
}

/** What {@link startTurn} needs of a connection's handler context, in v1 and v2 alike. */
export interface TurnHost {
  readonly signal: AbortSignal;
  readonly clientCapabilities: unknown;
  readonly peer: object;
}

/**
 * Starts a turn of `session`: marks it running (its abort controller is the
 * turn's cancel), titles the session after its first prompt `text` (60
 * characters), and returns the step context that sends updates through `send`
 * and client requests through the peer of `ctx` by `table`.
 */
export function startTurn(version: StepContext["version"], ctx: TurnHost, session: MockSession, text: string, messageId: string, send: (update: JsonObject, sessionId?: string) => Promise<void>, table: ReadonlyMap<string, string>, log: (message: string) => void): StepContext {
  const turn = new AbortController();
  session.turn = turn;
  session.title ??= text.trim().slice(0, 60) || null;
  return {
    version,
    sessionId: session.id,
    cwd: session.cwd,
    signal: AbortSignal.any([ctx.signal, turn.signal]),
    clientCapabilities: ctx.clientCapabilities,
    messageId,
    sendUpdate: send,
    request: (wire, p) => requestThrough(ctx.peer, table, wire, p),
    log,
  };
}

/** Creates the v1 handler; sessions live as long as the handler (shared by every connection of a `--listen` server). */
export function createMockAgentV1(options: MockOptions): AgentHandler {
  const { advertise } = options;
  const sessions = createSessions();
  const state = (s: MockSession, ctx: { readonly clientCapabilities: unknown }) =>
    ({
      ...(advertise.modes ? { modes: { ...mockModes, currentModeId: s.modeId } } : {}),
      ...(advertise.configOptions ? { configOptions: mockConfigOptions(1, s.model, s.verbose, booleanConfigAdvertised(ctx.clientCapabilities)) } : {}),
    }) as Record<string, never>;
  const refuse = (wire: string, what: string): never => {
    throw RpcError.methodNotFound(wire, `this mock agent was started without ${what}`);
  };
  const send = async (ctx: AgentContext, session: MockSession, update: JsonObject, sessionId = session.id) => {
    if (sessionId === session.id) session.history.push(update);
    await ctx.peer.sessionUpdate({ sessionId, update } as unknown as SessionNotification);
  };

  return {
    initialize: () => ({
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: advertise.loadSession,
        promptCapabilities: { embeddedContext: true },
        sessionCapabilities: { ...(advertise.list ? { list: {} } : {}), ...(advertise.close ? { close: {} } : {}) },
      },
      authMethods: [],
      agentInfo: { ...MOCK_AGENT_INFO },
    }),

    // No auth methods are advertised: nothing to check.
    authenticate: () => ({}),

    newSession(params, ctx) {
      const session = sessions.create(params.cwd);
      return { sessionId: session.id, ...state(session, ctx) };
    },

    async loadSession(params, ctx) {
      if (!advertise.loadSession) refuse("session/load", "loadSession");
      const session = sessions.get(params.sessionId);
      session.cwd = params.cwd;
      for (const update of session.history) await ctx.peer.sessionUpdate({ sessionId: session.id, update } as unknown as SessionNotification);
      return state(session, ctx);
    },

    listSessions(params) {
      if (!advertise.list) refuse("session/list", "sessionCapabilities.list");
      // Every session fits in one page, so no cursor was ever issued: any cursor is invalid (v1 session-list: SHOULD error).
      if (params.cursor != null) throw RpcError.invalidParams({ cursor: params.cursor, reason: "this agent lists every session in one page and issues no cursor" });
      return { sessions: sessions.list(params.cwd).map((s) => ({ sessionId: s.id, cwd: s.cwd, title: s.title, updatedAt: s.updatedAt })) };
    },

    closeSession(params) {
      if (!advertise.close) refuse("session/close", "sessionCapabilities.close");
      sessions.get(params.sessionId).turn?.abort();
      return {};
    },

    async setSessionMode(params, ctx) {
      if (!advertise.modes) refuse("session/set_mode", "modes");
      const session = sessions.get(params.sessionId);
      if (!mockModes.availableModes.some((m) => m.id === params.modeId)) throw RpcError.invalidParams({ modeId: params.modeId, reason: "unknown mode; available: ask, code" });
      session.modeId = params.modeId;
      await send(ctx, session, { sessionUpdate: "current_mode_update", currentModeId: params.modeId });
      return {};
    },

    setSessionConfigOption(params, ctx) {
      if (!advertise.configOptions) refuse("session/set_config_option", "configOptions");
      const session = sessions.get(params.sessionId);
      setConfig(session, params.configId, (params as { value?: unknown }).value);
      return { configOptions: mockConfigOptions(1, session.model, session.verbose, booleanConfigAdvertised(ctx.clientCapabilities)) } as never;
    },

    async prompt(params, ctx) {
      const session = sessions.get(params.sessionId);
      if (session.turn) throw RpcError.invalidRequest("a prompt is already running in this session");
      const text = promptText(params.prompt);
      const steps = stepsFor(options, session, text);
      const sc = startTurn(1, ctx, session, text, `turn-${session.prompts}`, (update, sessionId) => send(ctx, session, update, sessionId), peerMethods, options.log);
      for (const block of params.prompt) session.history.push({ sessionUpdate: "user_message_chunk", content: block });
      try {
        const end = await runSteps(sc, steps);
        if ("error" in end) throw new RpcError(end.error.code, end.error.message, end.error.data);
        return { stopReason: end.stopReason };
      } finally {
        session.turn = undefined;
      }
    },
  };
}
