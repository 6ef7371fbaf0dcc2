// The example client's small parts, in-process: command-line splitting, the fs boundary, terminal output, permission policies, the transcript.
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFsHandlers, sliceLines } from "../../examples/client-fs.ts";
import { decidePermission } from "../../examples/client-permission.ts";
import { createOutputBuffer, createTerminalHandlers } from "../../examples/client-terminal.ts";
import { splitCommandLine } from "../../examples/command-line.ts";
import { createTranscript } from "../../examples/transcript.ts";
import type { RequestPermissionRequest } from "../../src/index.ts";

describe("splitCommandLine", () => {
  it.each([
    ["npx tsx examples/agent.ts", ["npx", "tsx", "examples/agent.ts"]],
    ['  node   "my agent.ts"  --flag ', ["node", "my agent.ts", "--flag"]],
    ["say 'it''s' \"a \\\"b\\\"\" c\\ d", ["say", "its", 'a "b"', "c d"]],
    ['empty "" word', ["empty", "", "word"]],
  ])("splits %j", (line, words) => {
    expect(splitCommandLine(line)).toEqual(words);
  });

  it("rejects an unterminated quote", () => {
    expect(() => splitCommandLine('node "oops')).toThrow(/unterminated " quote/);
  });
});

describe("the fs handlers", () => {
  let root: string;
  let outside: string;
  const fs = () => createFsHandlers((sessionId) => (sessionId === "s" ? root : undefined));
  const code = (promise: Promise<unknown>) =>
    promise.then(
      () => "resolved",
      (error: { code?: number }) => error.code,
    );

  beforeAll(async () => {
    const base = await mkdtemp(join(tmpdir(), "acp-example-fs-"));
    root = join(base, "project");
    outside = join(base, "secret.txt");
    await mkdir(root);
    await writeFile(join(root, "a.txt"), "one\ntwo\nthree\nfour\n");
    await writeFile(outside, "secret");
    await symlink(outside, join(root, "link.txt"));
  });
  afterAll(async () => {
    await rm(join(root, ".."), { recursive: true, force: true });
  });

  it("reads a file inside the session's cwd, honouring line and limit", async () => {
    expect(await fs().readTextFile({ sessionId: "s", path: join(root, "a.txt") })).toEqual({ content: "one\ntwo\nthree\nfour\n" });
    expect(await fs().readTextFile({ sessionId: "s", path: join(root, "a.txt"), line: 2, limit: 2 })).toEqual({ content: "two\nthree" });
  });

  it("answers -32602 for a path outside the cwd, a symlink leading out of it, or a relative path", async () => {
    expect(await code(fs().readTextFile({ sessionId: "s", path: outside }))).toBe(-32602);
    expect(await code(fs().readTextFile({ sessionId: "s", path: join(root, "link.txt") }))).toBe(-32602);
    expect(await code(fs().readTextFile({ sessionId: "s", path: join(root, "..", "secret.txt") }))).toBe(-32602);
    expect(await code(fs().readTextFile({ sessionId: "s", path: "a.txt" }))).toBe(-32602);
    expect(await code(fs().writeTextFile({ sessionId: "s", path: join(root, "..", "new.txt"), content: "x" }))).toBe(-32602);
  });

  it("answers -32002 for a missing file or a session it does not know", async () => {
    expect(await code(fs().readTextFile({ sessionId: "s", path: join(root, "nope.txt") }))).toBe(-32002);
    expect(await code(fs().readTextFile({ sessionId: "other", path: join(root, "a.txt") }))).toBe(-32002);
  });

  it("writes a new file inside the cwd, creating directories", async () => {
    expect(await fs().writeTextFile({ sessionId: "s", path: join(root, "new", "b.txt"), content: "bee" })).toEqual({});
    expect(await readFile(join(root, "new", "b.txt"), "utf8")).toBe("bee");
  });

  it("sliceLines counts lines from 1", () => {
    expect(sliceLines("a\nb\nc", undefined, 1)).toBe("a");
    expect(sliceLines("a\nb\nc", 3, undefined)).toBe("c");
    expect(sliceLines("a\nb\nc", 5, 2)).toBe("");
  });
});

describe("the terminal handlers", () => {
  it("keeps the last outputByteLimit bytes, cut at a character boundary", () => {
    const buffer = createOutputBuffer(5);
    buffer.append(Buffer.from("abc"));
    expect(buffer.read()).toEqual({ text: "abc", truncated: false });
    buffer.append(Buffer.from("dé")); // "abcdé" is 6 bytes ("é" is 2): the last 5 are "bcdé"
    expect(buffer.read()).toEqual({ text: "bcdé", truncated: true });
    buffer.append(Buffer.from("fghi")); // 9 bytes: the last 5 start inside "é", so only "fghi" is kept
    expect(buffer.read()).toEqual({ text: "fghi", truncated: true });
  });

  it("runs a command, reports its output and exit, and forgets it on release", async () => {
    const terminals = createTerminalHandlers(() => tmpdir());
    const { terminalId } = await terminals.createTerminal({ sessionId: "s", command: process.execPath, args: ["-e", "console.log('out'); console.error('err'); process.exit(3)"], outputByteLimit: 100 });
    expect(await terminals.waitForTerminalExit({ sessionId: "s", terminalId })).toEqual({ exitCode: 3, signal: null });
    const output = terminals.terminalOutput({ sessionId: "s", terminalId });
    expect(output.output.split("\n").sort()).toEqual(["", "err", "out"]);
    expect(output).toMatchObject({ truncated: false, exitStatus: { exitCode: 3, signal: null } });
    expect(terminals.releaseTerminal({ sessionId: "s", terminalId })).toEqual({});
    expect(() => terminals.terminalOutput({ sessionId: "s", terminalId })).toThrow(expect.objectContaining({ code: -32002 }));
  });

  it("kills a running command", async () => {
    const terminals = createTerminalHandlers(() => tmpdir());
    const { terminalId } = await terminals.createTerminal({ sessionId: "s", command: process.execPath, args: ["-e", "setTimeout(() => {}, 20000)"] });
    terminals.killTerminal({ sessionId: "s", terminalId });
    expect(await terminals.waitForTerminalExit({ sessionId: "s", terminalId })).toEqual({ exitCode: null, signal: "SIGTERM" });
    terminals.releaseAll();
  });

  it("answers -32603 naming the command when it cannot be started", async () => {
    const terminals = createTerminalHandlers(() => tmpdir());
    await expect(terminals.createTerminal({ sessionId: "s", command: "/no/such/command" })).rejects.toMatchObject({ code: -32603, data: { details: expect.stringContaining("/no/such/command") } });
  });
});

describe("the permission policies", () => {
  const request: RequestPermissionRequest = {
    sessionId: "s",
    toolCall: { toolCallId: "t" },
    options: [
      { optionId: "always", name: "Always", kind: "allow_always" },
      { optionId: "once", name: "Once", kind: "allow_once" },
      { optionId: "no", name: "No", kind: "reject_once" },
    ],
  };
  const signal = new AbortController().signal;

  it("allow picks allow_once before allow_always; reject picks a reject option; cancel cancels", async () => {
    expect(await decidePermission("allow", request, signal)).toEqual({ outcome: "selected", optionId: "once" });
    expect(await decidePermission("reject", request, signal)).toEqual({ outcome: "selected", optionId: "no" });
    expect(await decidePermission("cancel", request, signal)).toEqual({ outcome: "cancelled" });
  });

  it("answers cancelled when no option of the wanted kind exists", async () => {
    expect(await decidePermission("reject", { ...request, options: request.options.slice(0, 2) }, signal)).toEqual({ outcome: "cancelled" });
  });
});

describe("the transcript", () => {
  it("keeps streamed text on one line and starts a new line for anything else", () => {
    let text = "";
    const t = createTranscript({ write: (s: string) => (text += s) });
    t.user("hi");
    t.update({ sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hel" } } });
    t.update({ sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "lo" } } });
    t.update({ sessionId: "s", update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "Look", kind: "search", status: "pending" } });
    t.update({ sessionId: "s", update: { sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" } });
    t.update({
      sessionId: "s",
      update: {
        sessionUpdate: "plan",
        entries: [
          { content: "A", priority: "high", status: "completed" },
          { content: "B", priority: "low", status: "in_progress" },
        ],
      },
    });
    t.stop("end_turn");
    expect(text).toBe("\n> hi\nHello\n  tool t1: Look (search, pending)\n  tool t1: Look -> completed\n  plan: [x] A · [~] B\n[stop: end_turn]\n");
  });
});
