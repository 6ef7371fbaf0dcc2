/**
 * Figure 14 — one MCP tool call (`tools/call echo`, MCP 2026-07-28, the MCP
 * SDK's client and server on both paths): over ACP (`acp-router/mcp`: the
 * agent's MCP client sends `mcp/message`, the client's provider hands it to
 * the server, both ACP sides in this process over a memory pair) against the
 * same call over loopback HTTP (the MCP SDK's Streamable HTTP client and its
 * `createMcpHandler` behind `node:http` on 127.0.0.1). Median µs per call.
 *
 *   node --expose-gc --import tsx bench/mcp.ts [--quick]
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { toolsServer } from "../examples/mcp-tools.ts";
import { createMcpCaller, createMcpProvider } from "../src/mcp/index.ts";
import { connectAgent, connectClient, memoryPair, type AgentHandler } from "../src/unstable/index.ts";
import { emit, QUICK, Recorder, rotate, selected, tick, time } from "./lib/harness.ts";

const ROUNDS = QUICK ? 1 : 5;
const MIN_TIME_NS = QUICK ? 10e6 : 200e6;
const ARGS = { name: "echo", arguments: { text: "hello" } };
const EXPECTED = JSON.stringify([{ type: "text", text: "hello" }]);

interface Peer {
  call(): Promise<unknown>;
  close(): Promise<void>;
}

/** Our two ACP sides in one process: the agent's MCP client (caller) → mcp/message → the client's provider → the MCP server. */
async function overAcp(): Promise<Peer> {
  const caller = createMcpCaller();
  const provider = createMcpProvider();
  let captured: Client | undefined;
  const agent: AgentHandler = caller.agent({
    initialize: () => ({ protocolVersion: 1, agentCapabilities: { mcpCapabilities: { acp: true } } }),
    newSession: () => ({ sessionId: "bench" }),
    async prompt(_params, ctx) {
      const [server] = caller.servers(ctx);
      captured = await caller.client(ctx, server?.serverId ?? "");
      return { stopReason: "end_turn" };
    },
  } satisfies AgentHandler);
  const [a, c] = memoryPair();
  const agentConn = connectAgent(agent, a);
  const client = connectClient({ sessionUpdate() {}, requestPermission: () => ({ outcome: { outcome: "cancelled" } }), mcpMessage: provider.mcpMessage }, c);
  await client.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
  const tools = provider.register(client, { name: "tools", server: toolsServer() });
  const { sessionId } = await client.agent.newSession(await provider.declare(client, { cwd: "/", mcpServers: [tools.declaration] }));
  // The MCP client is the connection's: captured in a turn, it serves every later call.
  await client.agent.prompt({ sessionId, prompt: [{ type: "text", text: "connect" }] });
  const mcp = captured as Client;
  return {
    call: () => mcp.callTool(ARGS),
    async close() {
      client.close();
      agentConn.close();
    },
  };
}

/** The same server over loopback Streamable HTTP, with the MCP SDK on both ends. */
async function overHttp(): Promise<Peer> {
  const handler = createMcpHandler(toolsServer(), { legacy: "reject" });
  const http = createServer((req, res) => void forward(handler.fetch, req, res));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  const mcp = new Client({ name: "bench", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await mcp.connect(new StreamableHTTPClientTransport(url));
  return {
    call: () => mcp.callTool(ARGS),
    async close() {
      await mcp.close();
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** node:http → a fetch handler and back (body read whole, response streamed). */
async function forward(fetch: (request: Request) => Promise<Response>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const body = req.method === "GET" || req.method === "HEAD" ? null : Buffer.concat(chunks);
  const response = await fetch(new Request(`http://127.0.0.1${req.url ?? "/"}`, { method: req.method ?? "GET", headers, body }));
  const out: Record<string, string> = {};
  response.headers.forEach((value, key) => (out[key] = value));
  res.writeHead(response.status, out);
  if (response.body === null) res.end();
  else Readable.fromWeb(response.body as WebReadableStream).pipe(res);
}

const rec = new Recorder();
const peers: Record<string, Peer> = {};
if (selected("acp")) peers["MCP over ACP (acp-router/mcp)"] = await overAcp();
if (selected("http")) peers["MCP over loopback HTTP (MCP SDK)"] = await overHttp();
for (const [name, peer] of Object.entries(peers)) {
  const result = (await peer.call()) as { content?: unknown };
  rec.verify(name, JSON.stringify(result.content) === EXPECTED);
}
for (let round = 0; round < ROUNDS; round++) {
  for (const name of rotate(Object.keys(peers), round)) {
    const peer = peers[name] as Peer;
    const t = await time(() => peer.call(), MIN_TIME_NS);
    rec.add("tools/call echo p50 (µs)", name, t.p50 / 1e3);
    await tick();
  }
}
for (const peer of Object.values(peers)) await peer.close();
rec.notes.push(`one call at a time; ${ROUNDS} round(s) alternating the paths; over ACP both ACP sides share this process (memory pair, bytes framed as on stdio), over HTTP a loopback socket`);
rec.notes.push("over HTTP the MCP SDK's createMcpHandler builds a server from the factory for each request (its stateless 2026-07-28 serving); over ACP the provider serves the connection with one instance (the SDK's serveStdio over a custom transport)");
emit(rec.result({ figure: "mcp", title: "MCP tool call: over ACP vs loopback HTTP (µs)", unit: "µs", better: "lower", rounds: ROUNDS }));
