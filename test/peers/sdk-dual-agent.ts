// A dual-version agent built only on the official SDK: agentProtocolRouter with a v1 agent and the v2
// agent of sdk-v2-agent.ts. Run: node --import tsx test/peers/sdk-dual-agent.ts (NDJSON on stdio).
// v1: initialize answers protocol 1 with agentInfo sdk-dual-v1; session/new gives `v1-session`;
// a prompt is echoed as one chunk "v1 said: <text>" and ends `end_turn`. v2: see sdk-v2-agent.ts.
import * as acp from "@agentclientprotocol/sdk";
import { agentProtocolRouter } from "@agentclientprotocol/sdk/experimental/v2";
import { createSdkV2Agent, serveSdkStdio } from "./sdk-v2-agent.ts";

const v1 = acp
  .agent({ name: "sdk-dual-v1" })
  .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: 1, agentCapabilities: {}, agentInfo: { name: "sdk-dual-v1", version: "0.0.0" } }))
  .onRequest(acp.methods.agent.session.new, () => ({ sessionId: "v1-session" }))
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const text = params.prompt.map((b) => (b.type === "text" ? b.text : "")).join("");
    await client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `v1 said: ${text}` } } });
    return { stopReason: "end_turn" as const };
  });

serveSdkStdio(agentProtocolRouter().withV1(v1).withV2(createSdkV2Agent()) as never, "sdk-dual-agent");
