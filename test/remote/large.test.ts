// Messages as large as stdio's over the remote transports with default options (issue 21 item 5):
// an 8 MiB prompt, echoed back as two 8 MiB session/update chunks, over Streamable HTTP and over
// WebSocket. The stream bounds count the backlog beyond one message, not the message itself.
import { describe, expect, it } from "vitest";
import type { Transport } from "../../src/index.ts";
import { httpClientTransport } from "../../src/remote/http-client.ts";
import { nodeWebSocket } from "../../src/remote/node-ws.ts";
import { webSocketClientTransport } from "../../src/remote/ws-client.ts";
import { DEFAULT_MAX_BODY_BYTES } from "../../src/remote/options.ts";
import { connectOver, recordingClient, startServer, within } from "./support.ts";

const EIGHT_MIB = 8 * 1024 * 1024;

describe.each([
  ["Streamable HTTP", (url: string): Transport => httpClientTransport(url)],
  ["WebSocket", (url: string): Transport => webSocketClientTransport(url.replace(/^http/, "ws"), { WebSocket: nodeWebSocket })],
])("an 8 MiB prompt and 8 MiB updates over %s, default options", (_name, transport) => {
  it("reach the agent and the client whole, and the turn ends", async () => {
    const { url, remote } = await startServer();
    const client = recordingClient();
    const conn = await connectOver(transport(url), client.handler);
    const { sessionId } = await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new");
    const text = "y".repeat(EIGHT_MIB);
    const answer = await within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text }] }), "the 8 MiB prompt", 30_000);
    expect(answer.stopReason).toBe("end_turn");
    expect(client.chunks.map((c) => c.length)).toEqual([EIGHT_MIB, 1, EIGHT_MIB]);
    expect(client.chunks[0] === text && client.chunks[2] === text).toBe(true);
    // The connection carries on.
    expect((await within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "small" }] }), "a small prompt")).stopReason).toBe("end_turn");
    expect(remote.stats()).toMatchObject({ connections: 1 });
  }, 60_000);
});

describe("the remote body bound", () => {
  it("is 32 MiB by default, as maxMessageBytes over stdio", () => {
    expect(DEFAULT_MAX_BODY_BYTES).toBe(32 * 1024 * 1024);
  });
});
