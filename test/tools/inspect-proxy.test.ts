// `acp-router inspect` as a real stdio proxy: bytes unchanged, and the verdicts on real peers.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Summary } from "../../tools/inspect/summary.ts";
import { startSdkClient } from "../peers/sdk-client.ts";
import { converse, exampleAgent, exampleClient, fixture, inspectCommand, runCommand, scratch, sdkAgent, tsNode } from "./support.ts";

const readSummary = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Summary;
const violationsOf = (s: Summary) => s.violations.map((v) => `${v.rule} ${v.requirement} ${v.by} ${v.count}`);

describe("acp-router inspect -- <agent>", () => {
  it("forwards every byte unchanged in both directions, non-JSON, CRLF, split characters and a last line without newline included", async () => {
    const dir = scratch();
    const toAgent = Buffer.from('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}\r\n\n  \nnot json é\n{"jsonrpc":"2.0","method":"_x/n","params":{"s":"\\u2028 ✓"}}', "utf8");
    const fromAgent = Buffer.from('{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}\nagent log line ü\n{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}', "utf8");
    writeFileSync(join(dir, "reply"), fromAgent);
    const summary = join(dir, "summary.json");
    const run = await runCommand(inspectCommand(["--summary", summary], tsNode(fixture("echo-bytes-agent.ts"), join(dir, "received"), join(dir, "reply"))), toAgent);
    expect(run.code).toBe(0);
    expect(run.stdout.equals(fromAgent)).toBe(true);
    expect(readFileSync(join(dir, "received")).equals(toAgent)).toBe(true);
    expect(violationsOf(readSummary(summary))).toEqual(["non-json ACP-TRANSPORT-101 client 1", "non-json ACP-TRANSPORT-001 agent 1"]);
  });

  it("passes the agent's stderr through and writes nothing else to stdout or stderr when the summary goes to a file", async () => {
    const dir = scratch();
    const script = 'process.stderr.write("agent says hi\\n"); process.stdout.write("{\\"jsonrpc\\":\\"2.0\\",\\"method\\":\\"_x/n\\"}\\n")';
    const run = await runCommand(inspectCommand(["--summary", join(dir, "s.txt")], [process.execPath, "-e", script]));
    expect({ code: run.code, stdout: run.stdout.toString("utf8"), stderr: run.stderr }).toEqual({ code: 0, stdout: '{"jsonrpc":"2.0","method":"_x/n"}\n', stderr: "agent says hi\n" });
  });

  it("returns the agent's exit code", async () => {
    const run = await runCommand(inspectCommand(["--summary", join(scratch(), "s.txt")], [process.execPath, "-e", "process.exit(3)"]));
    expect(run.code).toBe(3);
  });

  it("finds zero violations between the example client's tour and the example agent, and the tour reads the same as without inspect", async () => {
    const dir = scratch();
    const files = { summary: join(dir, "summary.json"), log: join(dir, "trace.log"), record: join(dir, "trace.ndjson") };
    const agent = inspectCommand(["--summary", files.summary, "--log", files.log, "--record", files.record], tsNode(exampleAgent))
      .map((w) => JSON.stringify(w))
      .join(" ");
    // The tour over ACP v1 (the client negotiates v2 by default; that tour is in inspect-v2.test.ts).
    // 60 s before either is killed: a loaded machine has taken 25 s for the tour behind inspect.
    const [through, direct] = await Promise.all([runCommand(tsNode(exampleClient, "--tour", "--protocol", "1", "--agent", agent), "", 60_000), runCommand(tsNode(exampleClient, "--tour", "--protocol", "1"), "", 60_000)]);
    expect({ code: through.code, stderr: through.stderr }).toEqual({ code: 0, stderr: "" });
    const s = readSummary(files.summary);
    expect(s.violations).toEqual([]);
    expect({ table: s.table, protocolVersion: s.protocolVersion }).toEqual({ table: "v1", protocolVersion: 1 });
    expect(s.methods.map((m) => m.method)).toEqual(["fs/read_text_file", "initialize", "session/cancel", "session/close", "session/list", "session/load", "session/new", "session/prompt", "session/request_permission", "session/set_mode", "session/update"]);
    // Session ids, paths in tool call ids, timings and what they change (the slow count, the length of the
    // history session/load replays) differ between runs; everything else is the same.
    const normalise = (text: string) =>
      text
        .replace(/[0-9a-f-]{36}/g, "<session>")
        .replace(/read-\d+/g, "read-N")
        .replace(/\d+ ms passed/g, "N ms passed")
        .replace(/replayed \d+ updates/g, "replayed N updates")
        .split("\n")
        .filter((l) => !l.startsWith("Counting slowly") && !/^( \d+)+$/.test(l)); // a count chunk already sent when the cancel went out prints on a line of its own
    expect(normalise(through.stdout.toString("utf8"))).toEqual(normalise(direct.stdout.toString("utf8")));
    const log = readFileSync(files.log, "utf8");
    expect(log).toMatch(/client → agent {2}request #0 initialize/);
    expect(log).toMatch(/agent → client {2}result #2 session\/prompt \(\d+\.\d\d ms\)/);
    const record = readFileSync(files.record, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(record[0]).toMatchObject({ type: "start", format: 1 });
    expect(record[1]).toMatchObject({ from: "client", msg: { id: 0, method: "initialize" } });
    expect(record.at(-1)).toMatchObject({ type: "end", exit: 0 });
  }, 70_000);

  it("finds zero violations between the SDK client and the SDK agent through a full tour of their features", async () => {
    const dir = scratch();
    const summary = join(dir, "summary.json");
    const [cmd, ...args] = inspectCommand(["--summary", summary], tsNode(sdkAgent)) as [string, ...string[]];
    const c = await startSdkClient(cmd, args, { fs: { mode: "disk" } });
    await c.initialize();
    const sid = (await c.newSession({ cwd: dir })).sessionId;
    await c.promptText(sid, "echo hello");
    c.permission = "allow";
    await c.promptText(sid, "permission");
    c.permission = "cancel";
    await c.promptText(sid, "permission");
    writeFileSync(join(dir, "in.txt"), "one\n");
    await c.promptText(sid, `read ${join(dir, "in.txt")}`);
    await c.promptText(sid, `write ${join(dir, "out.txt")} two`);
    await c.promptText(sid, `terminal ${JSON.stringify(process.execPath)} -e "console.log(42)"`);
    await c.promptText(sid, "elicit");
    await c.extMethod("_example.com/echo", { a: 1 });
    const slow = c.promptText(sid, "slow");
    await new Promise((r) => setTimeout(r, 200));
    await c.cancel(sid);
    expect((await slow).stopReason).toBe("cancelled");
    await c.close();
    const s = readSummary(summary);
    expect(s.violations).toEqual([]);
    expect(s.messages.client).toBeGreaterThan(10);
  }, 40_000);

  it("reports the SDK's known deviation when the SDK client calls session/load that the SDK agent did not advertise (docs/compatibility.md), and nothing else", async () => {
    const dir = scratch();
    const summary = join(dir, "summary.json");
    const [cmd, ...args] = inspectCommand(["--summary", summary], tsNode(sdkAgent, "--serve-unadvertised")) as [string, ...string[]];
    const c = await startSdkClient(cmd, args);
    await c.initialize();
    const sid = (await c.newSession({ cwd: dir })).sessionId;
    await c.loadSession({ sessionId: sid, cwd: dir, mcpServers: [] });
    await c.close();
    expect(violationsOf(readSummary(summary))).toEqual(["capability-gate ACP-AGENTCAP-103 client 1"]);
  }, 20_000);
});

describe("acp-router inspect on scripted broken agents", () => {
  const editor = (extra: readonly object[] = []) => [
    { line: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } }), awaitAnswer: 0 },
    { line: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/workspace/demo", mcpServers: [] } }), awaitAnswer: 1 },
    { line: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "s1", prompt: [{ type: "text", text: "hi" }] } }) },
    ...extra.map((m) => ({ line: JSON.stringify(m) })),
  ];

  const cases = [
    ["none", [], []],
    ["log-on-stdout", ["non-json ACP-TRANSPORT-001 agent 1"], []],
    ["unknown-session", ["unknown-session ACP-SESSION-001 agent 1"], []],
    ["answer-twice", ["answered-twice ACP-JSONRPC-001 agent 1"], []],
    ["update-after-answer", ["update-after-turn ACP-PROMPT-001 agent 1"], []],
    ["cancel-error", ["cancelled-prompt-error ACP-CANCEL-102 agent 1"], [{ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s1" } }]],
    ["bad-result", ["schema ACP-SESSION-001 agent 1", "unknown-session ACP-SESSION-001 agent 1"], []],
  ] as const;

  it.each(cases)("scripted agent %s: reports %j and nothing else", async (mode, expected, extra) => {
    const summary = join(scratch(), "summary.json");
    const run = await converse(inspectCommand(["--summary", summary], tsNode(fixture("scripted-agent.ts"), mode)), editor(extra));
    expect(run.code).toBe(0);
    expect(violationsOf(readSummary(summary))).toEqual(expected);
  });
});
