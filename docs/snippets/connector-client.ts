// A client that offers ACP v2 and falls back to v1: negotiateClient returns the agreed version's proxy.
import { protocol as v1Protocol, type ClientHandler } from "../../src/index.ts";
import { spawnAgent } from "../../src/transport/stdio.ts";
import { protocol as v2Protocol } from "../../src/v2/index.ts";
import { negotiateClient } from "../../src/versions/index.ts";

const agent = spawnAgent(process.execPath, ["--import", "tsx", new URL("./dual-agent.ts", import.meta.url).pathname]);
let turnOver!: (stopReason: unknown) => void;
const idle = new Promise((resolve) => (turnOver = resolve));
// A handler written apart from the call is typed by its entry's ClientHandler.
const v1Client: ClientHandler = { requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} };

const negotiated = await negotiateClient(agent.transport, {
  v1: { protocol: v1Protocol, handler: v1Client, initialize: { protocolVersion: 1, clientCapabilities: {} } },
  v2: {
    protocol: v2Protocol,
    handler: {
      requestPermission: () => ({ outcome: { outcome: "cancelled" } }),
      sessionUpdate: ({ update }) => {
        if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") console.log(update.content.text);
        if (update.sessionUpdate === "state_update" && update.state === "idle") turnOver(update.stopReason);
      },
    },
    initialize: { protocolVersion: 2, info: { name: "readme-client", version: "1.0.0" }, capabilities: {} },
  },
});
console.log(`negotiated protocol ${negotiated.version}`);
if (negotiated.version === 2) {
  const { sessionId } = await negotiated.agent.newSession({ cwd: process.cwd() });
  await negotiated.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hello" }] });
  console.log(`[${String(await idle)}]`);
}
negotiated.connection.close();
await agent.exited;
