// MCP-over-ACP between our own two sides in one process (memoryPair, bytes on the wire): our client
// hosts a real MCP SDK server over ACP (createMcpProvider), our agent calls it through an MCP SDK
// client whose requests are mcp/message calls (createMcpCaller), and the loopback HTTP bridge serves
// the same server to an agent without mcpCapabilities.acp.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { createMcpCaller, createMcpProvider, McpBindingError, type McpCaller, type McpProvider, type McpRegistration } from "../../src/mcp/index.ts";
import { connectAgent, connectClient, memoryPair, type RpcError, type AgentHandler, type ClientConnection, type ClientHandler } from "../../src/unstable/index.ts";
import { toolsServer, type ToolsServerLog } from "../../examples/mcp-tools.ts";

type Ctx = Parameters<NonNullable<AgentHandler["prompt"]>>[1];
type Probe = (ctx: Ctx, caller: McpCaller) => Promise<unknown>;

interface Setup {
  readonly client: ClientConnection;
  readonly provider: McpProvider;
  readonly tools: McpRegistration;
  readonly log: ToolsServerLog;
  readonly sessionId: string;
  readonly declared: readonly unknown[];
  /** Runs `probe` inside the agent's prompt handler (a real handler context) and returns what it returned or threw (`{ thrown }`). */
  run(probe: Probe, sessionId?: string): Promise<unknown>;
}

const open: ClientConnection[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

async function setup(mcpCapabilities: { acp?: boolean; http?: boolean }, declare = true): Promise<Setup> {
  const caller = createMcpCaller({ clientInfo: { name: "test-agent", version: "1" } });
  const provider = createMcpProvider({ maxMessageBytes: 64 * 1024 });
  let probe: Probe = async () => undefined;
  let probed: unknown;
  let sessions = 0;
  const handler: AgentHandler = caller.agent({
    initialize: () => ({ protocolVersion: 1, agentCapabilities: { mcpCapabilities } }),
    newSession: () => ({ sessionId: `s${++sessions}` }),
    async prompt(_params, ctx) {
      probed = await probe(ctx, caller).catch((error: unknown) => ({ thrown: error }));
      return { stopReason: "end_turn" };
    },
  } satisfies AgentHandler);
  const [a, c] = memoryPair();
  connectAgent(handler, a);
  const clientHandler: ClientHandler = { sessionUpdate() {}, requestPermission: () => ({ outcome: { outcome: "cancelled" } }), mcpMessage: provider.mcpMessage };
  const client = connectClient(clientHandler, c);
  open.push(client);
  await client.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
  const log: ToolsServerLog = { cancelled: [], started: [] };
  const tools = provider.register(client, { name: "tools", server: toolsServer(log) });
  const params = declare ? await provider.declare(client, { cwd: "/", mcpServers: [tools.declaration] }) : { cwd: "/", mcpServers: [] };
  const { sessionId } = await client.agent.newSession(params);
  return {
    client,
    provider,
    tools,
    log,
    sessionId,
    declared: params.mcpServers,
    async run(p, session = sessionId) {
      probe = p;
      await client.agent.prompt({ sessionId: session, prompt: [{ type: "text", text: "go" }] });
      return probed;
    },
  };
}

/** The results a direct MCP SDK client gets from the same server (no ACP in between). */
async function direct(): Promise<{ tools: unknown; echo: unknown }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const handle = serveStdio(toolsServer(), { transport: serverSide, legacy: "reject" });
  const client = new Client({ name: "direct", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(clientSide);
  const out = { tools: await client.listTools(), echo: await client.callTool({ name: "echo", arguments: { text: "hello" } }) };
  await client.close();
  await handle.close();
  return out;
}

const thrown = (value: unknown) => (value as { thrown: { code?: number; message: string; data?: unknown } }).thrown;

describe("MCP-over-ACP between our client (provider) and our agent (caller)", () => {
  it("tools/list and tools/call give the same results as calling the MCP server directly", async () => {
    const s = await setup({ acp: true });
    expect(s.declared).toEqual([{ type: "acp", name: "tools", serverId: s.tools.serverId }]);
    const got = await s.run(async (ctx, caller) => {
      const client = await caller.client(ctx, s.tools.serverId);
      return { tools: await client.listTools(), echo: await client.callTool({ name: "echo", arguments: { text: "hello" } }) };
    });
    expect(got).toEqual(await direct());
  });

  it("[ACP-MCP-405] delivers the server's progress notifications to the caller, in order, before the answer", async () => {
    const s = await setup({ acp: true });
    const got = await s.run(async (ctx, caller) => {
      const client = await caller.client(ctx, s.tools.serverId);
      const seen: unknown[] = [];
      const result = await client.callTool({ name: "count", arguments: { n: 3 } }, { onprogress: (p) => seen.push([p.progress, p.total, p.message]) });
      return { seen, result: result.content };
    });
    expect(got).toEqual({
      seen: [
        [1, 3, "step 1"],
        [2, 3, "step 2"],
        [3, 3, "step 3"],
      ],
      result: [{ type: "text", text: "counted to 3" }],
    });
  });

  it("[ACP-MCP-403] [ACP-MCP-404] carries an inner MCP error in a successful answer's `error`, which the MCP client reads as that error", async () => {
    const s = await setup({ acp: true });
    const got = await s.run(async (ctx, caller) => {
      const raw = await ctx.peer.mcpMessage({ serverId: s.tools.serverId, requestId: "raw-1", method: "tools/call", params: { name: "nope", arguments: {}, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } });
      const client = await caller.client(ctx, s.tools.serverId);
      const viaClient = await client.callTool({ name: "nope", arguments: {} }).catch((e: { code: number; message: string }) => ({ code: e.code, message: e.message }));
      return { raw, viaClient };
    });
    expect(got).toEqual({ raw: { error: { code: -32602, message: "Tool nope not found" } }, viaClient: { code: -32602, message: "Tool nope not found" } });
  });

  it("cancels the outer call when the inner request is cancelled, and the MCP server sees the cancellation", async () => {
    const s = await setup({ acp: true });
    const got = await s.run(async (ctx, caller) => {
      const client = await caller.client(ctx, s.tools.serverId);
      const controller = new AbortController();
      const call = client.callTool({ name: "wait", arguments: {} }, { signal: controller.signal }).then(
        () => "answered",
        (e: Error) => e.message,
      );
      while (s.log.started.length === 0) await new Promise((r) => setTimeout(r, 5));
      controller.abort();
      const outcome = await call;
      while (s.log.cancelled.length === 0) await new Promise((r) => setTimeout(r, 5));
      // The connection keeps serving.
      const echo = await client.callTool({ name: "echo", arguments: { text: "after" } });
      return { outcome, cancelled: s.log.cancelled.length, echo: echo.content };
    });
    expect(got).toEqual({ outcome: "AbortError: This operation was aborted", cancelled: 1, echo: [{ type: "text", text: "after" }] });
  });

  it("[ACP-MCP-406] refuses a server in a session that did not declare it, though another session of the connection did", async () => {
    const s = await setup({ acp: true });
    const { sessionId: other } = await s.client.agent.newSession({ cwd: "/", mcpServers: [] });
    const got = await s.run((ctx, caller) => caller.client(ctx, s.tools.serverId), other);
    expect(thrown(got)).toMatchObject({ code: -32601, data: { reason: `MCP server ${JSON.stringify(s.tools.serverId)} was not declared for session "s2"; not sent` } });
    // The declaring session still may.
    const ok = await s.run(async (ctx, caller) => (await (await caller.client(ctx, s.tools.serverId)).listTools()).tools.length);
    expect(ok).toBe(3);
  });

  it("[ACP-MCP-406] refuses an undeclared serverId before sending (caller), and answers -33001 for one sent anyway (provider)", async () => {
    const s = await setup({ acp: true });
    const got = await s.run(async (ctx, caller) => {
      const refused = await caller.client(ctx, "nobody").catch((e: RpcError) => ({ code: e.code, reason: (e.data as { reason: string }).reason }));
      const raw = await ctx.peer.mcpMessage({ serverId: "nobody", requestId: "r", method: "tools/list" }).catch((e: RpcError) => ({ code: e.code, message: e.message }));
      return { refused, raw };
    });
    expect(got).toEqual({
      refused: { code: -32601, reason: 'MCP server "nobody" was not declared for session "s1"; not sent' },
      raw: { code: McpBindingError.ServerUnavailable, message: "MCP server registration unavailable" },
    });
  });

  it("refuses the caller through the one gate when the agent did not advertise mcpCapabilities.acp", async () => {
    const s = await setup({ http: true });
    const got = await s.run(async (ctx, caller) => caller.client(ctx, s.tools.serverId));
    expect(thrown(got)).toMatchObject({ code: -32601, data: { reason: "agentCapabilities.mcpCapabilities.acp was not advertised by the agent; not sent" } });
  });
});

describe("calling a server while the session that declares it is being opened", () => {
  it("[ACP-MCP-406] lets the session/new handler call a server its own params declare, and no other", async () => {
    const caller = createMcpCaller();
    const provider = createMcpProvider();
    let seen: unknown;
    const handler: AgentHandler = caller.agent({
      initialize: () => ({ protocolVersion: 1, agentCapabilities: { mcpCapabilities: { acp: true } } }),
      async newSession(params, ctx) {
        const [server] = caller.servers(ctx);
        const client = await caller.client(ctx, server?.serverId ?? "");
        const refused = await caller.client(ctx, "other").catch((e: RpcError) => (e.data as { reason: string }).reason);
        seen = { tools: (await client.listTools()).tools.map((t) => t.name), refused, declared: params.mcpServers.length };
        return { sessionId: "early" };
      },
      prompt: () => ({ stopReason: "end_turn" }),
    } satisfies AgentHandler);
    const [a, c] = memoryPair();
    connectAgent(handler, a);
    const client = connectClient({ sessionUpdate() {}, requestPermission: () => ({ outcome: { outcome: "cancelled" } }), mcpMessage: provider.mcpMessage }, c);
    open.push(client);
    await client.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    const tools = provider.register(client, { name: "tools", server: toolsServer() });
    expect(await client.agent.newSession(await provider.declare(client, { cwd: "/", mcpServers: [tools.declaration] }))).toEqual({ sessionId: "early" });
    expect(seen).toEqual({ tools: ["echo", "count", "wait"], refused: 'MCP server "other" was not declared for this request; not sent', declared: 1 });
  });
});

describe("a class instance as the agent handler", () => {
  it("keeps its prototype methods and their `this` when wrapped by the caller", async () => {
    const caller = createMcpCaller();
    const provider = createMcpProvider();
    class Agent {
      readonly names: string[] = [];
      initialize() {
        return { protocolVersion: 1, agentCapabilities: { mcpCapabilities: { acp: true } } };
      }
      newSession() {
        return { sessionId: "c1" };
      }
      async prompt(_params: unknown, ctx: Ctx) {
        const [server] = caller.servers(ctx);
        const client = await caller.client(ctx, server?.serverId ?? "");
        this.names.push(...(await client.listTools()).tools.map((t) => t.name));
        return { stopReason: "end_turn" as const };
      }
    }
    const instance = new Agent();
    const [a, c] = memoryPair();
    connectAgent(caller.agent(instance) as AgentHandler, a);
    const client = connectClient({ sessionUpdate() {}, requestPermission: () => ({ outcome: { outcome: "cancelled" } }), mcpMessage: provider.mcpMessage }, c);
    open.push(client);
    await client.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    const tools = provider.register(client, { name: "tools", server: toolsServer() });
    const { sessionId } = await client.agent.newSession(await provider.declare(client, { cwd: "/", mcpServers: [tools.declaration] }));
    expect(await client.agent.prompt({ sessionId, prompt: [{ type: "text", text: "go" }] })).toEqual({ stopReason: "end_turn" });
    expect(instance.names).toEqual(["echo", "count", "wait"]);
  });
});

describe("the loopback HTTP bridge (an agent without mcpCapabilities.acp)", () => {
  it("[ACP-MCP-407] rewrites the acp entry into a 127.0.0.1 http entry whose MCP answers match the direct ones", async () => {
    const s = await setup({ http: true });
    const entry = s.declared[0] as { type: string; name: string; url: string; headers: { name: string; value: string }[] };
    expect(entry.type).toBe("http");
    expect(entry.name).toBe("tools");
    expect(new URL(entry.url).hostname).toBe("127.0.0.1");
    expect(entry.headers[0]?.name).toBe("Authorization");
    const headers = Object.fromEntries(entry.headers.map((h) => [h.name, h.value]));
    const client = new Client({ name: "http-agent", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers } }));
    const seen: number[] = [];
    const got = { tools: await client.listTools(), echo: await client.callTool({ name: "echo", arguments: { text: "hello" } }) };
    const counted = await client.callTool({ name: "count", arguments: { n: 2 } }, { onprogress: (p) => seen.push(p.progress) });
    expect(got).toEqual(await direct());
    expect(seen).toEqual([1, 2]);
    expect(counted.content).toEqual([{ type: "text", text: "counted to 2" }]);
    await client.close();
    // Without the bearer token: 401.
    expect((await fetch(entry.url, { method: "POST", body: "{}" })).status).toBe(401);
    // A body over the bound: 413 with -33000; the bridge keeps serving.
    const big = await fetch(entry.url, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(2 * 1024 * 1024) } }) });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { code: number } }).error.code).toBe(McpBindingError.ResourceLimitExceeded);
    s.client.close();
    await s.client.closed;
    // Closed with the connection.
    await new Promise((r) => setTimeout(r, 20));
    await expect(fetch(entry.url, { method: "POST", headers, body: "{}" })).rejects.toThrow();
  });
});

describe("bad input to the provider", () => {
  it("[ACP-MCP-404] answers -33001 for a server registered but never declared in a session, -33000 for an inner message over the bound, and keeps serving", async () => {
    const s = await setup({ acp: true }, false);
    const hidden = s.tools.serverId;
    const declaredOne = s.provider.register(s.client, { name: "other", server: toolsServer() });
    await s.provider.declare(s.client, { cwd: "/", mcpServers: [declaredOne.declaration] });
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const got = await s.run(async (ctx) => {
      const err = (e: RpcError) => ({ code: e.code, message: e.message });
      const undeclared = await ctx.peer.mcpMessage({ serverId: hidden, requestId: "a", method: "tools/list", params: { _meta: meta } }).catch(err);
      const oversized = await ctx.peer.mcpMessage({ serverId: declaredOne.serverId, requestId: "b", method: "tools/call", params: { name: "echo", arguments: { text: "x".repeat(100 * 1024) }, _meta: meta } }).catch(err);
      const fine = await ctx.peer.mcpMessage({ serverId: declaredOne.serverId, requestId: "c", method: "tools/call", params: { name: "echo", arguments: { text: "ok" }, _meta: meta } });
      return { undeclared, oversized, fine };
    });
    expect(got).toEqual({
      undeclared: { code: -33001, message: `MCP server ${JSON.stringify(hidden)} was not declared in a session of this connection` },
      oversized: { code: -33000, message: "MCP message larger than maxMessageBytes (65536)" },
      fine: { result: { content: [{ type: "text", text: "ok" }], resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": { name: "tools", version: "1.0.0" } } } },
    });
  });

  it("never reuses a serverId on one connection", async () => {
    const s = await setup({ acp: true });
    expect(() => s.provider.register(s.client, { name: "again", server: toolsServer(), serverId: s.tools.serverId })).toThrow(/already used on this connection/);
    await s.tools.close();
    expect(() => s.provider.register(s.client, { name: "again", server: toolsServer(), serverId: s.tools.serverId })).toThrow(/already used on this connection/);
  });
});
