// Each inspect rule, caught once on a scripted conversation, and none on a clean one.
import { describe, expect, it } from "vitest";
import { createMonitor } from "../../tools/inspect/monitor.ts";
import { RULES, type RuleName, type Sender } from "../../tools/inspect/rules.ts";
import { notification, request } from "../support/messages.ts";

type Line = readonly [Sender, unknown];
const S = "sess-1";
const result = (id: unknown, value: unknown) => ({ jsonrpc: "2.0", id, result: value });
const failure = (id: unknown, code: unknown, message: unknown = "failed") => ({ jsonrpc: "2.0", id, error: { code, message } });
const text = (t: string) => ({ sessionId: S, prompt: [{ type: "text", text: t }] });
const chunk = (sessionId = S) => notification("session/update", { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } } });
const permission = (id: number) =>
  request(id, "session/request_permission", {
    sessionId: S,
    toolCall: { toolCallId: "t1", title: "Read" },
    options: [{ optionId: "allow", name: "Allow", kind: "allow_once" }],
  });

/** initialize and session/new, with the given capabilities and auth methods. */
function handshake(agentCapabilities: object = {}, clientCapabilities: object = {}, authMethods: unknown[] = []): Line[] {
  return [
    ["client", request(0, "initialize", { protocolVersion: 1, clientCapabilities })],
    ["agent", result(0, { protocolVersion: 1, agentCapabilities, authMethods })],
    ["client", request(1, "session/new", { cwd: "/workspace/demo", mcpServers: [] })],
    ["agent", result(1, { sessionId: S })],
  ];
}

/** The v2 handshake: initialize naming version 2 (v2 field names) and session/new. */
function handshakeV2(): Line[] {
  return [
    ["client", request(0, "initialize", { protocolVersion: 2, info: { name: "c", version: "1" }, capabilities: {} })],
    ["agent", result(0, { protocolVersion: 2, info: { name: "a", version: "1" }, capabilities: { session: {} } })],
    ["client", request(1, "session/new", { cwd: "/workspace/demo" })],
    ["agent", result(1, { sessionId: S })],
  ];
}
const v2Update = (update: object) => notification("session/update", { sessionId: S, update });
const idle = (stopReason = "end_turn") => v2Update({ sessionUpdate: "state_update", state: "idle", stopReason });

/** Feeds the lines to a fresh monitor, ends it, and lists what it found as `rule requirement by`. */
function run(lines: readonly Line[]): string[] {
  const monitor = createMonitor();
  lines.forEach(([from, body], i) => monitor.observe(from, typeof body === "string" ? body : JSON.stringify(body), i));
  monitor.end(lines.length);
  return monitor.violations.map((v) => `${v.rule} ${v.requirement} ${v.by}`);
}

const cases: ReadonlyArray<readonly [RuleName, string, readonly Line[], readonly string[]]> = [
  ["non-json", "a log line on the agent's stdout", [...handshake(), ["agent", "Starting agent v1.0"]], ["non-json ACP-TRANSPORT-001 agent"]],
  ["envelope", "a request whose params is an array", [...handshake(), ["client", request(2, "session/prompt", [1])], ["agent", failure(2, -32600)]], ["envelope ACP-JSONRPC-101 client"]],
  ["request-id", "a request id that is an object", [...handshake(), ["client", request({ n: 2 }, "session/prompt", text("x"))], ["agent", failure(null, -32600)]], ["request-id ACP-JSONRPC-102 client"]],
  ["id-altered", "an int64 id beyond 2^53 answered with the rounded id", [...handshake(), ["client", '{"jsonrpc":"2.0","id":9007199254740993,"method":"_x/probe","params":{}}'], ["agent", '{"jsonrpc":"2.0","id":9007199254740992,"result":{}}']], ["id-altered ACP-JSONRPC-001 agent"]],
  ["duplicate-request-id", "a request id reused while pending", [...handshake(), ["client", request(2, "session/prompt", text("a"))], ["client", request(2, "session/prompt", text("b"))], ["agent", result(2, { stopReason: "end_turn" })]], ["duplicate-request-id ACP-JSONRPC-001 client"]],
  ["rejection-id", "a request with a readable id rejected with id null", [...handshake(), ["client", { jsonrpc: "1.0", id: 2, method: "session/prompt", params: text("x") }], ["agent", failure(null, -32600)]], ["envelope ACP-JSONRPC-101 client", "rejection-id ACP-INFO-INVALIDREQ-001 agent"]],
  ["error-object", "an error whose code is a string", [...handshake(), ["client", request(2, "session/prompt", text("x"))], ["agent", failure(2, "oops")]], ["error-object ACP-ERROR-101 agent"]],
  ["unknown-response-id", "an answer to an id never sent", [...handshake(), ["agent", result(99, {})]], ["unknown-response-id ACP-JSONRPC-001 agent"]],
  ["answered-twice", "a prompt answered twice", [...handshake(), ["client", request(2, "session/prompt", text("x"))], ["agent", result(2, { stopReason: "end_turn" })], ["agent", result(2, { stopReason: "end_turn" })]], ["answered-twice ACP-JSONRPC-001 agent"]],
  [
    "cancel-answered-twice",
    "a request cancelled with $/cancel_request answered twice",
    [...handshake(), ["client", request(2, "session/prompt", text("x"))], ["client", notification("$/cancel_request", { requestId: 2 })], ["agent", result(2, { stopReason: "cancelled" })], ["agent", failure(2, -32800)]],
    ["cancel-answered-twice ACP-CANCEL-105 agent"],
  ],
  ["cancel-unanswered", "a request cancelled with $/cancel_request never answered", [...handshake(), ["client", request(2, "session/prompt", text("x"))], ["client", notification("$/cancel_request", { requestId: 2 })]], ["cancel-unanswered ACP-CANCEL-105 agent"]],
  ["unknown-method", "a request for a method outside the table", [...handshake(), ["client", request(2, "session/fly", {})], ["agent", failure(2, -32601)]], ["unknown-method ACP-EXT-102 client"]],
  ["method-not-found-code", "an unknown method answered -32603", [...handshake(), ["client", request(2, "session/fly", {})], ["agent", failure(2, -32603)]], ["unknown-method ACP-EXT-102 client", "method-not-found-code ACP-JSONRPC-004 agent"]],
  ["required-method", "session/prompt answered -32601", [...handshake(), ["client", request(2, "session/prompt", text("x"))], ["agent", failure(2, -32601)]], ["required-method ACP-SESSION-101 agent"]],
  [
    "schema",
    "session/new answered without a sessionId",
    [
      ["client", request(0, "initialize", { protocolVersion: 1, clientCapabilities: {} })],
      ["agent", result(0, { protocolVersion: 1 })],
      ["client", request(1, "session/new", { cwd: "/workspace/demo", mcpServers: [] })],
      ["agent", result(1, { id: "x" })],
    ],
    ["schema ACP-SESSION-001 agent"],
  ],
  ["schema", "session/prompt params without a prompt", [...handshake(), ["client", request(2, "session/prompt", { sessionId: S })], ["agent", failure(2, -32602)]], ["schema ACP-JSONRPC-101 client"]],
  [
    "init-order",
    "session/new before initialize",
    [
      ["client", request(1, "session/new", { cwd: "/workspace/demo", mcpServers: [] })],
      ["agent", failure(1, -32600)],
    ],
    ["init-order ACP-SESSION-102 client"],
  ],
  ["capability-gate", "session/load without loadSession", [...handshake(), ["client", request(2, "session/load", { sessionId: S, cwd: "/workspace/demo", mcpServers: [] })], ["agent", failure(2, -32601)]], ["capability-gate ACP-AGENTCAP-103 client"]],
  ["capability-gate", "fs/read_text_file without the client's fs capability", [...handshake(), ["agent", request(0, "fs/read_text_file", { sessionId: S, path: "/workspace/demo/a.txt" })], ["client", failure(0, -32601)]], ["capability-gate ACP-CLIENTCAP-001 agent"]],
  [
    "auth-order",
    "-32000 from an agent that advertised no auth methods",
    [
      ["client", request(0, "initialize", { protocolVersion: 1 })],
      ["agent", result(0, { protocolVersion: 1, authMethods: [] })],
      ["client", request(1, "session/new", { cwd: "/workspace/demo", mcpServers: [] })],
      ["agent", failure(1, -32000)],
    ],
    ["auth-order ACP-AUTH-005 agent"],
  ],
  [
    "auth-order",
    "-32000 after authenticate succeeded",
    [
      ["client", request(0, "initialize", { protocolVersion: 1 })],
      ["agent", result(0, { protocolVersion: 1, authMethods: [{ id: "key", name: "API key" }] })],
      ["client", request(1, "authenticate", { methodId: "key" })],
      ["agent", result(1, {})],
      ["client", request(2, "session/new", { cwd: "/workspace/demo", mcpServers: [] })],
      ["agent", failure(2, -32000)],
    ],
    ["auth-order ACP-AUTH-104 agent"],
  ],
  ["unknown-session", "session/update for a session never introduced", [...handshake(), ["agent", chunk("sess-other")]], ["unknown-session ACP-SESSION-001 agent"]],
  ["update-after-turn", "a message chunk after the prompt's answer", [...handshake(), ["client", request(2, "session/prompt", text("x"))], ["agent", result(2, { stopReason: "end_turn" })], ["agent", chunk()]], ["update-after-turn ACP-PROMPT-001 agent"]],
  [
    "user-message-echo",
    "a v2 turn whose idle state_update comes without the user_message of the acknowledged messageId",
    [...handshakeV2(), ["client", request(2, "session/prompt", text("x"))], ["agent", result(2, { messageId: "u1" })], ["agent", v2Update({ sessionUpdate: "user_message", messageId: "other", content: [] })], ["agent", idle()]],
    ["user-message-echo ACP-PROMPT-303 agent"],
  ],
  [
    "update-after-turn",
    "a v2 message chunk after the idle state_update that ended the turn",
    [
      ...handshakeV2(),
      ["client", request(2, "session/prompt", text("x"))],
      ["agent", result(2, { messageId: "u1" })],
      ["agent", v2Update({ sessionUpdate: "user_message", messageId: "u1", content: [] })],
      ["agent", idle()],
      ["agent", v2Update({ sessionUpdate: "agent_message_chunk", messageId: "a1", content: { type: "text", text: "late" } })],
    ],
    ["update-after-turn ACP-PROMPT-302 agent"],
  ],
  [
    "cancelled-prompt-stop-reason",
    "a prompt cancelled by session/cancel answered end_turn",
    [...handshake(), ["client", request(2, "session/prompt", text("x"))], ["client", notification("session/cancel", { sessionId: S })], ["agent", result(2, { stopReason: "end_turn" })]],
    ["cancelled-prompt-stop-reason ACP-CANCEL-001 agent"],
  ],
  [
    "update-after-turn",
    "a message chunk after a cancelled turn's answer",
    [...handshake(), ["client", request(2, "session/prompt", text("x"))], ["client", notification("session/cancel", { sessionId: S })], ["agent", result(2, { stopReason: "cancelled" })], ["agent", chunk()]],
    ["update-after-turn ACP-CANCEL-002 agent"],
  ],
  ["cancelled-prompt-error", "a prompt cancelled by session/cancel answered -32800", [...handshake(), ["client", request(2, "session/prompt", text("x"))], ["client", notification("session/cancel", { sessionId: S })], ["agent", failure(2, -32800)]], ["cancelled-prompt-error ACP-CANCEL-102 agent"]],
  [
    "permission-after-cancel",
    "a permission request left pending after session/cancel",
    [
      ...handshake(),
      ["client", request(2, "session/prompt", text("x"))],
      ["agent", permission(0)],
      ["client", notification("session/cancel", { sessionId: S })],
      ["agent", result(2, { stopReason: "cancelled" })],
      ["client", request(3, "session/prompt", text("y"))],
      ["agent", result(3, { stopReason: "end_turn" })],
    ],
    ["permission-after-cancel ACP-PERM-101 client"],
  ],
  [
    "permission-after-cancel",
    "a permission answered selected after session/cancel",
    [...handshake(), ["client", request(2, "session/prompt", text("x"))], ["agent", permission(0)], ["client", notification("session/cancel", { sessionId: S })], ["client", result(0, { outcome: { outcome: "selected", optionId: "allow" } })], ["agent", result(2, { stopReason: "cancelled" })]],
    ["permission-after-cancel ACP-PERM-102 client"],
  ],
  [
    "auth-order",
    "a terminal auth method passed to authenticate",
    [
      ["client", request(0, "initialize", { protocolVersion: 1, clientCapabilities: { auth: { terminal: true } } })],
      ["agent", result(0, { protocolVersion: 1, authMethods: [{ id: "login", name: "Log in", type: "terminal" }] })],
      ["client", request(1, "authenticate", { methodId: "login" })],
      ["agent", result(1, {})],
    ],
    ["auth-order ACP-AUTH-101 client"],
  ],
  ...mcpCases(),
];

/** MCP-over-ACP (tools/inspect/mcp.ts): a session declaring the acp server "srv", then one breach each. */
function mcpCases(): (typeof cases)[number][] {
  const open: Line[] = [...handshake({ mcpCapabilities: { acp: true } }), ["client", request(5, "session/new", { cwd: "/workspace/demo", mcpServers: [{ type: "acp", name: "tools", serverId: "srv" }] })], ["agent", result(5, { sessionId: "s2" })]];
  const call = (id: number, serverId: string): Line => ["agent", request(id, "mcp/message", { serverId, requestId: `r${id}`, method: "tools/list" })];
  return [
    ["mcp-outcome", "an mcp/message answered with both result and error", [...open, call(0, "srv"), ["client", result(0, { result: {}, error: { code: 1, message: "x" } })]], ["mcp-outcome ACP-MCP-403 client"]],
    [
      "mcp-inactive-notification",
      "an mcp/message notification after its request was answered",
      [...open, call(0, "srv"), ["client", result(0, { result: {} })], ["client", notification("mcp/message", { serverId: "srv", requestId: "r0", method: "notifications/progress" })]],
      ["mcp-inactive-notification ACP-MCP-405 client"],
    ],
    ["mcp-undeclared-server", "an mcp/message to a serverId no session declared", [...open, call(0, "other"), ["client", failure(0, -33001)]], ["mcp-undeclared-server ACP-MCP-406 agent"]],
  ];
}

describe("inspect's monitor on scripted conversations", () => {
  it.each(cases)("catches %s once: %s", (_rule, _title, lines, expected) => {
    expect(run(lines)).toEqual(expected);
  });

  it("covers every rule with at least one conversation", () => {
    const covered = new Set(cases.flatMap(([, , , expected]) => expected.map((e) => e.split(" ")[0])));
    expect([...covered].sort()).toEqual(Object.keys(RULES).sort());
  });

  it("finds nothing in a clean turn with streaming, a permission cancelled by session/cancel and an unparsable line rejected with id null", () => {
    const lines: Line[] = [
      ...handshake({ loadSession: true }, { fs: { readTextFile: true } }),
      ["client", request(2, "session/prompt", text("read"))],
      ["agent", chunk()],
      ["agent", request(0, "fs/read_text_file", { sessionId: S, path: "/workspace/demo/a.txt" })],
      ["client", result(0, { content: "hello" })],
      ["agent", permission(1)],
      ["client", notification("session/cancel", { sessionId: S })],
      ["client", result(1, { outcome: { outcome: "cancelled" } })],
      ["agent", chunk()],
      ["agent", result(2, { stopReason: "cancelled" })],
      ["client", "{not json"],
      ["agent", failure(null, -32700, "Parse error")],
      ["client", request(3, "session/load", { sessionId: "old", cwd: "/workspace/demo", mcpServers: [] })],
      ["agent", chunk("old")],
      ["agent", result(3, {})],
      ["client", request(4, "_example.com/echo", { a: 1 })],
      ["agent", result(4, { a: 1 })],
    ];
    expect(run(lines)).toEqual(["non-json ACP-TRANSPORT-101 client"]);
  });

  it("keeps the v1 table and notes it when the agent answers a version with no generated table", () => {
    const monitor = createMonitor();
    monitor.observe("client", JSON.stringify(request(0, "initialize", { protocolVersion: 3 })), 0);
    monitor.observe("agent", JSON.stringify(result(0, { protocolVersion: 3 })), 1);
    expect({ table: monitor.state.table.name, negotiated: monitor.state.negotiated, notes: monitor.state.notes }).toEqual({
      table: "v1",
      negotiated: 3,
      notes: ["the agent answered protocolVersion 3; no table is generated for it, so v1 was used"],
    });
  });
});
