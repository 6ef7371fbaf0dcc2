// An agent that answers initialize and session/new, and exits as soon as a prompt arrives (mid-turn).
import { createInterface } from "node:readline";

const send = (m) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`);
createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "initialize") send({ id: m.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } });
  else if (m.method === "session/new") send({ id: m.id, result: { sessionId: "s-1" } });
  else if (m.method === "session/prompt") {
    send({ method: "session/update", params: { sessionId: "s-1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "about to die" } } } });
    process.exit(3);
  }
});
