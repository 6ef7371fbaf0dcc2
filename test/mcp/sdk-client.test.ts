// Interop, the other way: the official SDK 2.4.0 client's MCP-over-ACP provider (McpOverAcpProvider
// with fromMcpServer, hosting the MCP SDK server of examples/mcp-tools.ts) serves our agent's caller
// (examples/agent-mcp.ts, createMcpCaller, a real process over stdio): tools/list and tools/call
// equal to a direct MCP client's, a tool call with progress notifications, an inner MCP error, a
// cancelled inner request, an undeclared serverId refused before sending, and our agent's loopback
// HTTP bridge forwarding to the SDK's provider.
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import * as acp from "@agentclientprotocol/sdk/unstable";
import { fromMcpServer } from "@agentclientprotocol/sdk/experimental/mcp-server";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { toolsServer, type ToolsServerLog } from "../../examples/mcp-tools.ts";

const agentPath = fileURLToPath(new URL("../../examples/agent-mcp.ts", import.meta.url));
const cwd = fileURLToPath(new URL("../../", import.meta.url));

interface Running {
  readonly log: ToolsServerLog;
  readonly serverId: string;
  /**
   * Sends one prompt; resolves with its stop reason. `onChunk` may act on each message chunk. The
   * SDK 2.4.0 client may hand a turn's last updates over after the turn's answer (PITFALLS #1), so
   * tests read {@link Running.chunks} with `expect.poll`.
   */
  prompt(text: string, onChunk?: (text: string) => void): Promise<string>;
  /** The message chunks of the latest prompt so far. */
  chunks(): string[];
  /** Sends session/cancel for the session's running turn. */
  cancel(): void;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function start(): Promise<Running> {
  const child = spawn(process.execPath, ["--import", "tsx", agentPath], { cwd, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (t: string) => (stderr += t));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const provider = new acp.McpOverAcpProvider();
  let onChunk: ((text: string) => void) | undefined;
  const chunks: string[] = [];
  const connection = acp
    .client({ name: "sdk-mcp-client" })
    .onRequest(acp.methods.client.mcp.message, provider.handleRequest)
    .onRequest(acp.methods.client.session.requestPermission, () => ({ outcome: { outcome: "cancelled" } }))
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      const u = params.update;
      if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") {
        chunks.push(u.content.text);
        onChunk?.(u.content.text);
      }
    })
    .connect(acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
  cleanups.push(async () => {
    connection.close();
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(stderr).toBe("");
  });
  const agent = connection.agent;
  const init = (await agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} })) as { agentCapabilities?: { mcpCapabilities?: unknown } };
  expect(init.agentCapabilities?.mcpCapabilities).toEqual({ acp: true });
  const log: ToolsServerLog = { cancelled: [], started: [] };
  const tools = fromMcpServer(toolsServer(log));
  const registration = provider.registerServer(agent, { name: "tools", handler: tools.handler });
  const { sessionId } = (await agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [registration.declaration] })) as { sessionId: string };
  return {
    log,
    serverId: registration.serverId,
    async prompt(text, act) {
      chunks.length = 0;
      onChunk = act === undefined ? undefined : (t) => act(t);
      const { stopReason } = (await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] })) as { stopReason: string };
      return stopReason;
    },
    chunks: () => [...chunks],
    cancel() {
      void agent.notify(acp.methods.agent.session.cancel, { sessionId });
    },
  };
}

/** tools/list and tools/call echo "hello" from a direct MCP client of the same server. */
async function direct(): Promise<unknown> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(toolsServer(), { transport: serverSide, legacy: "reject" });
  const client = new Client({ name: "direct", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(clientSide);
  const out = { tools: await client.listTools(), echo: await client.callTool({ name: "echo", arguments: { text: "hello" } }) };
  await client.close();
  await handle.close();
  return JSON.parse(JSON.stringify(out));
}

describe("the official SDK client's MCP provider serving our agent's caller over stdio", () => {
  it("tools/list and tools/call give the same results as a direct MCP client of the same server", async () => {
    const r = await start();
    expect(await r.prompt("json")).toBe("end_turn");
    await expect.poll(() => r.chunks().length).toBe(1);
    expect(JSON.parse(r.chunks()[0] ?? "null")).toEqual(await direct());
  });

  it("calls a tool with progress notifications, each delivered to our MCP client before the answer", async () => {
    const r = await start();
    expect(await r.prompt('call count {"n":3}')).toBe("end_turn");
    await expect.poll(() => r.chunks()).toEqual(["progress 1/3 step 1", "progress 2/3 step 2", "progress 3/3 step 3", "result: counted to 3"]);
  });

  it("[ACP-MCP-404] reads an inner MCP error from a successful answer", async () => {
    const r = await start();
    expect(await r.prompt("call nope {}")).toBe("end_turn");
    await expect.poll(() => r.chunks()).toEqual(["MCP error -32602: Tool nope not found"]);
  });

  it("cancels the inner request when the turn is cancelled: $/cancel_request reaches the SDK's provider and the MCP server", async () => {
    const r = await start();
    let sent = false;
    const turn = await r.prompt("call wait {}", (text) => {
      if (text.startsWith("progress 0") && !sent) {
        sent = true;
        r.cancel();
      }
    });
    expect(turn).toBe("cancelled");
    expect(r.chunks()).toEqual(["progress 0 started"]);
    await expect.poll(() => r.log.cancelled.length).toBe(1);
    // The connection keeps serving.
    expect(await r.prompt('call echo {"text":"after"}')).toBe("end_turn");
    await expect.poll(() => r.chunks()).toEqual(["result: after"]);
  });

  it("[ACP-MCP-406] refuses an undeclared serverId before sending anything", async () => {
    const r = await start();
    expect(await r.prompt("ask nobody")).toBe("end_turn");
    await expect.poll(() => r.chunks()).toEqual(['refused: MCP server "nobody" was not declared for session "mcp-1"; not sent']);
  });

  it("serves the declared server over our agent's loopback HTTP bridge, forwarding to the SDK's provider", async () => {
    const r = await start();
    expect(await r.prompt("bridge")).toBe("end_turn");
    await expect.poll(() => r.chunks()).toEqual(["result: through the bridge"]);
  });
});
