// A client that offers ACP v2 and falls back to v1: negotiateClient returns the agreed version's proxy.
import { connectClient } from "../../src/index.ts";
import { spawnAgent } from "../../src/transport/stdio.ts";
import { connectClient as connectClientV2 } from "../../src/v2/index.ts";
import { negotiateClient } from "../../src/versions/index.ts";

const agent = spawnAgent(process.execPath, ["--import", "tsx", new URL("./dual-agent.ts", import.meta.url).pathname]);
let turnOver!: (stopReason: unknown) => void;
const idle = new Promise((resolve) => (turnOver = resolve));

const negotiated = await negotiateClient(agent.transport, {
  v1: { connect: (t) => connectClient({ requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} }, t), initialize: { protocolVersion: 1, clientCapabilities: {} } },
  v2: {
    connect: (t) =>
      connectClientV2({
        requestPermission: () => ({ outcome: { outcome: "cancelled" } }),
        sessionUpdate: ({ update }) => {
          if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") console.log(update.content.text);
          if (update.sessionUpdate === "state_update" && update.state === "idle") turnOver(update.stopReason);
        },
      }, t),
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
