/**
 * `acp-router mock-agent` driven by a client built on the official SDK
 * through every element of the grammar: v1 over stdio, Streamable HTTP and
 * WebSocket (`--listen`), one agent per transport and one session, many
 * prompts (v2: mock-agent-sdk-v2.test.ts). The SDK
 * validates every update it receives with its own schemas, so "nothing
 * dropped" below means the SDK accepted what the mock agent sent.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleKinds } from "../../tools/mock-agent/updates.ts";
import { listeningMockAgent, mockAgent, mockCwd, NOTES } from "./mock-agent-support.ts";
import { remoteStream, sdkV1Client, spawnedStream } from "./mock-agent-sdk.ts";

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
const textOf = (updates: readonly { update: { sessionUpdate: string; content?: unknown } }[]) => updates.flatMap((u) => (u.update.sessionUpdate === "agent_message_chunk" ? [(u.update.content as { text?: string }).text ?? ""] : [])).join("");

const fullV1: acp.ClientCapabilities = { fs: { readTextFile: true, writeTextFile: true }, terminal: true, session: { notices: {}, compaction: {}, configOptions: { boolean: {} } }, elicitation: { form: {} } };

describe.each(["stdio", "http", "websocket"] as const)("mock-agent driven by an SDK v1 client over %s", (transport) => {
  let client: ReturnType<typeof sdkV1Client>;
  let sessionId = "";
  let stop: (() => Promise<number | null>) | undefined;
  const cwd = mockCwd();

  beforeAll(async () => {
    if (transport === "stdio") client = sdkV1Client(spawnedStream(mockAgent()));
    else {
      const server = await listeningMockAgent();
      stop = server.stop;
      client = sdkV1Client(remoteStream(transport === "http" ? server.url : server.url.replace(/^http/, "ws")));
    }
    const init = await client.agent.request("initialize", { protocolVersion: 1, clientCapabilities: fullV1, clientInfo: { name: "sdk-mock-client", version: "0.0.0" } });
    expect(init.agentCapabilities).toMatchObject({ loadSession: true, sessionCapabilities: { list: {}, close: {} } });
    sessionId = (await client.agent.request("session/new", { cwd, mcpServers: [] })).sessionId;
  }, 30_000);
  afterAll(async () => {
    await client.close();
    if (stop) expect(await stop()).toBe(0);
  });

  /** Sends one prompt; resolves with its answer and the updates that arrived during it. */
  async function turn(text: string) {
    const from = client.updates.length;
    const result = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
    await flush();
    const updates = client.updates.slice(from);
    return { stopReason: result.stopReason, updates, text: textOf(updates) };
  }

  it("echoes plain text", async () => {
    expect(await turn("hello sdk")).toMatchObject({ stopReason: "end_turn", text: "hello sdk\n" });
  });

  it("#updates all: every v1 kind, each accepted by the SDK", async () => {
    const { updates, stopReason } = await turn("#updates all");
    expect(stopReason).toBe("end_turn");
    expect([...new Set(updates.map((u) => u.update.sessionUpdate))].sort()).toEqual([...sampleKinds(1)].sort());
    expect(client.dropped()).toBe(0);
  });

  it("#updates message 3 and #updates tool", async () => {
    expect((await turn("#updates message 3")).updates.filter((u) => u.update.sessionUpdate === "agent_message_chunk")).toHaveLength(3);
    const tools = (await turn("#updates tool")).updates.flatMap((u) => (u.update.sessionUpdate === "tool_call" ? [u.update.kind] : []));
    expect(new Set(tools).size).toBe(10);
  });

  it("#permission: the SDK's answer is reported", async () => {
    expect((await turn("#permission")).text).toContain("[mock] permission: selected allow");
  });

  it("#read and #write through the client's fs", async () => {
    expect((await turn("#read notes.txt")).text).toContain(`: ${JSON.stringify(NOTES)}`);
    expect((await turn("#write sdk-out.txt from the sdk")).text).toContain("[mock] wrote 12 bytes");
    expect(readFileSync(join(cwd, "sdk-out.txt"), "utf8")).toBe("from the sdk");
  });

  it("#terminal and #terminal-kill through the client's terminals", async () => {
    expect((await turn("#terminal echo sdk-terminal")).text).toContain('exit {"exitCode":0,"signal":null}, output "sdk-terminal\\n"');
    expect((await turn("#terminal-kill sleep 30")).text).toMatch(/terminal \(killed\): exit \{"exitCode":(null|[1-9]\d*),/);
  });

  it("#elicit: the form answer is reported", async () => {
    expect((await turn("#elicit")).text).toContain('[mock] elicitation: {"action":"accept","content":{"name":"sdk"}}');
  });

  it("#big 1000000: one chunk of exactly that many bytes", async () => {
    const { updates } = await turn("#big 1000000");
    const chunk = updates[0]?.update as { content?: { text?: string } } | undefined;
    expect(chunk?.content?.text?.length).toBe(1_000_000);
  });

  it("#sleep 20 ends the turn", async () => {
    expect((await turn("#sleep 20")).stopReason).toBe("end_turn");
  });

  it("#hang ends cancelled after session/cancel", async () => {
    const from = client.updates.length;
    const answer = client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "#hang" }] });
    while (!textOf(client.updates.slice(from)).includes("hanging")) await new Promise((r) => setTimeout(r, 10));
    await client.agent.notify("session/cancel", { sessionId });
    expect((await answer).stopReason).toBe("cancelled");
  });

  it("#error answers the prompt with the code and message", async () => {
    await expect(turn("#error -32042 sdk failure")).rejects.toMatchObject({ code: -32042, message: "sdk failure" });
  });

  it("#unknown-update: the SDK drops the unknown kind (v1 is closed) and the session goes on", async () => {
    const before = client.dropped();
    expect((await turn("#unknown-update")).stopReason).toBe("end_turn");
    expect(client.dropped()).toBe(before + 1);
    expect((await turn("still here")).text).toBe("still here\n");
  });

  it("#meta: the update and its content keep their _meta", async () => {
    const { updates } = await turn("#meta");
    expect(updates[0]?.update).toMatchObject({ _meta: { traceId: "mock-trace-1" }, content: { _meta: { traceId: "mock-trace-1" } } });
  });

  it("#foreign-session: an update for a session the client never opened", async () => {
    const from = client.updates.length;
    await turn("#foreign-session");
    expect(client.updates.slice(from).map((u) => u.sessionId)).toContain("mock-foreign-session");
  });

  it("session/set_mode and set_config_option change the session and report it; session/load replays its updates; list and close", async () => {
    const from = client.updates.length;
    await client.agent.request("session/set_mode", { sessionId, modeId: "code" });
    await flush();
    expect(client.updates.slice(from).map((u) => u.update)).toEqual([{ sessionUpdate: "current_mode_update", currentModeId: "code" }]);
    await expect(client.agent.request("session/set_mode", { sessionId, modeId: "nope" })).rejects.toMatchObject({ code: -32602 });
    const { configOptions } = await client.agent.request("session/set_config_option", { sessionId, configId: "verbose", type: "boolean", value: true });
    expect(configOptions.find((o) => o.id === "verbose")).toMatchObject({ currentValue: true });
    const listed = await client.agent.request("session/list", {});
    expect(listed.sessions.map((s) => s.sessionId)).toContain(sessionId);
    const before = client.updates.length;
    const loaded = await client.agent.request("session/load", { sessionId, cwd, mcpServers: [] });
    await flush();
    expect(loaded.modes?.currentModeId).toBe("code");
    const replayed = client.updates.slice(before);
    expect(replayed.filter((u) => u.update.sessionUpdate === "user_message_chunk").map((u) => (u.update as { content: { text?: string } }).content.text)).toContain("hello sdk");
    expect(replayed.length).toBeGreaterThan(50);
    expect(await client.agent.request("session/close", { sessionId })).toEqual({});
  });

  it("refuses an unknown directive and a v2-only kind with -32602 naming them", async () => {
    await expect(turn("#bogus")).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('prompt line 1: unknown directive "#bogus"') as unknown });
    await expect(turn("#updates state")).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("ACP v1 has no such update kind") as unknown });
  });
});

describe("mock-agent refuses fs and terminal steps when the SDK client did not advertise them", () => {
  it("answers -32602 naming the capability, before any step runs", async () => {
    const client = sdkV1Client(spawnedStream(mockAgent()));
    try {
      await client.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      const { sessionId } = await client.agent.request("session/new", { cwd: mockCwd(), mcpServers: [] });
      const prompt = (text: string) => client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
      await expect(prompt("before\n#read notes.txt")).rejects.toMatchObject({ code: -32602, message: "#read: fs/read_text_file needs the client capability fs.readTextFile, which the client did not advertise" });
      await expect(prompt("#terminal echo x")).rejects.toMatchObject({ message: expect.stringContaining("client capability terminal") as unknown });
      await expect(prompt("#updates notice")).rejects.toMatchObject({ message: expect.stringContaining("session.notices") as unknown });
      await flush();
      // Nothing of the refused turns was sent (the echo before #read included).
      expect(client.updates).toEqual([]);
    } finally {
      expect(await client.close()).toBe(0);
    }
  });
});
