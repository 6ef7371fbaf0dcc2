// The example agent served with --listen (HTTP/1.1 + WebSocket on one port, or --h2), driven
// by our client transports, and stopped with SIGTERM (it drains and exits 0).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { httpClientTransport } from "../../src/remote/http-client.ts";
import { createH2Fetch } from "../../src/remote/node-h2.ts";
import { nodeWebSocket } from "../../src/remote/node-ws.ts";
import { webSocketClientTransport } from "../../src/remote/ws-client.ts";
import type { Transport } from "../../src/index.ts";
import { connectOver, listeningAgent, onCleanup, recordingClient, within } from "./support.ts";

const clientPath = fileURLToPath(new URL("../../examples/client.ts", import.meta.url));

/** Runs `examples/client.ts --url <url> --tour`; resolves with its exit code and stdout. */
function tourClient(url: string): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", clientPath, "--url", url, "--tour"], { stdio: ["ignore", "pipe", "pipe"] });
  onCleanup(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.resume();
  return within(new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout }))), "the example client's tour", 60_000);
}

async function tour(transport: Transport): Promise<string[]> {
  const client = recordingClient();
  const conn = await connectOver(transport, client.handler);
  const { sessionId } = await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new");
  const answer = await within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hello there" }] }), "prompt");
  expect(answer.stopReason).toBe("end_turn");
  conn.close();
  await within(conn.closed, "closed");
  return client.chunks;
}

describe("examples/agent.ts --listen", () => {
  it("serves Streamable HTTP and WebSocket on one port, then drains and exits 0 on SIGTERM", async () => {
    const agent = await listeningAgent();
    expect(agent.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/acp$/);
    expect((await tour(httpClientTransport(agent.url))).join("")).toContain("hello there");
    expect((await tour(webSocketClientTransport(agent.url.replace(/^http/, "ws"), { WebSocket: nodeWebSocket }))).join("")).toContain("hello there");
    expect(await agent.stop()).toBe(0);
  });

  it("is toured by examples/client.ts --url over Streamable HTTP and over WebSocket", async () => {
    const agent = await listeningAgent();
    for (const url of [agent.url, agent.url.replace(/^http/, "ws")]) {
      const { code, stdout } = await tourClient(url);
      expect(code).toBe(0);
      expect(stdout).toContain("Connected to acp-router-example-agent");
    }
    expect(await agent.stop()).toBe(0);
  });

  it("serves HTTP/2 cleartext with --h2", async () => {
    const agent = await listeningAgent(["--h2"]);
    const h2 = createH2Fetch();
    onCleanup(() => h2.close());
    expect((await tour(httpClientTransport(agent.url, { fetch: h2 }))).join("")).toContain("hello there");
    expect(await agent.stop()).toBe(0);
  });
});
