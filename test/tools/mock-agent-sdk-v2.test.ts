/**
 * `acp-router mock-agent` driven by the official SDK's experimental v2
 * client through every element of the grammar that v2 has, over stdio and
 * over `--listen --protocol 2` (Streamable HTTP and WebSocket): one agent per
 * transport, one session, many prompts. fs and terminal steps answer that v2
 * has no such method.
 */
import type * as acp2 from "@agentclientprotocol/sdk/experimental/v2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleKinds } from "../../tools/mock-agent/updates.ts";
import { listeningMockAgent, mockAgent, mockCwd } from "./mock-agent-support.ts";
import { remoteStream, sdkV2Client, spawnedStream } from "./mock-agent-sdk.ts";

const textOf = (updates: readonly { update: { sessionUpdate: string; content?: unknown } }[]) => updates.flatMap((u) => (u.update.sessionUpdate === "agent_message_chunk" ? [(u.update.content as { text?: string }).text ?? ""] : [])).join("");

describe.each(["stdio", "http", "websocket"] as const)("mock-agent driven by an SDK v2 client over %s", (transport) => {
  let client: ReturnType<typeof sdkV2Client>;
  let sessionId = "";
  let stop: (() => Promise<number | null>) | undefined;

  beforeAll(async () => {
    if (transport === "stdio") client = sdkV2Client(spawnedStream(mockAgent()));
    else {
      const server = await listeningMockAgent(["--protocol", "2"]);
      stop = server.stop;
      client = sdkV2Client(remoteStream(transport === "http" ? server.url : server.url.replace(/^http/, "ws")));
    }
    const init = await client.agent.request("initialize", { protocolVersion: 2, info: { name: "sdk-mock-client-v2", version: "0.0.0" }, capabilities: { elicitation: { form: {} } } });
    expect(init.protocolVersion).toBe(2);
    sessionId = (await client.agent.request("session/new", { cwd: mockCwd() })).sessionId;
  }, 30_000);
  afterAll(async () => {
    expect(await client.close()).toBe(0);
    if (stop) expect(await stop()).toBe(0);
  });

  const idleIn = (updates: readonly acp2.UpdateSessionNotification[]) => updates.find((u) => u.update.sessionUpdate === "state_update" && (u.update as { state?: string }).state === "idle")?.update as { stopReason?: string; error?: unknown } | undefined;

  /** Sends one prompt; resolves once its idle state_update arrived, with the updates of the turn. */
  async function turn(text: string, whileRunning?: (updates: () => acp2.UpdateSessionNotification[]) => Promise<void>) {
    const from = client.updates.length;
    const ack = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
    const updates = () => client.updates.slice(from);
    if (whileRunning) await whileRunning(updates);
    while (idleIn(updates()) === undefined) await new Promise((r) => setTimeout(r, 10));
    return { ack, updates: updates(), idle: idleIn(updates()), text: textOf(updates()) };
  }

  it("echoes plain text and reports the user message", async () => {
    const { ack, updates, idle, text } = await turn("hello v2");
    expect(updates[0]?.update).toMatchObject({ sessionUpdate: "user_message", messageId: ack.messageId });
    expect(text).toBe("hello v2\n");
    expect(idle?.stopReason).toBe("end_turn");
  });

  it("#updates all: every v2 kind, each accepted by the SDK", async () => {
    const { updates } = await turn("#updates all");
    const kinds = new Set(updates.map((u) => u.update.sessionUpdate));
    for (const kind of sampleKinds(2)) expect(kinds).toContain(kind);
    expect(client.dropped()).toBe(0);
  });

  it("#permission, #elicit, #big, #sleep, #meta, #foreign-session", async () => {
    expect((await turn("#permission")).text).toContain("[mock] permission: selected allow");
    expect((await turn("#elicit")).text).toContain('"action":"accept"');
    expect((await turn("#big 200000")).text).toHaveLength(200_000 + "[mock] sent a message of 200000 bytes\n".length);
    expect((await turn("#sleep 20")).idle?.stopReason).toBe("end_turn");
    expect((await turn("#meta")).updates.some((u) => (u.update as { _meta?: unknown })._meta !== undefined)).toBe(true);
    const from = client.updates.length;
    await turn("#foreign-session");
    expect(client.updates.slice(from).map((u) => u.sessionId)).toContain("mock-foreign-session");
  });

  it("#unknown-update is delivered (the v2 union is open)", async () => {
    const before = client.dropped();
    const { updates } = await turn("#unknown-update");
    expect(updates.map((u) => u.update.sessionUpdate)).toContain("mock_future_update");
    expect(client.dropped()).toBe(before);
  });

  it("#hang ends with an idle cancelled state after session/cancel", async () => {
    const { idle } = await turn("#hang", async (updates) => {
      while (!textOf(updates()).includes("hanging")) await new Promise((r) => setTimeout(r, 10));
      await client.agent.notify("session/cancel", { sessionId });
    });
    expect(idle?.stopReason).toBe("cancelled");
  });

  it("#error: first answers the prompt with it, later ends the turn with stopReason error", async () => {
    await expect(client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "#error -32042 v2 failure" }] })).rejects.toMatchObject({ code: -32042, message: "v2 failure" });
    expect((await turn("first\n#error -32043 later")).idle).toMatchObject({ stopReason: "error", error: { code: -32043, message: "later" } });
  });

  it("#read, #write and #terminal answer that v2 has no such method", async () => {
    for (const text of ["#read notes.txt", "#write x y", "#terminal echo x"]) {
      await expect(client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("ACP v2 has no") as unknown });
    }
  });
});
