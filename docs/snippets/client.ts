// A client: spawn the agent, say hello, print what streams back.
import { connectClient, type ClientHandler } from "../../src/index.ts";
import { spawnAgent } from "../../src/transport/stdio.ts";

const agentFile = new URL("./agent.ts", import.meta.url).pathname;
const agent = spawnAgent(process.execPath, ["--import", "tsx", agentFile], { stderr: "inherit" });

const client: ClientHandler = {
  requestPermission: () => ({ outcome: { outcome: "cancelled" } }),
  sessionUpdate({ update }) {
    if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") process.stdout.write(update.content.text);
  },
};

const conn = connectClient(client, agent.transport);
await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false } } });
const { sessionId } = await conn.agent.newSession({ cwd: process.cwd(), mcpServers: [] });
const { stopReason } = await conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hello" }] });
process.stdout.write(`\n[${stopReason}]\n`);
conn.close();
await agent.exited;
