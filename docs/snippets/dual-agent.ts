// One agent process for ACP v1 and v2 clients: the version router reads the client's initialize.
import { protocol as v1Protocol, type AgentHandler } from "../../src/index.ts";
import { nodeStreamTransport } from "../../src/transport/stdio.ts";
import { defineAgent as defineAgentV2, protocol as v2Protocol } from "../../src/v2/index.ts";
import { routeAgent } from "../../src/versions/index.ts";

const v1: AgentHandler = {
  initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }),
  newSession: () => ({ sessionId: "s-1" }),
  prompt: () => ({ stopReason: "end_turn" }),
};

// v2: the prompt is acknowledged at once with its messageId; the turn echoes the user's message
// under that id, streams the reply, then ends with an idle state_update. `defineAgent` makes the
// compiler check that what `capabilities` advertises (`session`) has its methods.
let turns = 0;
const v2 = defineAgentV2({
  initialize: () => ({ protocolVersion: 2, info: { name: "dual-agent", version: "1.0.0" }, capabilities: { session: {} } }),
  newSession: () => ({ sessionId: "s-1" }),
  listSessions: () => ({ sessions: [{ sessionId: "s-1", cwd: process.cwd() }] }),
  resumeSession: () => ({}),
  closeSession: () => ({}),
  setSessionConfigOption: () => ({ configOptions: [] }),
  cancelToolCall: () => ({}),
  cancelTerminal: () => ({}),
  prompt({ sessionId, prompt }, ctx) {
    const text = prompt.map((block) => (block.type === "text" ? block.text : "")).join(" ");
    const messageId = `u-${++turns}`;
    const stream = async () => {
      await ctx.peer.sessionUpdate({ sessionId, update: { sessionUpdate: "user_message_chunk", messageId, content: { type: "text", text } } });
      await ctx.peer.sessionUpdate({ sessionId, update: { sessionUpdate: "agent_message_chunk", messageId: `a-${turns}`, content: { type: "text", text: `You said: ${text}` } } });
      await ctx.peer.sessionUpdate({ sessionId, update: { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" } });
    };
    // A client gone mid-turn rejects the updates: with nobody to tell, the turn just stops.
    setImmediate(() => {
      stream().catch(() => undefined);
    });
    return { messageId };
  },
});

// Each version is its table's protocol value with the handler written for it; the options (none here)
// are the connection's, and bound the router's reading before initialize too.
await routeAgent(nodeStreamTransport(process.stdin, process.stdout), { v1: { protocol: v1Protocol, handler: v1 }, v2: { protocol: v2Protocol, handler: v2 } });
