// The generated AgentHandler now has a typed `echo`; the router validates its params.
import type { AgentHandler } from "./generated/index.ts";

export const handler: AgentHandler = {
  initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }),
  authenticate: () => ({}),
  newSession: () => ({ sessionId: "s-1" }),
  setSessionMode: () => ({}),
  setSessionConfigOption: () => ({ configOptions: [] }),
  prompt: () => ({ stopReason: "end_turn" }),
  echo: ({ text }) => ({ text }),
};
