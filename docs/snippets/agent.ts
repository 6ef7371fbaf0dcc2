// A complete ACP agent: echo every prompt back as two streamed chunks.
import { defineAgent, serveStdio } from "../../src/index.ts";

let sessions = 0;

// defineAgent checks the handler against the table: each capability it advertises needs its method.
const agent = defineAgent({
  initialize: () => ({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] }),
  newSession: () => ({ sessionId: `session-${++sessions}` }),
  async prompt({ sessionId, prompt }, ctx) {
    const text = prompt.map((block) => (block.type === "text" ? block.text : "")).join(" ");
    for (const part of ["You said: ", text]) {
      if (ctx.signal.aborted) return { stopReason: "cancelled" };
      await ctx.peer.sessionUpdate({ sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: part } } });
    }
    return { stopReason: "end_turn" };
  },
});

// Diagnostics go to stderr (never stdout): bad input, or a handler that threw (`d.error`, stack included).
serveStdio(agent, { onDiagnostic: (d) => console.error(`agent: ${d.kind}: ${d.message}`, d.error ?? "") });
