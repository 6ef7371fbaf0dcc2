// Interop, one way: our client's provider (createMcpProvider, hosting the MCP SDK server of
// examples/mcp-tools.ts) serves the official SDK 2.4.0 agent's MCP-over-ACP caller
// (test/mcp/fixtures/sdk-mcp-agent.ts, a real process over stdio): a tool call with progress
// notifications, an inner MCP error, a cancelled inner request, an undeclared serverId, and the
// loopback HTTP bridge for the same agent advertising only mcpCapabilities.http.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createMcpProvider, McpBindingError, type McpRegistration } from "../../src/mcp/index.ts";
import { spawnAgent, type AgentProcess } from "../../src/transport/stdio.ts";
import { connectClient, type ClientConnection, type ClientHandler, type Diagnostic, type Transport } from "../../src/unstable/index.ts";
import { toolsServer, type ToolsServerLog } from "../../examples/mcp-tools.ts";

const agentPath = fileURLToPath(new URL("./fixtures/sdk-mcp-agent.ts", import.meta.url));
const cwd = fileURLToPath(new URL("../../", import.meta.url));
const serverInfo = { "io.modelcontextprotocol/serverInfo": { name: "tools", version: "1.0.0" } };

interface Running {
  readonly proc: AgentProcess;
  readonly conn: ClientConnection;
  readonly tools: McpRegistration;
  readonly log: ToolsServerLog;
  readonly diagnostics: Diagnostic[];
  /** Every line our client wrote, parsed. */
  readonly written: Record<string, unknown>[];
  /** Runs a scenario in the SDK agent and returns what it observed. */
  run(name: string): Promise<unknown>;
}

const running: Running[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    r.conn.close();
    expect((await r.proc.exited).code).toBe(0);
  }
});

async function start(args: string[] = []): Promise<Running> {
  const proc = spawnAgent(process.execPath, ["--import", "tsx", agentPath, ...args], { cwd, stderr: "capture", killAfterMs: 10_000 });
  const mcp = createMcpProvider();
  let last = "";
  const handler: ClientHandler = {
    sessionUpdate({ update }) {
      if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") last = update.content.text;
    },
    requestPermission: () => ({ outcome: { outcome: "cancelled" } }),
    mcpMessage: mcp.mcpMessage,
  };
  const diagnostics: Diagnostic[] = [];
  const written: Record<string, unknown>[] = [];
  const t = proc.transport;
  // A tap on what our client writes: the order on the wire, whatever the SDK then does with it.
  const tapped: Transport = {
    start: (receiver) => t.start(receiver),
    write: (text) => {
      for (const line of text.split("\n")) if (line.trim() !== "") written.push(JSON.parse(line) as Record<string, unknown>);
      t.write(text);
    },
    close: () => t.close(),
    pause: () => t.pause?.(),
    resume: () => t.resume?.(),
  };
  const conn = connectClient(handler, tapped, { onDiagnostic: (d) => diagnostics.push(d) });
  await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
  const log: ToolsServerLog = { cancelled: [], started: [] };
  const tools = mcp.register(conn, { name: "tools", server: toolsServer(log) });
  const { sessionId } = await conn.agent.newSession(await mcp.declare(conn, { cwd, mcpServers: [tools.declaration] }));
  const r: Running = {
    proc,
    conn,
    tools,
    log,
    diagnostics,
    written,
    async run(name) {
      await conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: name }] });
      return JSON.parse(last) as unknown;
    },
  };
  running.push(r);
  return r;
}

describe("our client's MCP provider serving the official SDK agent's caller over stdio", () => {
  it("[ACP-MCP-405] answers a tool call, writing its progress notifications before the answer; the SDK caller receives them in order", async () => {
    const r = await start();
    const got = (await r.run("progress")) as { progress: unknown[]; outcome: unknown };
    expect(got.outcome).toEqual({ result: { content: [{ type: "text", text: "counted to 3" }], resultType: "complete", _meta: serverInfo } });
    // On the wire: the three notifications for the active request, then its answer.
    const mcpLines = r.written.filter((m) => m.method === "mcp/message" || (m.result as { result?: unknown } | undefined)?.result !== undefined);
    expect(mcpLines.map((m) => (m.method === undefined ? "answer" : (m.params as { params: { progress: number } }).params.progress))).toEqual([1, 2, 3, "answer"]);
    // The SDK 2.4.0 caller drops a notification it handles after the answer that followed it on the wire
    // (its route is removed when the answer resolves; PITFALLS #1): what it saw is an in-order prefix.
    const all = [1, 2, 3].map((n) => ["notifications/progress", n]);
    expect(got.progress.length).toBeGreaterThan(0);
    expect(got.progress).toEqual(all.slice(0, got.progress.length));
  });

  it("[ACP-MCP-403] [ACP-MCP-404] carries an inner MCP error in a successful answer", async () => {
    const r = await start();
    expect(await r.run("error")).toEqual({ error: { code: -32602, message: "Tool nope not found" } });
  });

  it("cancels a running inner request: the SDK's $/cancel_request reaches the MCP server, the call answers -32800", async () => {
    const r = await start();
    expect(await r.run("cancel")).toEqual({ code: -32800, message: "Request cancelled" });
    expect(r.log.started).toHaveLength(1);
    await expect.poll(() => r.log.cancelled.length).toBe(1);
    // The connection keeps serving.
    expect(await r.run("error")).toEqual({ error: { code: -32602, message: "Tool nope not found" } });
  });

  it("[ACP-MCP-406] refuses an undeclared serverId with the binding's -33001", async () => {
    const r = await start();
    expect(await r.run("undeclared")).toEqual({ code: McpBindingError.ServerUnavailable, message: "MCP server registration unavailable" });
  });

  it("[ACP-MCP-407] bridges over loopback HTTP for the SDK agent advertising only mcpCapabilities.http", async () => {
    const r = await start(["--http"]);
    const got = (await r.run("http")) as { tools: { tools: { name: string }[] }; echo: unknown; count: unknown; progress: number[] };
    expect(got.tools.tools.map((t) => t.name)).toEqual(["echo", "count", "wait"]);
    expect(got.echo).toEqual({ content: [{ type: "text", text: "hello" }], _meta: serverInfo });
    expect(got.count).toEqual({ content: [{ type: "text", text: "counted to 2" }], _meta: serverInfo });
    expect(got.progress).toEqual([1, 2]);
  });
});
