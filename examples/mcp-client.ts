/**
 * The example client that hosts an MCP server over its ACP connection
 * (MCP-over-ACP, `acp-router/mcp`): it spawns `examples/agent-mcp.ts`,
 * registers the MCP SDK server of `examples/mcp-tools.ts`, declares it in
 * `session/new` as `{ type: "acp", name, serverId }`, and prompts the agent
 * to list and call its tools. The agent's MCP requests come back as
 * `mcp/message` calls on the same connection; nothing else is spawned.
 *
 *   npx tsx examples/mcp-client.ts            # the agent advertises mcpCapabilities.acp
 *   npx tsx examples/mcp-client.ts --no-acp   # it does not: the client bridges over loopback HTTP
 *   npx tsx examples/mcp-client.ts --agent "npx tsx bin/acp-router.ts inspect --log - -- npx tsx examples/agent-mcp.ts"
 *
 * Or in-process: `await runMcpClient({ acp: false, output })`.
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createMcpProvider } from "../src/mcp/index.ts";
import { spawnAgent } from "../src/transport/stdio.ts";
import { connectClient, type ClientHandler } from "../src/unstable/index.ts";
import { splitCommandLine } from "./command-line.ts";
import { toolsServer } from "./mcp-tools.ts";

/** The prompts of the tour, in order. */
export const MCP_TOUR = ["tools", 'call echo {"text":"hello over ACP"}', 'call count {"n":3}', "call nope {}", "ask nobody"] as const;

export interface RunMcpClientOptions {
  /** The agent's command and arguments (default: `examples/agent-mcp.ts` with this Node and tsx; `--no-acp` added when `acp` is false). */
  readonly agentCommand?: readonly string[];
  /** Whether the agent advertises `mcpCapabilities.acp` (default true); without it the client serves the server over a loopback HTTP bridge. */
  readonly acp?: boolean;
  /** The prompts (default {@link MCP_TOUR}). */
  readonly prompts?: readonly string[];
  /** Where the transcript goes (default stdout). */
  readonly output?: (line: string) => void;
}

/** Runs the tour against the example MCP agent; resolves with the transcript lines. */
export async function runMcpClient(options: RunMcpClientOptions = {}): Promise<string[]> {
  const acp = options.acp ?? true;
  const lines: string[] = [];
  const print = (line: string) => {
    lines.push(line);
    (options.output ?? ((l: string) => process.stdout.write(`${l}\n`)))(line);
  };
  const agentPath = fileURLToPath(new URL("./agent-mcp.ts", import.meta.url));
  const [command = process.execPath, ...args] = options.agentCommand ?? [process.execPath, "--import", import.meta.resolve("tsx"), agentPath, ...(acp ? [] : ["--no-acp"])];
  const proc = spawnAgent(command, args, { stderr: "inherit" });
  const mcp = createMcpProvider();
  const handler: ClientHandler = {
    sessionUpdate({ update }) {
      if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") print(`  agent: ${update.content.text}`);
    },
    requestPermission: () => ({ outcome: { outcome: "cancelled" } }),
    mcpMessage: mcp.mcpMessage,
  };
  const conn = connectClient(handler, proc.transport);
  try {
    const init = await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    print(`agent advertises mcpCapabilities ${JSON.stringify(init.agentCapabilities?.mcpCapabilities ?? {})}`);
    const tools = mcp.register(conn, { name: "tools", server: toolsServer() });
    const params = await mcp.declare(conn, { cwd: process.cwd(), mcpServers: [tools.declaration] });
    const [entry] = params.mcpServers as readonly { type: string; url?: string }[];
    print(`declared: ${entry?.url !== undefined ? `${entry.type} ${new URL(entry.url).origin} (loopback bridge)` : `${entry?.type} ${tools.name}`}`);
    const { sessionId } = await conn.agent.newSession(params);
    for (const text of options.prompts ?? MCP_TOUR) {
      print(`> ${text}`);
      const { stopReason } = await conn.agent.prompt({ sessionId, prompt: [{ type: "text", text }] });
      if (stopReason !== "end_turn") print(`  (${stopReason})`);
    }
  } finally {
    conn.close();
    await proc.exited;
  }
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({ options: { "no-acp": { type: "boolean" }, agent: { type: "string" } } });
  await runMcpClient({ acp: !values["no-acp"], ...(values.agent === undefined ? {} : { agentCommand: splitCommandLine(values.agent) }) });
}
