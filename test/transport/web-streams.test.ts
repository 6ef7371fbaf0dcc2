// NDJSON over Web streams: both ends of a connection on TransformStream pipes,
// so the bytes really pass through ReadableStream/WritableStream.
import { describe, expect, it } from "vitest";
import { connectAgent, connectClient, webStreamTransport, type AgentHandler, type ClientHandler } from "../../src/index.ts";

function pipe(): { readable: ReadableStream<Uint8Array>; writable: WritableStream<Uint8Array> } {
  return new TransformStream<Uint8Array, Uint8Array>();
}

const agent: AgentHandler = {
  initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }),
  authenticate: () => ({}),
  newSession: () => ({ sessionId: "web-1" }),
  setSessionMode: () => ({}),
  setSessionConfigOption: () => ({ configOptions: [] }),
  async prompt({ sessionId }, ctx) {
    await ctx.peer.sessionUpdate({ sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "héllo ✓" } } });
    return { stopReason: "end_turn" };
  },
};

describe("webStreamTransport", () => {
  it("carries a whole turn between a client and an agent, multi-byte text included", async () => {
    const toAgent = pipe();
    const toClient = pipe();
    const texts: string[] = [];
    const client: ClientHandler = {
      requestPermission: () => ({ outcome: { outcome: "cancelled" } }),
      sessionUpdate: ({ update }) => {
        if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") texts.push(update.content.text);
      },
    };
    const a = connectAgent(agent, webStreamTransport(toAgent.readable, toClient.writable));
    const c = connectClient(client, webStreamTransport(toClient.readable, toAgent.writable));
    await c.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await c.agent.newSession({ cwd: "/", mcpServers: [] });
    expect(await c.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hi" }] })).toEqual({ stopReason: "end_turn" });
    expect(texts).toEqual(["héllo ✓"]);
    c.close();
    const info = await a.closed;
    expect(info.reason).toBe("the peer closed the stream");
    expect(a.stats()).toEqual({ pendingOutbound: 0, inFlightInbound: 0, busyLanes: 0, timers: 0, abortListeners: 0 });
  });

  it("ends the connection with the stream's error when reading fails", async () => {
    const readable = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.error(new Error("disk on fire"));
      },
    });
    const conn = connectAgent(agent, webStreamTransport(readable, pipe().writable));
    const info = await conn.closed;
    expect(info.reason).toBe("disk on fire");
    expect(info.error?.message).toBe("disk on fire");
  });
});
