// ACP v2 over real stdio against the official SDK's experimental v2 API, both ways, a full turn each
// (prompt acknowledged, updates streamed, the turn ended by an idle state_update, session/cancel),
// and version negotiation: our connector against the SDK's dual-version agent (agentProtocolRouter)
// and its v1-only agent.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import * as v1 from "../../src/index.ts";
import { spawnAgent, type AgentProcess } from "../../src/transport/stdio.ts";
import * as v2 from "../../src/v2/index.ts";
import { negotiateClient } from "../../src/versions/index.ts";
import { startSdkV2Client, type SdkV2Client } from "../peers/sdk-v2-client.ts";
import { until, within } from "../support/async.ts";

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const tsx = (file: string) => [process.execPath, ["--import", "tsx", path(file)]] as const;
const info = { name: "acp-router-test", version: "1" };
const cwd = path("../../");

/** Our v2 client: records every update, resolves `idle(sessionId)` with the next idle state_update's stop reason. */
function ourV2Client() {
  const updates: v2.UpdateSessionNotification[] = [];
  const waiting = new Map<string, (stopReason: unknown) => void>();
  const handler: v2.ClientHandler = {
    requestPermission: () => ({ outcome: { outcome: "cancelled" } }),
    sessionUpdate(params) {
      updates.push(params);
      const u = params.update as { sessionUpdate: string; state?: string; stopReason?: unknown };
      if (u.sessionUpdate === "state_update" && u.state === "idle") waiting.get(params.sessionId)?.(u.stopReason);
    },
  };
  const idle = (sessionId: string) => new Promise<unknown>((resolve) => waiting.set(sessionId, resolve));
  const text = () =>
    updates
      .map((n) => n.update as { sessionUpdate: string; content?: { type: string; text?: string } })
      .map((u) => (u.sessionUpdate === "agent_message_chunk" && u.content?.type === "text" ? (u.content.text ?? "") : ""))
      .join("");
  return { handler, updates, idle, text };
}

const v1Client: v1.ClientHandler = { requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} };
const offer = {
  v1: { protocol: v1.protocol, handler: v1Client, initialize: { protocolVersion: 1, clientCapabilities: {} } },
  v2: (handler: v2.ClientHandler) => ({ protocol: v2.protocol, handler, initialize: { protocolVersion: 2, info, capabilities: {} } }),
};

describe("our v2 client against the SDK's v2 agent over stdio", () => {
  let agent: AgentProcess | undefined;
  afterEach(async () => {
    agent?.transport.close();
    expect(await agent?.exited).toEqual({ code: 0, signal: null });
  });

  it("gets the prompt acknowledged, the answer streamed, and the turn ended by idle end_turn; a session/cancel ends a slow turn cancelled", async () => {
    agent = spawnAgent(...tsx("../peers/sdk-v2-agent.ts"));
    const client = ourV2Client();
    const negotiated = await negotiateClient(agent.transport, { v2: offer.v2(client.handler) });
    expect(negotiated.version).toBe(2);
    if (negotiated.version !== 2) return;
    expect(negotiated.initialized.info).toEqual({ name: "sdk-v2-agent", version: "0.0.0" });
    const { sessionId } = await negotiated.agent.newSession({ cwd });

    const ended = client.idle(sessionId);
    expect(await negotiated.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hello" }] })).toEqual({ messageId: "user-1" });
    expect(await within(ended, "the idle state_update", 10_000)).toBe("end_turn");
    expect(client.text()).toBe("You said: hello");
    expect(client.updates.map((n) => n.update.sessionUpdate)).toEqual(["state_update", "agent_message_chunk", "agent_message_chunk", "state_update"]);

    const cancelled = client.idle(sessionId);
    expect(await negotiated.agent.prompt({ sessionId, prompt: [{ type: "text", text: "slow" }] })).toEqual({ messageId: "user-2" });
    await until(() => client.text().includes(" tick tick"), "two ticks", 10_000);
    await negotiated.agent.cancel({ sessionId });
    expect(await within(cancelled, "the idle state_update after session/cancel", 10_000)).toBe("cancelled");
    negotiated.connection.close();
  });
});

describe("the SDK's v2 client against our example agent (v1 and v2 behind routeAgent) over stdio", () => {
  let client: SdkV2Client | undefined;
  afterEach(async () => {
    expect(await client?.close()).toEqual({ code: 0, signal: null });
    expect(client?.stderr()).toBe("");
  });

  it("initializes v2, gets the prompt acknowledged, reads the streamed answer until idle, and cancels a slow turn", async () => {
    client = startSdkV2Client(...tsx("../../examples/agent.ts"));
    const init = await client.agent.request("initialize", { protocolVersion: 2, info, capabilities: {} });
    expect(init).toMatchObject({ protocolVersion: 2, info: { name: "acp-router-example-agent" }, capabilities: { session: {} } });
    const session = await client.agent.buildSession(cwd).start();
    expect(await session.prompt("hello")).toEqual({ messageId: "user-1" });
    expect(await within(session.readTextUntilIdle(), "the turn's text", 10_000)).toBe("You said (v2): hello\n");

    expect(await session.prompt("slow")).toEqual({ messageId: "user-2" });
    for (;;) {
      const m = await within(session.nextUpdate(), "a chunk of the slow turn", 10_000);
      if (m.kind === "session_update" && m.update.sessionUpdate === "agent_message_chunk") break;
    }
    await client.agent.notify("session/cancel", { sessionId: session.sessionId });
    let stop: Awaited<ReturnType<typeof session.nextUpdate>>;
    do stop = await within(session.nextUpdate(), "the idle state_update after session/cancel", 10_000);
    while (stop.kind !== "stop");
    expect(stop.stopReason).toBe("cancelled");
    session.dispose();
  });
});

describe("our connector against the SDK's agents, by version offered", () => {
  let agent: AgentProcess | undefined;
  afterEach(async () => {
    agent?.transport.close();
    expect(await agent?.exited).toEqual({ code: 0, signal: null });
  });

  it("offering 1 and 2 to the SDK's dual-version agent, keeps v2 and runs a v2 turn", async () => {
    agent = spawnAgent(...tsx("../peers/sdk-dual-agent.ts"));
    const client = ourV2Client();
    const negotiated = await negotiateClient(agent.transport, { v1: offer.v1, v2: offer.v2(client.handler) });
    expect(negotiated.version).toBe(2);
    if (negotiated.version !== 2) return;
    const { sessionId } = await negotiated.agent.newSession({ cwd });
    const ended = client.idle(sessionId);
    await negotiated.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hi" }] });
    expect(await within(ended, "the idle state_update", 10_000)).toBe("end_turn");
    expect(client.text()).toBe("You said: hi");
    negotiated.connection.close();
  });

  it("offering only 1 to the SDK's dual-version agent, gets its v1 agent and runs a v1 turn", async () => {
    agent = spawnAgent(...tsx("../peers/sdk-dual-agent.ts"));
    const negotiated = await negotiateClient(agent.transport, { v1: offer.v1 });
    expect(negotiated.version).toBe(1);
    if (negotiated.version !== 1) return;
    expect(negotiated.initialized.agentInfo?.name).toBe("sdk-dual-v1");
    const { sessionId } = await negotiated.agent.newSession({ cwd, mcpServers: [] });
    expect(await negotiated.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hi" }] })).toEqual({ stopReason: "end_turn" });
    negotiated.connection.close();
  });

  it("offering 1 and 2 to the SDK's v1-only agent, falls back to v1 on the same process (PITFALLS #18)", async () => {
    agent = spawnAgent(...tsx("../peers/sdk-agent.ts"));
    let respawned = 0;
    const negotiated = await negotiateClient(agent.transport, { v1: offer.v1, v2: offer.v2(ourV2Client().handler) }, { reconnect: () => (respawned++, agent as AgentProcess).transport });
    expect({ version: negotiated.version, respawned }).toEqual({ version: 1, respawned: 0 });
    if (negotiated.version !== 1) return;
    const { sessionId } = await negotiated.agent.newSession({ cwd, mcpServers: [] });
    expect(await negotiated.agent.prompt({ sessionId, prompt: [{ type: "text", text: "echo fallback" }] })).toEqual({ stopReason: "end_turn" });
    negotiated.connection.close();
  });
});
