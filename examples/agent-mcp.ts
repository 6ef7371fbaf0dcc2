/**
 * The example agent that calls MCP servers its client hosts over ACP
 * (MCP-over-ACP, `acp-router/mcp`). Run by `examples/mcp-client.ts`, or by
 * any client that declares `{ type: "acp", name, serverId }` servers:
 *
 *   npx tsx examples/agent-mcp.ts            # advertises mcpCapabilities.acp
 *   npx tsx examples/agent-mcp.ts --no-acp   # advertises only mcpCapabilities.http (the client bridges)
 *
 * Prompts (the first declared server is used):
 * - `tools`: lists its tools;
 * - `call <tool> <json arguments>`: calls a tool, streaming its progress
 *   notifications as message chunks; an inner MCP error is reported as
 *   `MCP error <code>: <message>`;
 * - `json`: answers `{ tools, echo }` (tools/list and tools/call echo "hello") as JSON;
 * - `ask <serverId>`: tries a server by id (an undeclared one is refused before anything is sent);
 * - `bridge`: calls `echo` through a loopback HTTP bridge this agent starts (`caller.http`).
 * Cancelling the turn (`session/cancel`) cancels the MCP call in flight.
 */
import { pathToFileURL } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpCaller, type McpCaller } from "../src/mcp/index.ts";
import { serveStdio, type AgentContext, type AgentHandler, type McpServer } from "../src/unstable/index.ts";

type HttpEntry = Extract<McpServer, { type: "http" }>;
const isHttp = (s: McpServer): s is HttpEntry => "type" in s && s.type === "http";

/** Creates the agent's handler: with `acp` false it advertises only `mcpCapabilities.http`. */
export function createMcpAgent(options: { readonly acp?: boolean } = {}): AgentHandler {
  const acp = options.acp ?? true;
  const mcp: McpCaller = createMcpCaller({ clientInfo: { name: "agent-mcp", version: "1.0.0" } });
  const httpServers = new Map<string, HttpEntry[]>();
  let next = 0;

  const say = (ctx: AgentContext, sessionId: string, text: string) => ctx.peer.sessionUpdate({ sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });

  /** An MCP client for the session's first server: over ACP, or over the client's HTTP bridge. */
  const firstClient = async (ctx: AgentContext, sessionId: string): Promise<Client> => {
    const [declared] = mcp.servers(ctx);
    if (declared !== undefined) return mcp.client(ctx, declared.serverId);
    const [entry] = httpServers.get(sessionId) ?? [];
    if (entry === undefined) throw new Error("no MCP server was declared for this session");
    const client = new Client({ name: "agent-mcp", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    const headers = Object.fromEntries(entry.headers.map((h) => [h.name, h.value]));
    await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers } }));
    return client;
  };

  return mcp.agent({
    initialize: () => ({ protocolVersion: 1, agentCapabilities: { mcpCapabilities: acp ? { acp: true } : { http: true } }, agentInfo: { name: "agent-mcp", version: "1.0.0" } }),
    newSession(params) {
      const sessionId = `mcp-${++next}`;
      httpServers.set(sessionId, params.mcpServers.filter(isHttp));
      return { sessionId };
    },
    async prompt({ sessionId, prompt }, ctx) {
      const text = prompt.find((b) => b.type === "text")?.text.trim() ?? "";
      const [command = "", ...rest] = text.split(" ");
      try {
        if (command === "ask") {
          const client = await mcp.client(ctx, rest[0] ?? "");
          await say(ctx, sessionId, `tools: ${(await client.listTools()).tools.map((t) => t.name).join(", ")}`);
        } else if (command === "bridge") {
          const [declared] = mcp.servers(ctx);
          if (declared === undefined) throw new Error("no acp MCP server was declared for this session");
          const bridge = await mcp.http(ctx, declared.serverId);
          try {
            const client = new Client({ name: "agent-mcp", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
            const headers = Object.fromEntries(bridge.declaration.headers.map((h) => [h.name, h.value]));
            await client.connect(new StreamableHTTPClientTransport(new URL(bridge.declaration.url), { requestInit: { headers } }));
            const result = await client.callTool({ name: "echo", arguments: { text: "through the bridge" } }, { signal: ctx.signal });
            await say(ctx, sessionId, `result: ${textOf(result.content)}`);
            await client.close();
          } finally {
            await bridge.close();
          }
        } else {
          const client = await firstClient(ctx, sessionId);
          if (command === "tools") await say(ctx, sessionId, `tools: ${(await client.listTools()).tools.map((t) => t.name).join(", ")}`);
          else if (command === "json") {
            const tools = await client.listTools();
            const echo = await client.callTool({ name: "echo", arguments: { text: "hello" } });
            await say(ctx, sessionId, JSON.stringify({ tools, echo }));
          } else if (command === "call") {
            const [name = "", ...args] = rest;
            const result = await client.callTool(
              { name, arguments: args.length === 0 ? {} : (JSON.parse(args.join(" ")) as Record<string, unknown>) },
              { signal: ctx.signal, onprogress: (p) => void say(ctx, sessionId, `progress ${p.progress}${p.total === undefined ? "" : `/${p.total}`}${p.message === undefined ? "" : ` ${p.message}`}`) },
            );
            await say(ctx, sessionId, `result: ${textOf(result.content)}`);
          } else await say(ctx, sessionId, "prompts: tools | call <tool> <json> | json | ask <serverId> | bridge");
        }
      } catch (error) {
        if (ctx.signal.aborted) return { stopReason: "cancelled" };
        const e = error as { code?: unknown; message?: string; data?: { reason?: string } };
        if (e.data?.reason !== undefined) await say(ctx, sessionId, `refused: ${e.data.reason}`);
        else await say(ctx, sessionId, `MCP error ${String(e.code)}: ${e.message ?? String(error)}`);
      }
      return { stopReason: ctx.signal.aborted ? "cancelled" : "end_turn" };
    },
  } satisfies AgentHandler);
}

function textOf(content: unknown): string {
  return Array.isArray(content) ? content.map((c: { type?: string; text?: string }) => (c.type === "text" ? c.text : `[${c.type}]`)).join("") : "";
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  serveStdio(createMcpAgent({ acp: !process.argv.includes("--no-acp") }));
}
