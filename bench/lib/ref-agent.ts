/**
 * A small-message reference agent on acp-router for the saturated inspect
 * case: `serveStdio`, sessions with their own ids, and each prompt answered
 * after two awaited one-line `agent_message_chunk` updates (`"echo: "` and
 * the prompt's text) — the shape of the outside driver's reference agent.
 *
 *   node --import tsx bench/lib/ref-agent.ts
 */
import { RpcError, serveStdio } from "../../src/index.ts";

const sessions = new Set<string>();
let next = 0;
serveStdio({
  initialize: () => ({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] }),
  newSession: () => {
    const sessionId = `s${++next}`;
    sessions.add(sessionId);
    return { sessionId };
  },
  async prompt({ sessionId, prompt }, ctx) {
    if (!sessions.has(sessionId)) throw RpcError.resourceNotFound(sessionId);
    const text = prompt.map((b) => (b.type === "text" ? b.text : "")).join(" ");
    for (const part of ["echo: ", text]) await ctx.peer.sessionUpdate({ sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: part } } });
    return { stopReason: "end_turn" };
  },
});
