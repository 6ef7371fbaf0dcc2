// Both official-SDK peers against each other over real stdio: sdk-client.ts spawns sdk-agent.ts.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSdkClient } from "./sdk-client.ts";
import type { SdkClient } from "./sdk-client.ts";
import { onSdkDropIn } from "../support/sdk-drop-in.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const agentPath = fileURLToPath(new URL("./sdk-agent.ts", import.meta.url));
const agentArgs = ["--import", "tsx", agentPath];
const node = JSON.stringify(process.execPath); // quoted for the agent's tokenizer

const until = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe("official SDK agent <-> official SDK client over stdio", () => {
  let c: SdkClient;
  let dir: string;
  let sid: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "acp-peers-"));
    c = await startSdkClient(process.execPath, agentArgs, {
      cwd: repoRoot,
      fs: { mode: "disk" },
      elicitation: (req) => ({ action: "accept", content: { name: `got:${req.message.length > 0}`, age: 7 } }),
      extRequests: { "_client.example/ping": (p) => ({ pong: p }) },
    });
    const init = await c.initialize();
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities?.loadSession).toBe(false);
    expect(init.authMethods).toEqual([]);
    sid = (await c.newSession({ cwd: dir })).sessionId;
  });

  afterAll(async () => {
    await c?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const last = () => c.chunks(sid).at(-1);

  it("session/new hands out sess-N ids", async () => {
    expect(sid).toBe("sess-1");
    expect((await c.newSession({ cwd: dir })).sessionId).toBe("sess-2");
  });

  it("echo", async () => {
    expect(await c.promptText(sid, "echo hello  world")).toEqual({ stopReason: "end_turn" });
    expect(last()).toBe("hello  world");
  });

  it("anything else is echoed back verbatim", async () => {
    expect((await c.promptText(sid, "what is this?")).stopReason).toBe("end_turn");
    expect(last()).toBe("what is this?");
  });

  it("permission: selected, then cancelled", async () => {
    c.permission = "allow";
    expect((await c.promptText(sid, "permission")).stopReason).toBe("end_turn");
    expect(last()).toBe("outcome:selected:allow");
    const req = c.permissionRequests.at(-1);
    expect(req?.options.map((o) => [o.optionId, o.kind])).toEqual([
      ["allow", "allow_once"],
      ["reject", "reject_once"],
    ]);
    expect(req?.toolCall.toolCallId).toBe("call-1");

    c.permission = "reject";
    await c.promptText(sid, "permission");
    expect(last()).toBe("outcome:selected:reject");

    c.permission = "cancel";
    expect((await c.promptText(sid, "permission")).stopReason).toBe("cancelled");
    expect(last()).toBe("outcome:cancelled");
    c.permission = "allow";
  });

  it("read and write through fs/* against real files", async () => {
    const src = join(dir, "in.txt");
    await writeFile(src, "line one\nline two\n");
    await c.promptText(sid, `read ${src}`);
    expect(last()).toBe("line one\nline two\n");

    const dst = join(dir, "out.txt");
    await c.promptText(sid, `write ${dst} some text  with spaces`);
    expect(last()).toBe("written");
    expect(await readFile(dst, "utf8")).toBe("some text  with spaces");

    await c.promptText(sid, `read ${join(dir, "missing.txt")}`);
    expect(last()).toMatch(/^error:-32002:Resource not found/);
  });

  it("terminal lifecycle with a real child process", async () => {
    await c.promptText(sid, `terminal ${node} -e "console.log(42)"`);
    expect(last()).toBe("exit:0 output:42\n");
    const methods = c.inbound.flatMap((m) => ("method" in m && m.method.startsWith("terminal/") ? [m.method] : []));
    expect(methods).toEqual(["terminal/create", "terminal/wait_for_exit", "terminal/output", "terminal/release"]);
  });

  it("terminal-kill", async () => {
    await c.promptText(sid, `terminal-kill ${node} -e "setTimeout(() => {}, 20000)"`);
    expect(last()).toMatch(/^exit:null signal:SIGTERM output:/);
  });

  it("elicitation/create (form mode)", async () => {
    await c.promptText(sid, "elicit");
    expect(JSON.parse(last() ?? "")).toEqual({ action: "accept", content: { name: "got:true", age: 7 } });
  });

  it("raw: agent->client extension request and an unhandled method", async () => {
    await c.promptText(sid, 'raw _client.example/ping {"n":1}');
    expect(last()).toBe('result:{"pong":{"n":1}}');
    await c.promptText(sid, "raw _nobody/home {}");
    expect(last()).toMatch(/^error:-32601:/);
  });

  it("ext method round-trips params; ext notification reaches the agent", async () => {
    expect(await c.extMethod("_example.com/echo", { a: [1, 2], b: "x" })).toEqual({ a: [1, 2], b: "x" });
    await c.extNotification("_example.com/note", { hello: "agent" });
    await until(() => c.stderr().includes('note {"hello":"agent"}'));
  });

  it("slow + session/cancel", async () => {
    const before = c.chunks(sid).length;
    const pending = c.promptText(sid, "slow");
    await until(() => c.chunks(sid).length >= before + 2);
    await c.cancel(sid);
    expect((await pending).stopReason).toBe("cancelled");
    expect(c.chunks(sid).slice(before, before + 2)).toEqual(["tick 1", "tick 2"]);
  });

  it("slow + $/cancel_request via AbortSignal", async () => {
    const before = c.chunks(sid).length;
    const ac = new AbortController();
    const pending = c.promptText(sid, "slow", { cancellationSignal: ac.signal });
    await until(() => c.chunks(sid).length >= before + 1);
    ac.abort();
    expect((await pending).stopReason).toBe("cancelled");
    const cancels = c.outbound.filter((m) => "method" in m && m.method === "$/cancel_request");
    expect(cancels).toHaveLength(1);
  });

  it("no SDK validation failures and no dropped notifications so far", () => {
    expect(c.protocolErrors()).toEqual([]);
    expect(c.droppedUpdates()).toBe(0);
    expect(c.updates.length).toBeGreaterThan(10);
  });

  // Keep these last: they deliberately make the SDK client report errors.
  it("captures an invalid inbound request answered -32602 by the SDK client", async () => {
    await c.promptText(sid, `raw session/request_permission {"sessionId":"${sid}"}`);
    expect(last()).toMatch(/^error:-32602:Invalid params/);
    expect(c.protocolErrors().map((e) => ("error" in e ? e.error.code : e.message))).toEqual([-32602]);
  });

  it("captures an invalid session/update that the SDK drops", async () => {
    const bad = JSON.stringify({ sessionId: sid, update: { sessionUpdate: "agent_message_chunk" } });
    await c.promptText(sid, `notify session/update ${bad}`);
    expect(last()).toBe("notified");
    expect(c.droppedUpdates()).toBe(1);
    expect(c.diagnostics).toEqual([{ message: "Error handling notification", details: expect.objectContaining({ method: "session/update", code: -32602 }) }]);
  });
});

describe("capability-less SDK client", () => {
  let c: SdkClient;
  beforeAll(async () => {
    c = await startSdkClient(process.execPath, agentArgs, { cwd: repoRoot, fs: false, terminal: false, elicitation: false });
    const init = await c.initialize();
    expect(init.protocolVersion).toBe(1);
  });
  afterAll(async () => {
    const exit = await c?.close();
    expect(exit?.code).toBe(0); // agent exits by itself on stdin EOF
  });

  it("agent can still send un-advertised requests (no SDK gating); client SDK answers -32601", async () => {
    const init = c.outbound.find((m) => "method" in m && m.method === "initialize");
    expect(init && "params" in init ? init.params : undefined).toMatchObject({
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    });
    const { sessionId } = await c.newSession({ cwd: repoRoot });
    await c.promptText(sessionId, `raw fs/read_text_file {"sessionId":"${sessionId}","path":"/etc/hostname"}`);
    // On the drop-in SDK the agent's connection refuses the un-advertised call itself, sending nothing (docs/sdk-drop-in.md).
    expect(c.chunks(sessionId).at(-1)).toBe(onSdkDropIn ? "error:-32601:Method not found" : 'error:-32601:"Method not found": fs/read_text_file');
    if (onSdkDropIn) expect(c.inbound.some((m) => "method" in m && m.method === "fs/read_text_file")).toBe(false);
    expect(c.protocolErrors()).toEqual([]);
  });

  it("in-memory fs is separate from disk mode", async () => {
    const m = await startSdkClient(process.execPath, agentArgs, { cwd: repoRoot, fs: { mode: "memory", files: { "/virtual/a.txt": "A" } } });
    try {
      await m.initialize();
      const { sessionId } = await m.newSession({ cwd: repoRoot });
      await m.promptText(sessionId, "read /virtual/a.txt");
      await m.promptText(sessionId, "write /virtual/b.txt B B");
      expect(m.chunks(sessionId)).toEqual(["A", "written"]);
      expect(m.files.get("/virtual/b.txt")).toBe("B B");
    } finally {
      await m.close();
    }
  });
});
