// Interop both ways: the official SDK's experimental http and ws clients drive our server, and
// our client transports drive the SDK's experimental AcpServer, each through a full turn, a
// permission request and a cancelled turn.
import { describe, expect, it } from "vitest";
import { httpClientTransport } from "../../src/remote/http-client.ts";
import { nodeWebSocket } from "../../src/remote/node-ws.ts";
import { webSocketClientTransport } from "../../src/remote/ws-client.ts";
import { sdkClient, startSdkServer } from "./sdk-peers.ts";
import { connectOver, recordingClient, startServer, until, within } from "./support.ts";

describe.each([
  ["http-client", (url: string) => url],
  ["ws-client", (url: string) => url.replace(/^http/, "ws")],
])("the SDK's %s against our server", (_name, toUrl) => {
  it("runs a turn, answers a permission request and cancels a turn", async () => {
    const { url, remote } = await startServer();
    const { agent, methods, record } = sdkClient(toUrl(url), "allow");
    await within(agent.request(methods.initialize, { protocolVersion: 1, clientCapabilities: {} }), "initialize");
    const { sessionId } = await within(agent.request(methods.session.new, { cwd: "/", mcpServers: [] }), "session/new");
    expect((await within(agent.request(methods.session.prompt, { sessionId, prompt: [{ type: "text", text: "hi" }] }), "prompt")).stopReason).toBe("end_turn");
    expect(record.chunks).toEqual(["hi", " ", "hi"]);
    expect((await within(agent.request(methods.session.prompt, { sessionId, prompt: [{ type: "text", text: "ask" }] }), "permission turn")).stopReason).toBe("end_turn");
    expect(record.permissions).toBe(1);
    expect(record.chunks.at(-1)).toBe("chose allow");
    const turn = agent.request(methods.session.prompt, { sessionId, prompt: [{ type: "text", text: "wait" }] });
    await until(() => record.chunks.includes("waiting"), "the turn to start");
    await agent.notify(methods.session.cancel, { sessionId });
    expect((await within(turn, "cancelled prompt")).stopReason).toBe("cancelled");
    expect(remote.stats()).toMatchObject({ connections: 1, sessions: 1, inFlightInbound: 0 });
  });
});

describe.each([
  ["HTTP transport (sessionStreams: true)", (url: string) => httpClientTransport(url, { sessionStreams: true })],
  ["WebSocket transport", (url: string) => webSocketClientTransport(url.replace(/^http/, "ws"), { WebSocket: nodeWebSocket })],
])("our %s against the SDK's AcpServer", (_name, makeTransport) => {
  it("runs a turn, answers a permission request and cancels a turn", async () => {
    const { url } = await startSdkServer();
    const client = recordingClient("deny");
    const conn = await connectOver(makeTransport(url), client.handler);
    const { sessionId } = await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new");
    expect((await within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hi" }] }), "prompt")).stopReason).toBe("end_turn");
    expect(client.chunks).toEqual(["hi", " ", "hi"]);
    expect((await within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "ask" }] }), "permission turn")).stopReason).toBe("end_turn");
    expect(client.permissions).toBe(1);
    expect(client.chunks.at(-1)).toBe("chose deny");
    const turn = conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "wait" }] });
    await until(() => client.chunks.includes("waiting"), "the turn to start");
    await conn.agent.cancel({ sessionId });
    expect((await within(turn, "cancelled prompt")).stopReason).toBe("cancelled");
  });
});
