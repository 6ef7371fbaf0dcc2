/**
 * Minimal valid handlers and params for connection tests.
 *
 * `testAgent()` / `testClient()` answer every required method with a small
 * valid result and record each call by name in `calls` (`"newSession"`,
 * `"extMethod:_sum"`, `"extNotification:_hello"`). Pass `overrides` to
 * replace single methods; overridden calls are recorded too.
 * `countingAgent()` / `countingClient()` answer every method, optional ones
 * too, with every capability advertised, and count calls by the same names
 * in a `Map` (one map can be shared by both sides).
 */
import type { AgentHandler, ClientHandler, ClientCapabilities, InitializeRequest, InitializeResponse, NewSessionRequest, PromptRequest, RequestPermissionRequest, SessionNotification } from "../../src/index.ts";

/** Valid params for the common requests and notifications. */
export const params = {
  initialize: (clientCapabilities: ClientCapabilities = {}): InitializeRequest => ({ protocolVersion: 1, clientCapabilities }),
  newSession: (): NewSessionRequest => ({ cwd: "/tmp", mcpServers: [] }),
  prompt: (sessionId: string, text = "hi"): PromptRequest => ({ sessionId, prompt: [{ type: "text", text }] }),
  /** An `agent_message_chunk` update carrying `text`. */
  update: (sessionId: string, text: string): SessionNotification => ({ sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } }),
  permission: (sessionId: string): RequestPermissionRequest => ({
    sessionId,
    toolCall: { toolCallId: "call-1" },
    options: [{ optionId: "allow", name: "Allow", kind: "allow_once" }],
  }),
};

/** The text of an `agent_message_chunk` update, or undefined. */
export function chunkText(n: SessionNotification): string | undefined {
  const u = n.update;
  return u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : undefined;
}

export interface Recorded<H> {
  readonly handler: H;
  /** Handler calls in call order, by method name (`extMethod:<wire>` for extensions). */
  readonly calls: string[];
}

/**
 * An agent whose `initialize` answers `init` (default: protocol 1, no
 * capabilities), `session/new` hands out `sess-1`, `sess-2`, …, `prompt`
 * ends the turn, and `extMethod` echoes `{ method, params }`.
 */
export function testAgent(overrides: Partial<AgentHandler> = {}, init: InitializeResponse = { protocolVersion: 1, agentCapabilities: {} }): Recorded<AgentHandler> {
  let sessions = 0;
  const base: AgentHandler = {
    initialize: () => init,
    authenticate: () => ({}),
    newSession: () => ({ sessionId: `sess-${++sessions}` }),
    setSessionMode: () => ({}),
    setSessionConfigOption: () => ({ configOptions: [] }),
    prompt: () => ({ stopReason: "end_turn" }),
    extMethod: (method, p) => ({ method, params: p }),
    extNotification: () => undefined,
  };
  return record({ ...base, ...overrides });
}

/** A client that allows every permission request and accepts every update. */
export function testClient(overrides: Partial<ClientHandler> = {}): Recorded<ClientHandler> {
  const base: ClientHandler = {
    requestPermission: () => ({ outcome: { outcome: "selected", optionId: "allow" } }),
    sessionUpdate: () => undefined,
  };
  return record({ ...base, ...overrides });
}

/** The name a call is recorded under: the method's, or `extMethod:<wire>` / `extNotification:<wire>` for extensions. */
function callName(name: string, args: readonly unknown[]): string {
  return name === "extMethod" || name === "extNotification" ? `${name}:${String(args[0])}` : name;
}

/** `handler` with each method wrapped to report the call's name to `onCall` before it runs. */
function observed<H extends object>(handler: H, onCall: (name: string) => void): H {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(handler)) {
    if (typeof fn !== "function") continue;
    wrapped[name] = (...args: unknown[]) => {
      onCall(callName(name, args));
      return (fn as (...a: unknown[]) => unknown).apply(handler, args);
    };
  }
  return wrapped as H;
}

function record<H extends object>(handler: H): Recorded<H> {
  const calls: string[] = [];
  return { handler: observed(handler, (name) => calls.push(name)), calls };
}

/** Counts of handler calls by name (as `Recorded.calls` names them). */
export type Calls = Map<string, number>;

/** Agent capabilities that open every capability gate. */
export const allAgentCapabilities = {
  loadSession: true,
  promptCapabilities: { image: true, audio: true, embeddedContext: true },
  sessionCapabilities: { list: {}, resume: {}, close: {}, delete: {} },
  auth: { logout: {} },
};

/** Client capabilities that open every capability gate. */
export const allClientCapabilities = { fs: { readTextFile: true, writeTextFile: true }, terminal: true, elicitation: {} };

function counted<H extends object>(handler: H, calls: Calls): H & { readonly calls: Calls } {
  return Object.assign(
    observed(handler, (name) => calls.set(name, (calls.get(name) ?? 0) + 1)),
    { calls },
  );
}

/**
 * An agent answering every method, optional ones included, with a minimal
 * valid result (`initialize` advertises every capability; `session/prompt`
 * answers one microtask later), counting calls into `calls`.
 */
export function countingAgent(calls: Calls = new Map()): AgentHandler & { readonly calls: Calls } {
  return counted<AgentHandler>(
    {
      initialize: () => ({ protocolVersion: 1, agentCapabilities: allAgentCapabilities }),
      authenticate: () => ({}),
      logout: () => ({}),
      newSession: () => ({ sessionId: "s1" }),
      loadSession: () => ({}),
      listSessions: () => ({ sessions: [] }),
      deleteSession: () => ({}),
      resumeSession: () => ({}),
      closeSession: () => ({}),
      setSessionMode: () => ({}),
      setSessionConfigOption: () => ({ configOptions: [] }),
      prompt: () => Promise.resolve({ stopReason: "end_turn" as const }),
      extMethod: () => ({ ok: true }),
      extNotification: () => undefined,
    },
    calls,
  );
}

/** A client answering every method, optional ones included, with a minimal valid result, counting calls into `calls`. */
export function countingClient(calls: Calls = new Map()): ClientHandler & { readonly calls: Calls } {
  return counted<ClientHandler>(
    {
      requestPermission: () => ({ outcome: { outcome: "selected", optionId: "allow" } }),
      sessionUpdate: () => undefined,
      readTextFile: () => ({ content: "" }),
      writeTextFile: () => ({}),
      createTerminal: () => ({ terminalId: "t1" }),
      terminalOutput: () => ({ output: "", truncated: false }),
      releaseTerminal: () => ({}),
      waitForTerminalExit: () => ({ exitCode: 0 }),
      killTerminal: () => ({}),
      createElicitation: () => ({ action: "cancel" }),
      completeElicitation: () => undefined,
      extMethod: () => ({ ok: true }),
      extNotification: () => undefined,
    },
    calls,
  );
}
