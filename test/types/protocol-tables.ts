/**
 * Type tests for the v2 and unstable tables (issue 19): a handler's context
 * carries its own table's capability types, and `defineAgent` checks the
 * capabilities the table's `initialize` advertises. Never run: tsc checks
 * them, and test/codegen/type-tests.test.ts proves each `@ts-expect-error`
 * line guards a real error.
 */
import type { AgentContext as V1Context } from "../../src/index.ts";
import { defineAgent as defineUnstableAgent } from "../../src/unstable/index.ts";
import { defineAgent as defineV2Agent, type AgentContext as V2Context } from "../../src/v2/index.ts";

const info = { name: "t", version: "1" };

/** A v2 handler reads the v2 capability types: `session`, not v1's `loadSession`. */
export function v2Capabilities(ctx: V2Context): unknown {
  const session = ctx.agentCapabilities?.session;
  // @ts-expect-error loadSession is a v1 agent capability, absent from v2's
  const load = ctx.agentCapabilities?.loadSession;
  return [session, load];
}

/** And a v1 handler the v1 ones. */
export function v1Capabilities(ctx: V1Context): unknown {
  const load = ctx.agentCapabilities?.loadSession;
  // @ts-expect-error session is a v2 agent capability, absent from v1's
  const session = ctx.agentCapabilities?.session;
  return [load, session];
}

const unused = (): never => {
  throw new Error("not called");
};

/** A v2 agent advertising the session capability with every method it gates: accepted. */
export const v2Complete = defineV2Agent({
  initialize: () => ({ protocolVersion: 2, info, capabilities: { session: {} } }),
  newSession: () => ({ sessionId: "s" }),
  prompt: () => ({ messageId: "m" }),
  listSessions: () => ({ sessions: [] }),
  resumeSession: unused,
  closeSession: unused,
  setSessionConfigOption: unused,
  cancelToolCall: unused,
  cancelTerminal: unused,
});

/** A v2 agent advertising nothing needs no session methods. */
export const v2Bare = defineV2Agent({ initialize: () => ({ protocolVersion: 2, info, capabilities: {} }) });

// @ts-expect-error capabilities.session advertised without newSession or prompt
export const v2Missing = defineV2Agent({ initialize: () => ({ protocolVersion: 2, info, capabilities: { session: {} } }) });

/** An unstable agent advertising providers with their methods: accepted. */
export const unstableComplete = defineUnstableAgent({
  initialize: () => ({ protocolVersion: 1, agentCapabilities: { providers: {} } }),
  newSession: () => ({ sessionId: "s" }),
  prompt: () => ({ stopReason: "end_turn" }),
  listProviders: () => ({ providers: [] }),
  setProvider: () => ({}),
  disableProvider: () => ({}),
});

// @ts-expect-error sessionCapabilities.fork advertised without forkSession
export const unstableMissing = defineUnstableAgent({
  initialize: () => ({ protocolVersion: 1, agentCapabilities: { sessionCapabilities: { fork: {} } } }),
  newSession: () => ({ sessionId: "s" }),
  prompt: () => ({ stopReason: "end_turn" }),
});
