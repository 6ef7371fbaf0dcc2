/**
 * Minimal valid handlers and params for connection tests.
 *
 * `testAgent()` / `testClient()` answer every required method with a small
 * valid result and record each call by name in `calls` (`"newSession"`,
 * `"extMethod:_sum"`, `"extNotification:_hello"`). Pass `overrides` to
 * replace single methods; overridden calls are recorded too.
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

function record<H extends object>(handler: H): Recorded<H> {
  const calls: string[] = [];
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(handler)) {
    if (typeof fn !== "function") continue;
    wrapped[name] = (...args: unknown[]) => {
      calls.push(name === "extMethod" || name === "extNotification" ? `${name}:${String(args[0])}` : name);
      return (fn as (...a: unknown[]) => unknown).apply(handler, args);
    };
  }
  return { handler: wrapped as H, calls };
}
