// Their agent, our client: test/peers/sdk-agent.ts (official SDK 2.4.0) runs as a real subprocess,
// started with acp-router's spawnAgent and driven through connectClient with a ClientHandler that
// uses real files and real child processes (test/fixtures/router-client.ts).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConnectionClosedError, connectClient, type ClientConnection, type Diagnostic, type InitializeResponse } from "../../src/index.ts";
import { spawnAgent, type AgentProcess } from "../../src/transport/stdio.ts";
import { until } from "../support/async.ts";
import { createTestClient, type TestClient } from "../fixtures/router-client.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const sdkAgentPath = fileURLToPath(new URL("../peers/sdk-agent.ts", import.meta.url));
const node = JSON.stringify(process.execPath); // quoted for the SDK agent's tokenizer

/** Diagnostics that mean our client rejected or rewrote something the SDK agent sent. */
const complaints = (diagnostics: Diagnostic[]) => diagnostics.filter((d) => ["invalid_notification", "invalid_result", "repaired", "unknown_response", "parse_error", "unknown_message", "handler_error"].includes(d.kind));

function start(): { proc: AgentProcess; t: TestClient; conn: ClientConnection; diagnostics: Diagnostic[] } {
  const proc = spawnAgent(process.execPath, ["--import", "tsx", sdkAgentPath], { cwd: repoRoot, stderr: "capture" });
  const t = createTestClient();
  const diagnostics: Diagnostic[] = [];
  const conn = connectClient(t.handler, proc.transport, { onDiagnostic: (d) => diagnostics.push(d) });
  return { proc, t, conn, diagnostics };
}

describe("the official SDK agent driven by an acp-router client over stdio", () => {
  let proc: AgentProcess;
  let t: TestClient;
  let conn: ClientConnection;
  let diagnostics: Diagnostic[];
  let init: InitializeResponse;
  let sid: string;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "acp-router-interop-"));
    ({ proc, t, conn, diagnostics } = start());
    init = await conn.agent.initialize({
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true, elicitation: { form: {} } },
      clientInfo: { name: "router-client", version: "0.0.0" },
    });
    sid = (await conn.agent.newSession({ cwd: dir, mcpServers: [] })).sessionId;
  });
  afterAll(async () => {
    t?.dispose();
    conn?.close();
    expect((await proc?.exited)?.code).toBe(0); // the SDK agent exits on stdin EOF
    await rm(dir, { recursive: true, force: true });
  });

  const last = () => t.chunks(sid).at(-1);
  const say = (text: string, options?: { signal?: AbortSignal }) => conn.agent.prompt({ sessionId: sid, prompt: [{ type: "text", text }] }, options);

  it("negotiates version 1 and reads the SDK agent's capabilities", () => {
    expect(init).toEqual({ protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [], agentInfo: { name: "sdk-agent", version: "0.0.0" } });
    expect(conn.agentCapabilities).toEqual({ loadSession: false });
    expect(sid).toBe("sess-1");
  });

  it("delivers a turn's session/update before the prompt's answer resolves", async () => {
    expect(await say("echo hello  world")).toEqual({ stopReason: "end_turn" });
    expect(last()).toBe("hello  world");
  });

  it("answers session/request_permission with the selected option", async () => {
    t.permission = { select: "allow" };
    expect(await say("permission")).toEqual({ stopReason: "end_turn" });
    expect(last()).toBe("outcome:selected:allow");
    const req = t.permissionRequests.at(-1)?.params;
    expect(req?.toolCall).toEqual({ toolCallId: "call-1", title: "Run a dangerous thing", kind: "execute", status: "pending" });
    expect(req?.options.map((o) => o.optionId)).toEqual(["allow", "reject"]);
  });

  it("answers a pending session/request_permission cancelled when the client sends session/cancel", async () => {
    t.permission = "wait-for-cancel";
    const before = t.permissionRequests.length;
    const pending = say("permission");
    await until(() => t.permissionRequests.length > before, "the permission request", 10_000);
    await conn.agent.cancel({ sessionId: sid });
    expect(await pending).toEqual({ stopReason: "cancelled" });
    expect(last()).toBe("outcome:cancelled");
    expect(t.permissionRequests.at(-1)?.signal.aborted).toBe(true);
    t.permission = { select: "allow" };
  });

  it("serves fs/read_text_file and fs/write_text_file from real files", async () => {
    const src = join(dir, "in.txt");
    await writeFile(src, "line one\nline two\n");
    await say(`read ${src}`);
    expect(last()).toBe("line one\nline two\n");
    const dst = join(dir, "out.txt");
    await say(`write ${dst} some text  with spaces`);
    expect(last()).toBe("written");
    expect(await readFile(dst, "utf8")).toBe("some text  with spaces");
    await say(`read ${join(dir, "missing.txt")}`);
    expect(last()).toBe("error:-32002:Resource not found");
  });

  it("runs the whole terminal lifecycle on a real child process: create, wait_for_exit, output, release", async () => {
    const from = t.calls.length;
    await say(`terminal ${node} -e "console.log(42)"`);
    expect(last()).toBe("exit:0 output:42\n");
    expect(t.calls.slice(from)).toEqual(["createTerminal", "waitForTerminalExit", "terminalOutput", "releaseTerminal"]);
    expect(t.terminals.size).toBe(0);
  });

  it("kills a running terminal on terminal/kill, then still releases it", async () => {
    const from = t.calls.length;
    await say(`terminal-kill ${node} -e "setTimeout(() => {}, 20000)"`);
    expect(last()).toBe("exit:null signal:SIGTERM output:");
    expect(t.calls.slice(from)).toEqual(["createTerminal", "killTerminal", "waitForTerminalExit", "terminalOutput", "releaseTerminal"]);
    expect(t.terminals.size).toBe(0);
  });

  it("answers elicitation/create (form mode)", async () => {
    await say("elicit");
    expect(JSON.parse(last() ?? "null")).toEqual({ action: "accept", content: { name: "Ada", age: 36 } });
  });

  it("routes agent→client extension requests and notifications by their verbatim wire names", async () => {
    await say('raw _client.example/ping {"n":1}');
    expect(last()).toBe('result:{"pong":{"n":1}}');
    await say("raw _nobody/home {}");
    expect(last()).toBe("error:-32601:Method not found");
    await say('notify _client.example/note {"x":1}');
    expect(last()).toBe("notified");
    expect(t.extNotifications).toEqual([{ method: "_client.example/note", params: { x: 1 } }]);
  });

  it("calls the SDK agent's extension method", async () => {
    expect(await conn.request("_example.com/echo", { a: [1, 2], b: "x" })).toEqual({ a: [1, 2], b: "x" });
  });

  it("cancels a running turn with $/cancel_request when the prompt's signal aborts, and gets stopReason cancelled", async () => {
    const before = t.chunks(sid).length;
    const ac = new AbortController();
    const pending = say("slow", { signal: ac.signal });
    await until(() => t.chunks(sid).length > before, "one tick", 10_000);
    ac.abort();
    expect(await pending).toEqual({ stopReason: "cancelled" });
    expect(t.chunks(sid)[before]).toBe("tick 1");
  });

  it("rejected and repaired nothing the SDK agent sent, and is idle afterwards", () => {
    expect(complaints(diagnostics)).toEqual([]);
    expect(conn.stats()).toEqual({ pendingOutbound: 0, inFlightInbound: 0, busyLanes: 0, timers: 0, abortListeners: 0 });
    expect(t.updates.length).toBeGreaterThan(10);
  });
});

describe("an acp-router client that advertised no fs, terminal or elicitation capability, facing the SDK agent", () => {
  let proc: AgentProcess;
  let t: TestClient;
  let conn: ClientConnection;
  let diagnostics: Diagnostic[];
  let sid: string;

  beforeAll(async () => {
    ({ proc, t, conn, diagnostics } = start());
    await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    sid = (await conn.agent.newSession({ cwd: repoRoot.replace(/\/$/, ""), mcpServers: [] })).sessionId;
  });
  afterAll(async () => {
    t?.dispose();
    conn?.close();
    await proc?.exited;
  });

  it("answers the SDK agent's un-advertised fs/read_text_file with -32601 without running the handler it has", async () => {
    const path = fileURLToPath(import.meta.url);
    await conn.agent.prompt({ sessionId: sid, prompt: [{ type: "text", text: `raw fs/read_text_file ${JSON.stringify({ sessionId: sid, path })}` }] });
    expect(t.chunks(sid).at(-1)).toBe("error:-32601:Method not found");
    expect(t.calls).toEqual([]);
  });

  it("answers un-advertised terminal/create and elicitation/create with -32601 as well", async () => {
    await conn.agent.prompt({ sessionId: sid, prompt: [{ type: "text", text: `terminal ${node} -e "1"` }] });
    expect(t.chunks(sid).at(-1)).toBe("error:-32601:Method not found");
    await conn.agent.prompt({ sessionId: sid, prompt: [{ type: "text", text: "elicit" }] });
    expect(t.chunks(sid).at(-1)).toBe("error:-32601:Method not found");
    expect(t.calls).toEqual([]);
  });

  it("drops a session/update with an unknown sessionUpdate variant with a diagnostic, answers nothing, and carries on", async () => {
    const before = t.updates.length;
    const bad = JSON.stringify({ sessionId: sid, update: { sessionUpdate: "_example.com/custom", x: 1 } });
    expect(await conn.agent.prompt({ sessionId: sid, prompt: [{ type: "text", text: `notify session/update ${bad}` }] })).toEqual({ stopReason: "end_turn" });
    // Only the agent's own "notified" chunk arrived; the unknown variant never reached the handler.
    expect(t.updates.slice(before).map((u) => u.update.sessionUpdate)).toEqual(["agent_message_chunk"]);
    expect(t.chunks(sid).at(-1)).toBe("notified");
    expect(diagnostics.filter((d) => d.kind === "invalid_notification").map((d) => d.message)).toEqual(['dropped "session/update" with invalid params']);
  });
});

describe("an acp-router client whose SDK agent dies mid-turn", () => {
  it("rejects the pending prompt with ConnectionClosedError naming the signal and the agent's stderr, and leaves nothing behind", async () => {
    const { proc, t, conn } = start();
    await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await conn.agent.newSession({ cwd: repoRoot.replace(/\/$/, ""), mcpServers: [] });
    const pending = conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "slow" }] });
    await until(() => t.chunks(sessionId).length >= 1, "one tick", 10_000);
    proc.child.kill("SIGKILL");
    const error = await pending.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as Error).message).toMatch(/agent process was killed by SIGKILL; last stderr lines:\n[\s\S]*\[sdk-agent\] ready/);
    expect((await conn.closed).error?.name).toBe("AgentExitedError");
    expect(conn.stats()).toEqual({ pendingOutbound: 0, inFlightInbound: 0, busyLanes: 0, timers: 0, abortListeners: 0 });
  });
});
