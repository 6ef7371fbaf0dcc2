// One agent process for ACP v1 and v2 clients: the version router reads the client's initialize.
import { protocol as v1Protocol, type AgentHandler } from "../../src/index.ts";
import { nodeStreamTransport } from "../../src/transport/stdio.ts";
import { protocol as v2Protocol, type AgentHandler as AgentHandlerV2 } from "../../src/v2/index.ts";
import { routeAgent } from "../../src/versions/index.ts";

const v1: AgentHandler = {
  initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }),
  newSession: () => ({ sessionId: "s-1" }),
  prompt: () => ({ stopReason: "end_turn" }),
};

// v2: the prompt is acknowledged at once; the turn streams, then ends with an idle state_update.
const v2: AgentHandlerV2 = {
  initialize: () => ({ protocolVersion: 2, info: { name: "dual-agent", version: "1.0.0" }, capabilities: { session: {} } }),
  newSession: () => ({ sessionId: "s-1" }),
  prompt({ sessionId, prompt }, ctx) {
    const text = prompt.map((block) => (block.type === "text" ? block.text : "")).join(" ");
    const stream = async () => {
      await ctx.peer.sessionUpdate({ sessionId, update: { sessionUpdate: "agent_message_chunk", messageId: "a-1", content: { type: "text", text: `You said: ${text}` } } });
      await ctx.peer.sessionUpdate({ sessionId, update: { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" } });
    };
    // A client gone mid-turn rejects the updates: with nobody to tell, the turn just stops.
    setImmediate(() => {
      stream().catch(() => undefined);
    });
    return { messageId: "u-1" };
  },
};

// Each version is its table's protocol value with the handler written for it; the options (none here)
// are the connection's, and bound the router's reading before initialize too.
await routeAgent(nodeStreamTransport(process.stdin, process.stdout), { v1: { protocol: v1Protocol, handler: v1 }, v2: { protocol: v2Protocol, handler: v2 } });
