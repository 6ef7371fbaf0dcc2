/**
 * Type tests for optional handler methods and `defineAgent`: an agent that
 * advertises a capability must have the method it gates, as far as the types
 * can tell. Never run: tsc checks them, and test/codegen/type-tests.test.ts
 * proves each `@ts-expect-error` line guards a real error.
 */
import { defineAgent, type AgentHandler, type InitializeResponse, type RequiredAgentMethods, type RequiredClientMethods } from "../../src/index.ts";

/** authenticate, setSessionMode and setSessionConfigOption may be left out. */
export const minimal: AgentHandler = {
  initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }),
  newSession: () => ({ sessionId: "s" }),
  prompt: () => ({ stopReason: "end_turn" }),
};

// @ts-expect-error prompt is not optional
export const noPrompt: AgentHandler = { initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }), newSession: () => ({ sessionId: "s" }) };

/** Every advertised capability has its method: accepted, and the handler keeps its own type. */
export const complete = defineAgent({
  initialize: () => ({ protocolVersion: 1, agentCapabilities: { loadSession: true, sessionCapabilities: { list: {} } } }),
  newSession: () => ({ sessionId: "s" }),
  prompt: () => ({ stopReason: "end_turn" }),
  loadSession: () => ({}),
  listSessions: () => ({ sessions: [] }),
});
export const keepsItsType: () => unknown = complete.listSessions;

// @ts-expect-error loadSession: true without a loadSession method
export const missingLoad = defineAgent({
  initialize: () => ({ protocolVersion: 1, agentCapabilities: { loadSession: true } }),
  newSession: () => ({ sessionId: "s" }),
  prompt: () => ({ stopReason: "end_turn" }),
});

// @ts-expect-error an async initialize advertising session/list without listSessions
export const missingList = defineAgent({
  async initialize() {
    return { protocolVersion: 1, agentCapabilities: { sessionCapabilities: { list: {} } } };
  },
  newSession: () => ({ sessionId: "s" }),
  prompt: () => ({ stopReason: "end_turn" }),
});

/** A capability the types cannot pin down (typed `boolean`) is left to the run-time diagnostic. */
export const wide = defineAgent({
  initialize: (): InitializeResponse => ({ protocolVersion: 1, agentCapabilities: { loadSession: true } }),
  newSession: () => ({ sessionId: "s" }),
  prompt: () => ({ stopReason: "end_turn" }),
});

/** The helper types name the methods a capabilities type requires. */
export const agentNeeds: RequiredAgentMethods<{ loadSession: true; sessionCapabilities: { close: {}; list: null } }>[] = ["loadSession", "closeSession"];
export const clientNeeds: RequiredClientMethods<{ fs: { readTextFile: true; writeTextFile: false } }>[] = ["readTextFile"];
// @ts-expect-error writeTextFile: false requires nothing
export const notNeeded: RequiredClientMethods<{ fs: { readTextFile: true; writeTextFile: false } }> = "writeTextFile";
