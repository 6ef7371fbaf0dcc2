// A full turn over each remote transport, our client against our server: chunks in order, a
// permission request answered, a cancelled turn, and nothing left behind afterwards.
import { describe, expect, it } from "vitest";
import { httpClientTransport } from "../../src/remote/http-client.ts";
import { nodeWebSocket } from "../../src/remote/node-ws.ts";
import { webSocketClientTransport } from "../../src/remote/ws-client.ts";
import type { Transport } from "../../src/index.ts";
import { connectOver, recordingClient, startServer, until, within } from "./support.ts";

const transports: [string, (url: string) => Transport][] = [
  ["Streamable HTTP (HTTP/1.1)", (url) => httpClientTransport(url)],
  ["WebSocket", (url) => webSocketClientTransport(url.replace(/^http/, "ws"), { WebSocket: nodeWebSocket })],
];

describe.each(transports)("a turn over %s", (_name, makeTransport) => {
  it("streams the chunks before the prompt's answer", async () => {
    const { url } = await startServer();
    const client = recordingClient();
    const conn = await connectOver(makeTransport(url), client.handler);
    const { sessionId } = await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new");
    const answer = await within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hi" }] }), "prompt");
    expect(answer.stopReason).toBe("end_turn");
    expect(client.chunks).toEqual(["hi", " ", "hi"]);
  });

  it("answers a permission request and reports the choice", async () => {
    const { url } = await startServer();
    const client = recordingClient("deny");
    const conn = await connectOver(makeTransport(url), client.handler);
    const { sessionId } = await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new");
    const answer = await within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "ask" }] }), "prompt");
    expect(answer.stopReason).toBe("end_turn");
    expect(client.permissions).toBe(1);
    expect(client.chunks).toEqual(["chose deny"]);
  });

  it("cancels a running turn with session/cancel and leaves nothing in flight", async () => {
    const { url, remote } = await startServer();
    const client = recordingClient();
    const conn = await connectOver(makeTransport(url), client.handler);
    const { sessionId } = await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new");
    const turn = conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "wait" }] });
    await until(() => client.chunks.includes("waiting"), "the turn to start");
    await conn.agent.cancel({ sessionId });
    expect((await within(turn, "cancelled prompt")).stopReason).toBe("cancelled");
    expect(remote.stats()).toMatchObject({ connections: 1, sessions: 1, inFlightInbound: 0, pendingOutbound: 0 });
    conn.close();
    await within(conn.closed, "client closed");
    await until(() => remote.stats().connections === 0, "the server to drop the connection");
    expect(remote.stats()).toEqual({ connections: 0, webSockets: 0, sessions: 0, streams: 0, inFlightInbound: 0, pendingOutbound: 0, busyLanes: 0, timers: 0, abortListeners: 0 });
  });
});
