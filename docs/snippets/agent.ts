// A complete ACP agent: echo every prompt back as two streamed chunks.
import { serveStdio, type AgentHandler } from "../../src/index.ts";

let sessions = 0;

const agent: AgentHandler = {
  initialize: () => ({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] }),
  authenticate: () => ({}),
  newSession: () => ({ sessionId: `session-${++sessions}` }),
  setSessionMode: () => ({}),
  setSessionConfigOption: () => ({ configOptions: [] }),
  async prompt({ sessionId, prompt }, ctx) {
    const text = prompt.map((block) => (block.type === "text" ? block.text : "")).join(" ");
    for (const part of ["You said: ", text]) {
      if (ctx.signal.aborted) return { stopReason: "cancelled" };
      await ctx.peer.sessionUpdate({ sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: part } } });
    }
    return { stopReason: "end_turn" };
  },
};

serveStdio(agent, { onDiagnostic: (d) => process.stderr.write(`agent: ${d.kind}: ${d.message}\n`) });
