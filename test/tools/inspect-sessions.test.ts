// Issue 30's inspect fixes, on scripted conversations: an answer echoing a request id JSON-RPC allows
// but the schema discourages (1.5, 2^53+1) is a note, not a charge; sessions opened by session/fork,
// load and resume are known sessions; an update before its session's answer is an ordering note, not
// ACP-SESSION-001 (unless no answer ever introduces the id); a cancelled prompt answered end_turn breaks
// ACP-CANCEL-001.
import { describe, expect, it } from "vitest";
import { createMonitor } from "../../tools/inspect/monitor.ts";
import { buildSummary, formatSummary } from "../../tools/inspect/summary.ts";
import type { Sender } from "../../tools/inspect/rules.ts";
import { notification, request } from "../support/messages.ts";

type Line = readonly [Sender, unknown];
const result = (id: unknown, value: unknown) => ({ jsonrpc: "2.0", id, result: value });
const chunk = (sessionId: string) => notification("session/update", { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } } });
const prompt = (id: number, sessionId: string) => request(id, "session/prompt", { sessionId, prompt: [{ type: "text", text: "x" }] });

function run(lines: readonly Line[]): { found: string[]; notes: string[] } {
  const monitor = createMonitor();
  lines.forEach(([from, body], i) => monitor.observe(from, typeof body === "string" ? body : JSON.stringify(body), i));
  monitor.end(lines.length);
  return { found: monitor.violations.map((v) => `${v.rule} ${v.requirement} ${v.by}`), notes: monitor.state.notes };
}

const handshake = (agentCapabilities: object = {}): Line[] => [
  ["client", request(0, "initialize", { protocolVersion: 1, clientCapabilities: {} })],
  ["agent", result(0, { protocolVersion: 1, agentCapabilities, authMethods: [] })],
  ["client", request(1, "session/new", { cwd: "/workspace/demo", mcpServers: [] })],
  ["agent", result(1, { sessionId: "s1" })],
];

describe("inspect's summary", () => {
  it("lists a finding on a row without a normative keyword (ACP-AUTH-005, an inference) as a note, not a violation", () => {
    const monitor = createMonitor();
    const lines: Line[] = [
      ["client", request(0, "initialize", { protocolVersion: 1, clientCapabilities: {} })],
      ["agent", result(0, { protocolVersion: 1, agentCapabilities: {}, authMethods: [] })],
      ["client", request(1, "session/new", { cwd: "/workspace/demo", mcpServers: [] })],
      ["agent", { jsonrpc: "2.0", id: 1, error: { code: -32000, message: "Authentication required" } }],
    ];
    lines.forEach(([from, body], i) => monitor.observe(from, JSON.stringify(body), i));
    monitor.end(lines.length);
    const s = buildSummary(monitor.state, monitor.violations, ["agent"], 0);
    expect({ violations: s.violations, noted: s.noted.map((v) => `${v.rule} ${v.requirement} ${v.tier}`) }).toEqual({ violations: [], noted: ["auth-order ACP-AUTH-005 none"] });
    expect(formatSummary(s)).toContain("violations: none\nnoted, not a violation (ACP-AUTH-005 is a row without a normative keyword): auth-order by the agent, 1×: ");
  });
});

describe("inspect's monitor", () => {
  it.each([
    ["1.5", "1.5", ["request-id ACP-JSONRPC-103 client"]],
    ["2^53+1", "9007199254740993", []],
  ])("notes, and does not charge, an agent answering a request whose id is %s with that id", (_name, id, client) => {
    const { found, notes } = run([...handshake(), ["client", `{"jsonrpc":"2.0","id":${id},"method":"_x/probe","params":{}}`], ["agent", `{"jsonrpc":"2.0","id":${id},"error":{"code":-32601,"message":"Method not found"}}`]]);
    // A fractional id is the client's own SHOULD NOT; 2^53+1 is a valid int64 id (the schema's RequestId). The agent is not charged.
    expect(found).toEqual(client);
    expect(notes.some((n) => n.startsWith(`agent answered the request whose id was ${id}`))).toBe(true);
  });

  it("charges an agent answering a request whose id is 2^53+1 with the rounded id 2^53 (ACP-JSONRPC-001), and not one refusing it with id null", () => {
    const ask = ["client", '{"jsonrpc":"2.0","id":9007199254740993,"method":"_x/probe","params":{}}'] as const;
    expect(run([...handshake(), ask, ["agent", '{"jsonrpc":"2.0","id":9007199254740992,"error":{"code":-32601,"message":"Method not found"}}']]).found).toEqual(["id-altered ACP-JSONRPC-001 agent"]);
    expect(run([...handshake(), ask, ["agent", '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request"}}']]).found).toEqual([]);
  });

  it("still charges an answer with an id that names no request", () => {
    expect(run([...handshake(), ["agent", '{"jsonrpc":"2.0","id":2.5,"result":{}}']]).found).toEqual(["rejection-id ACP-INFO-INVALIDREQ-001 agent"]);
  });

  it("knows the sessions opened by session/fork (its answer), session/load and session/resume (the id they name)", () => {
    const caps = { loadSession: true, sessionCapabilities: { fork: {}, resume: {} } };
    const { found } = run([
      ...handshake(caps),
      ["client", request(2, "session/fork", { sessionId: "s1", cwd: "/workspace/demo", mcpServers: [] })],
      ["agent", result(2, { sessionId: "forked" })],
      ["agent", chunk("forked")],
      ["client", request(3, "session/resume", { sessionId: "old", cwd: "/workspace/demo", mcpServers: [] })],
      ["agent", result(3, {})],
      ["client", prompt(4, "old")],
      ["agent", chunk("old")],
      ["agent", result(4, { stopReason: "end_turn" })],
      ["client", request(5, "session/load", { sessionId: "older", cwd: "/workspace/demo", mcpServers: [] })],
      ["agent", chunk("older")],
      ["agent", result(5, {})],
      ["client", prompt(6, "forked")],
      ["agent", chunk("forked")],
      ["agent", result(6, { stopReason: "end_turn" })],
    ]);
    expect(found).toEqual([]);
  });

  it("notes an update that arrives before its session's answer, and charges ACP-SESSION-001 only when no answer ever introduces the id", () => {
    const early = run([...handshake(), ["client", request(2, "session/new", { cwd: "/workspace/demo", mcpServers: [] })], ["agent", chunk("s2")], ["agent", result(2, { sessionId: "s2" })]]);
    expect(early.found).toEqual([]);
    expect(early.notes.some((n) => n.includes('session "s2"') && n.includes("an ordering matter, not ACP-SESSION-001"))).toBe(true);
    const never = run([...handshake(), ["client", request(2, "session/new", { cwd: "/workspace/demo", mcpServers: [] })], ["agent", chunk("s9")], ["agent", result(2, { sessionId: "s2" })]]);
    expect(never.found).toEqual(["unknown-session ACP-SESSION-001 agent"]);
  });

  it("charges ACP-CANCEL-001 for a prompt cancelled by session/cancel and answered end_turn, and nothing for one answered cancelled", () => {
    const cancelled = (stopReason: string): Line[] => [...handshake(), ["client", prompt(2, "s1")], ["agent", chunk("s1")], ["client", notification("session/cancel", { sessionId: "s1" })], ["agent", result(2, { stopReason })]];
    expect(run(cancelled("end_turn")).found).toEqual(["cancelled-prompt-stop-reason ACP-CANCEL-001 agent"]);
    expect(run(cancelled("cancelled")).found).toEqual([]);
  });
});
