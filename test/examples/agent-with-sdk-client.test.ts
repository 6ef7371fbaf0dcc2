// The example agent (examples/agent.ts) over real stdio, driven by the official SDK's client.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionNotification, SessionUpdate } from "@agentclientprotocol/sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startSdkClient, type SdkClient } from "../peers/sdk-client.ts";
import { exampleAgentPath, repoRoot, until, within } from "./support.ts";
import { onSdkDropIn } from "../support/sdk-drop-in.ts";

const agentArgs = ["--import", "tsx", exampleAgentPath];
const packageJson = join(repoRoot, "package.json");
const firstLines = readFileSync(packageJson, "utf8").split("\n").slice(0, 5);

type Update<K extends SessionUpdate["sessionUpdate"]> = Extract<SessionUpdate, { sessionUpdate: K }>;

/** The updates of one kind, for one session, received after index `from` of `c.updates`. */
function updatesOf<K extends SessionUpdate["sessionUpdate"]>(c: SdkClient, sessionId: string, kind: K, from = 0): Update<K>[] {
  return c.updates
    .slice(from)
    .filter((n: SessionNotification) => n.sessionId === sessionId && n.update.sessionUpdate === kind)
    .map((n) => n.update as Update<K>);
}

/** The text the agent streamed for one session after index `from` of `c.updates`. */
function textOf(c: SdkClient, sessionId: string, from = 0): string {
  return updatesOf(c, sessionId, "agent_message_chunk", from)
    .map((u) => (u.content.type === "text" ? u.content.text : ""))
    .join("");
}

/** How many fs/read_text_file requests the agent sent so far. */
const readRequests = (c: SdkClient) => c.inbound.filter((m) => "method" in m && m.method === "fs/read_text_file");

describe("the example agent under the official SDK client", () => {
  let c: SdkClient;
  let sid: string;

  beforeAll(async () => {
    c = await startSdkClient(process.execPath, agentArgs, { cwd: repoRoot, fs: { mode: "disk" } });
  });

  afterEach(() => {
    // The SDK validates every message the agent sends; nothing may be rejected or dropped.
    expect(c.protocolErrors()).toEqual([]);
    expect(c.droppedUpdates()).toBe(0);
  });

  afterAll(async () => {
    const exit = await c?.close();
    expect(exit).toEqual({ code: 0, signal: null }); // the agent exits by itself on stdin EOF
  });

  it("answers initialize with protocol 1, loadSession and the list and close session capabilities", async () => {
    const init = await c.initialize({ protocolVersion: 7 });
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities).toMatchObject({ loadSession: true, sessionCapabilities: { list: {}, close: {} } });
    expect(init.agentInfo?.name).toBe("acp-router-example-agent");
  });

  it("opens a session in ask mode, offering ask and code", async () => {
    const created = await c.newSession({ cwd: repoRoot });
    sid = created.sessionId;
    expect(created.modes?.currentModeId).toBe("ask");
    expect(created.modes?.availableModes.map((m) => m.id)).toEqual(["ask", "code"]);
  });

  it("streams a reply to any text in at least two chunks that contain the text, then ends the turn", async () => {
    const from = c.updates.length;
    expect(await c.promptText(sid, "hello there, agent")).toEqual({ stopReason: "end_turn" });
    expect(updatesOf(c, sid, "agent_message_chunk", from).length).toBeGreaterThanOrEqual(2);
    expect(textOf(c, sid, from)).toContain("hello there, agent");
  });

  it("reads a file after permission is allowed: tool call, fs/read_text_file with a limit, the first lines, completed", async () => {
    c.permission = "allow";
    const from = c.updates.length;
    const reads = readRequests(c).length;
    expect(await c.promptText(sid, `read ${packageJson}`)).toEqual({ stopReason: "end_turn" });

    const [call] = updatesOf(c, sid, "tool_call", from);
    expect(call).toMatchObject({ kind: "read", status: "pending", title: `Read ${packageJson}` });
    const permission = c.permissionRequests.at(-1);
    expect(permission?.toolCall.toolCallId).toBe(call?.toolCallId);
    expect(permission?.options.map((o) => [o.optionId, o.kind])).toEqual([
      ["allow_once", "allow_once"],
      ["reject_once", "reject_once"],
    ]);
    const read = readRequests(c).slice(reads);
    expect(read.map((m) => ("params" in m ? m.params : undefined))).toEqual([{ sessionId: sid, path: packageJson, line: 1, limit: 5 }]);
    for (const line of firstLines) expect(textOf(c, sid, from)).toContain(line);
    expect(updatesOf(c, sid, "tool_call_update", from).map((u) => [u.toolCallId, u.status])).toEqual([
      [call?.toolCallId, "in_progress"],
      [call?.toolCallId, "completed"],
    ]);
  });

  it("says so and ends the turn when the read is rejected, without reading", async () => {
    c.permission = "reject";
    const from = c.updates.length;
    const reads = readRequests(c).length;
    expect(await c.promptText(sid, `read ${packageJson}`)).toEqual({ stopReason: "end_turn" });
    expect(textOf(c, sid, from)).toContain("rejected");
    expect(updatesOf(c, sid, "tool_call_update", from).map((u) => u.status)).toEqual(["failed"]);
    expect(readRequests(c)).toHaveLength(reads);
  });

  it("answers cancelled when the permission outcome is cancelled", async () => {
    c.permission = "cancel";
    const from = c.updates.length;
    expect(await c.promptText(sid, `read ${packageJson}`)).toEqual({ stopReason: "cancelled" });
    expect(textOf(c, sid, from)).toContain("cancelled");
  });

  it("cancels a pending permission question on session/cancel and answers cancelled", async () => {
    const asked = c.permissionRequests.length;
    c.permission = (_request, signal) => new Promise((resolve) => signal.addEventListener("abort", () => resolve({ outcome: "cancelled" })));
    const turn = c.promptText(sid, `read ${packageJson}`);
    try {
      await until(() => c.permissionRequests.length > asked, "the permission request", 2000);
      await c.cancel(sid);
      expect(await within(turn, "the cancelled prompt", 1000)).toEqual({ stopReason: "cancelled" });
    } finally {
      c.permission = "allow";
      await turn.catch(() => {});
    }
    // The agent's connection cancelled its own pending permission request.
    const asking = c.inbound.findLast((m) => "method" in m && m.method === "session/request_permission");
    const cancels = c.inbound.filter((m) => "method" in m && m.method === "$/cancel_request");
    // On the drop-in SDK the client answers that request itself when it sends session/cancel
    // (ACP prompt-turn; docs/sdk-drop-in.md), so the agent has nothing left to cancel.
    expect(cancels.map((m) => ("params" in m ? m.params : undefined))).toEqual(onSdkDropIn ? [] : [{ requestId: asking && "id" in asking ? asking.id : "missing" }]);
  });

  it("sends a plan of three entries whose statuses move pending, in_progress, completed", async () => {
    const from = c.updates.length;
    expect(await c.promptText(sid, "plan something")).toEqual({ stopReason: "end_turn" });
    const plans = updatesOf(c, sid, "plan", from);
    expect(plans[0]?.entries.map((e) => e.status)).toEqual(["pending", "pending", "pending"]);
    expect(plans.at(-1)?.entries.map((e) => e.status)).toEqual(["completed", "completed", "completed"]);
    const order = ["pending", "in_progress", "completed"];
    for (let entry = 0; entry < 3; entry++) {
      const statuses = plans.map((p) => p.entries[entry]?.status ?? "missing");
      expect([...new Set(statuses)]).toEqual(order); // every stage seen, never going back
    }
  });

  it("answers a slow prompt cancelled by session/cancel with cancelled within one second", async () => {
    const from = c.updates.length;
    const turn = c.promptText(sid, "slow please");
    await until(() => updatesOf(c, sid, "agent_message_chunk", from).length >= 3, "a few slow chunks");
    await c.cancel(sid);
    expect(await within(turn, "the cancelled slow prompt", 1000)).toEqual({ stopReason: "cancelled" });
    expect(updatesOf(c, sid, "agent_message_chunk", from).length).toBeLessThan(100);
  });

  it("switches mode with session/set_mode and reports a current_mode_update", async () => {
    const from = c.updates.length;
    expect(await c.setSessionMode({ sessionId: sid, modeId: "code" })).toEqual({});
    expect(updatesOf(c, sid, "current_mode_update", from).map((u) => u.currentModeId)).toEqual(["code"]);
    await expect(c.setSessionMode({ sessionId: sid, modeId: "yolo" })).rejects.toMatchObject({ code: -32602 });
  });

  it("lists its sessions with session/list", async () => {
    const other = (await c.newSession({ cwd: "/tmp" })).sessionId;
    const all = await c.listSessions();
    expect(all.sessions.map((s) => s.sessionId).sort()).toEqual([sid, other].sort());
    expect(all.sessions.find((s) => s.sessionId === sid)).toMatchObject({ cwd: repoRoot, title: "hello there, agent" });
    const inRepo = await c.listSessions({ cwd: repoRoot });
    expect(inRepo.sessions.map((s) => s.sessionId)).toEqual([sid]);
  });

  it("replays the whole history with session/load before answering, user messages included", async () => {
    const live = c.updates.filter((n) => n.sessionId === sid).map((n) => n.update);
    const from = c.updates.length;
    const loaded = await c.loadSession({ sessionId: sid, cwd: repoRoot, mcpServers: [] });
    expect(loaded.modes?.currentModeId).toBe("code");
    const replayed = c.updates.slice(from).map((n) => n.update);
    expect(replayed.filter((u) => u.sessionUpdate !== "user_message_chunk")).toEqual(live);
    expect(replayed.flatMap((u) => (u.sessionUpdate === "user_message_chunk" && u.content.type === "text" ? [u.content.text] : []))[0]).toBe("hello there, agent");
  });

  it("closes a session with session/close, cancelling its turn; prompts then fail until it is loaded again", async () => {
    const from = c.updates.length;
    const turn = c.promptText(sid, "slow");
    await until(() => updatesOf(c, sid, "agent_message_chunk", from).length >= 2, "the slow prompt to stream");
    expect(await c.closeSession({ sessionId: sid })).toEqual({});
    expect(await within(turn, "the prompt of the closed session", 1000)).toEqual({ stopReason: "cancelled" });
    await expect(c.promptText(sid, "hello")).rejects.toMatchObject({ code: -32002 });
    await c.loadSession({ sessionId: sid, cwd: repoRoot, mcpServers: [] });
    expect((await c.promptText(sid, "hello again")).stopReason).toBe("end_turn");
  });
});

describe("the example agent under an SDK client without fs capabilities", () => {
  let c: SdkClient;

  beforeAll(async () => {
    c = await startSdkClient(process.execPath, agentArgs, { cwd: repoRoot, fs: false, terminal: false });
    await c.initialize();
  });

  afterAll(async () => {
    expect(await c?.close()).toEqual({ code: 0, signal: null });
  });

  it("explains that it cannot read files, asks nothing and reads nothing", async () => {
    const { sessionId } = await c.newSession({ cwd: repoRoot });
    expect(await c.promptText(sessionId, `read ${packageJson}`)).toEqual({ stopReason: "end_turn" });
    expect(textOf(c, sessionId)).toContain("cannot read files");
    expect(c.permissionRequests).toEqual([]);
    expect(readRequests(c)).toEqual([]);
    expect(c.protocolErrors()).toEqual([]);
    expect(c.droppedUpdates()).toBe(0);
  });
});
