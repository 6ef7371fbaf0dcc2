// The monitor judges traffic with the table of the negotiated version (v1 stable, v1 unstable, v2) and
// applies v2's turn model: the acknowledgement does not end the turn, the idle state_update does.
import { describe, expect, it } from "vitest";
import { createMonitor, type Monitor } from "../../tools/inspect/monitor.ts";
import type { Sender } from "../../tools/inspect/rules.ts";
import { buildSummary, formatSummary } from "../../tools/inspect/summary.ts";
import { ALL_TABLES, BUILT_IN, describeTable, widerTableFor } from "../../tools/inspect/tables.ts";
import { notification, request } from "../support/messages.ts";
import { protocol as v1Protocol } from "../../src/index.ts";
import { protocol as unstableProtocol } from "../../src/unstable/index.ts";
import { protocol as v2Protocol } from "../../src/v2/index.ts";
import { protocol as v2UnstableProtocol } from "../../src/v2/unstable/index.ts";

/** The built-in table for a negotiated protocolVersion. */
const tableFor = BUILT_IN.forVersion;

type Line = readonly [Sender, unknown];
const S = "sess-1";
const result = (id: unknown, value: unknown) => ({ jsonrpc: "2.0", id, result: value });
const prompt = (id: number, t = "hi") => request(id, "session/prompt", { sessionId: S, prompt: [{ type: "text", text: t }] });
const update = (u: object) => notification("session/update", { sessionId: S, update: u });
const userMessage = (messageId: string) => update({ sessionUpdate: "user_message", messageId, content: [{ type: "text", text: "hi" }] });
const agentChunk = (text = "hi") => update({ sessionUpdate: "agent_message_chunk", messageId: "a1", content: { type: "text", text } });
const running = update({ sessionUpdate: "state_update", state: "running" });
const idle = (stopReason = "end_turn") => update({ sessionUpdate: "state_update", state: "idle", stopReason });
const info = { name: "x", version: "1" };

const initV2: Line[] = [
  ["client", request(0, "initialize", { protocolVersion: 2, info, capabilities: {} })],
  ["agent", result(0, { protocolVersion: 2, info, capabilities: { session: {} } })],
  ["client", request(1, "session/new", { cwd: "/workspace/demo" })],
  ["agent", result(1, { sessionId: S })],
];

function feed(lines: readonly Line[]): Monitor {
  const monitor = createMonitor();
  lines.forEach(([from, body], i) => monitor.observe(from, typeof body === "string" ? body : JSON.stringify(body), i));
  monitor.end(lines.length);
  return monitor;
}
const found = (m: Monitor) => m.violations.map((v) => `${v.rule} ${v.requirement} ${v.by} @${v.index}`);

describe("tools/inspect/tables.ts", () => {
  it("maps version 1 to v1 stable and 2 to v2, and no other version or type", () => {
    expect([tableFor(1)?.name, tableFor(2)?.name, tableFor(3), tableFor("2"), tableFor(undefined)]).toEqual(["v1", "v2", undefined, undefined, undefined]);
    expect(ALL_TABLES.map((t) => `${t.name} ${t.version} ${t.capabilityFields.params}/${t.capabilityFields.result} ${t.turnEnd ? "turnEnd" : "answer"}`)).toEqual([
      "v1 1 clientCapabilities/agentCapabilities answer",
      "v1-unstable 1 clientCapabilities/agentCapabilities answer",
      "v2 2 capabilities/capabilities turnEnd",
      "v2-unstable 2 capabilities/capabilities turnEnd",
    ]);
  });

  it("is each generated protocol value, read as it is: its version, name, capability fields and error codes", () => {
    expect(ALL_TABLES.map((t) => t.protocol)).toEqual([v1Protocol, unstableProtocol, v2Protocol, v2UnstableProtocol]);
    for (const t of ALL_TABLES) {
      expect(t.router).toBe(t.protocol);
      expect([t.version, t.name, t.capabilityFields, t.errorCodes]).toEqual([t.protocol.version, t.protocol.name, t.protocol.capabilityFields, t.protocol.errorCodes]);
    }
    expect(tableFor(2)?.errorCodes.UnsupportedProtocolVersion).toBe(-32022);
    expect(tableFor(1)?.errorCodes.UnsupportedProtocolVersion).toBeUndefined();
  });

  it("widens v1 stable to v1 unstable and v2 to v2 unstable only for a method the stable table lacks and the unstable one has", () => {
    const v1 = tableFor(1)!;
    expect(widerTableFor(v1, "agent", "request", "session/fork")?.name).toBe("v1-unstable");
    expect(widerTableFor(v1, "agent", "request", "session/new")).toBeUndefined();
    expect(widerTableFor(v1, "agent", "request", "session/nope")).toBeUndefined();
    expect(widerTableFor(tableFor(2)!, "agent", "request", "session/fork")?.name).toBe("v2-unstable");
    expect(widerTableFor(tableFor(2)!, "agent", "request", "session/new")).toBeUndefined();
  });
});

describe("the monitor's table", () => {
  it("is v2 once initialize is answered with protocolVersion 2, and v2 params and results pass its validators", () => {
    const m = feed([...initV2, ["client", request(2, "session/list", {})], ["agent", result(2, { sessions: [] })]]);
    expect({ table: m.state.table.name, negotiated: m.state.negotiated, found: found(m), notes: m.state.notes }).toEqual({ table: "v2", negotiated: 2, found: [], notes: [] });
    expect(describeTable(m.state)).toBe("table v2, protocol version 2");
    expect(formatSummary(buildSummary(m.state, m.violations, ["agent"], 0))).toMatch(/^acp-router inspect: 3 messages from the client, 3 from the agent; table v2, protocol version 2; agent exit 0\n/);
  });

  it("follows the latest initialize: a negotiating client offers 2, is answered 1, and initializes again with 1", () => {
    const m = feed([
      ["client", request(0, "initialize", { protocolVersion: 2, info, capabilities: {} })],
      ["agent", result(0, { protocolVersion: 1, agentCapabilities: { loadSession: true }, authMethods: [] })],
      ["client", request(1, "initialize", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true } } })],
      ["agent", result(1, { protocolVersion: 1, agentCapabilities: { loadSession: true }, authMethods: [] })],
      ["client", request(2, "session/load", { sessionId: S, cwd: "/workspace/demo", mcpServers: [] })],
      ["agent", result(2, {})],
      ["agent", request(3, "fs/read_text_file", { sessionId: S, path: "/workspace/demo/a" })],
      ["client", result(3, { content: "" })],
      ["client", prompt(4)],
      ["agent", result(4, { stopReason: "end_turn" })],
    ]);
    expect({ table: m.state.table.name, negotiated: m.state.negotiated, found: found(m) }).toEqual({ table: "v1", negotiated: 1, found: [] });
  });

  it("moves from v2 to v1 when a second initialize is answered 1, and judges what follows by v1", () => {
    const m = feed([...initV2.slice(0, 2), ["client", request(1, "initialize", { protocolVersion: 1, clientCapabilities: {} })], ["agent", result(1, { protocolVersion: 1, agentCapabilities: {}, authMethods: [] })], ["client", request(2, "session/new", { cwd: "/workspace/demo" })]]);
    expect({ table: m.state.table.name, found: found(m), notes: m.state.notes }).toEqual({
      table: "v1",
      found: ["schema ACP-JSONRPC-101 client @4"],
      notes: ["initialize was answered again, with protocolVersion 1: the v1 table judges the rest (the latest initialize is in force)"],
    });
  });

  it("judges the initialize request by the version it asks for, and its answer by the version answered", () => {
    const m = feed([
      ["client", request(0, "initialize", { protocolVersion: 2, capabilities: {} })],
      ["agent", result(0, { protocolVersion: 2, capabilities: {} })],
    ]);
    expect(m.violations.map((v) => v.message)).toEqual(["initialize params do not match v2 InitializeRequest: /info: is required", "initialize result do not match v2 InitializeResponse: /info: is required"]);
  });

  it("switches a v1 connection to v1 unstable at the first unstable-only method, and says so", () => {
    const m = feed([
      ["client", request(0, "initialize", { protocolVersion: 1, clientCapabilities: {} })],
      ["agent", result(0, { protocolVersion: 1, agentCapabilities: { sessionCapabilities: { fork: {} } }, authMethods: [] })],
      ["client", request(1, "session/new", { cwd: "/workspace/demo", mcpServers: [] })],
      ["agent", result(1, { sessionId: S })],
      ["client", request(2, "session/fork", { sessionId: S, cwd: "/workspace/demo" })],
      ["agent", result(2, { sessionId: "fork-1" })],
    ]);
    expect({ table: m.state.table.name, found: found(m), notes: m.state.notes }).toEqual({
      table: "v1-unstable",
      found: [],
      notes: ["switched from the v1 table to v1-unstable at message 4: client sent session/fork, which only v1-unstable has"],
    });
    // On v2 the same method switches to v2-unstable, which judges it: the agent of initV2 did not advertise session.fork.
    expect(feed([...initV2, ["client", request(2, "session/fork", { sessionId: S, cwd: "/w" })]]).violations.map((v) => v.rule)).toEqual(["capability-gate"]);
  });

  it("switches a v2 connection to v2 unstable at the first unstable-only method, and judges its answer with that table", () => {
    const init = [
      ["client", request(0, "initialize", { protocolVersion: 2, info: { name: "c", version: "1" }, capabilities: {} })],
      ["agent", result(0, { protocolVersion: 2, info: { name: "a", version: "1" }, capabilities: { session: { fork: {} } } })],
    ] as const;
    const m = feed([...init, ["client", request(1, "session/fork", { sessionId: S, cwd: "/w" })], ["agent", result(1, { sessionId: "fork-1" })]]);
    expect({ table: m.state.table.name, found: found(m), notes: m.state.notes }).toEqual({
      table: "v2-unstable",
      found: [],
      notes: ["switched from the v2 table to v2-unstable at message 2: client sent session/fork, which only v2-unstable has"],
    });
    expect(found(feed([...init, ["client", request(1, "session/fork", { sessionId: S, cwd: "/w" })], ["agent", result(1, { sessionId: 7 })]]))).toEqual([expect.stringMatching(/^schema /) as string]);
  });

  it("names v2's capability field when a v2 client calls a session method the agent did not advertise", () => {
    const m = feed([
      ["client", request(0, "initialize", { protocolVersion: 2, info, capabilities: {} })],
      ["agent", result(0, { protocolVersion: 2, info, capabilities: {} })],
      ["client", request(1, "session/new", { cwd: "/workspace/demo" })],
    ]);
    expect(m.violations.map((v) => `${v.rule} ${v.requirement}: ${v.message}`)).toEqual(["capability-gate ACP-SESSION-301: client called session/new but capabilities.session was not advertised by the agent"]);
  });
});

describe("v2 turn rules", () => {
  it("accept updates between the acknowledgement and the idle state_update, an echo before the acknowledgement, and background updates after idle", () => {
    const m = feed([
      ...initV2,
      ["client", prompt(2)],
      ["agent", userMessage("u1")],
      ["agent", result(2, { messageId: "u1" })],
      ["agent", running],
      ["agent", agentChunk()],
      ["agent", update({ sessionUpdate: "plan_update", plan: { type: "items", planId: "p", entries: [] } })],
      ["agent", idle()],
      ["agent", update({ sessionUpdate: "usage_update", used: 1, size: 10 })],
      ["agent", update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" })],
      ["client", prompt(3)],
      ["agent", result(3, { messageId: "u2" })],
      ["agent", userMessage("u2")],
      ["agent", agentChunk()],
      ["agent", idle()],
    ]);
    expect(found(m)).toEqual([]);
  });

  it("flag message content after the idle state_update (ACP-PROMPT-302) and tool updates after a cancelled turn's idle (ACP-CANCEL-306)", () => {
    const m = feed([
      ...initV2,
      ["client", prompt(2)],
      ["agent", result(2, { messageId: "u1" })],
      ["agent", userMessage("u1")],
      ["agent", idle()],
      ["agent", agentChunk("late")],
      ["client", prompt(3)],
      ["agent", result(3, { messageId: "u2" })],
      ["agent", userMessage("u2")],
      ["client", notification("session/cancel", { sessionId: S })],
      ["agent", idle("cancelled")],
      ["agent", update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" })],
    ]);
    expect(found(m)).toEqual(["update-after-turn ACP-PROMPT-302 agent @8", "update-after-turn ACP-CANCEL-306 agent @14"]);
    expect(m.violations[0]?.message).toBe(`agent sent a agent_message_chunk update for session ${S} after the idle state_update ended the turn and before the next prompt`);
  });

  it("check the echo of every prompt accepted into one piece of work, at the idle state_update that ends it", () => {
    const m = feed([...initV2, ["client", prompt(2)], ["agent", result(2, { messageId: "u1" })], ["agent", userMessage("u1")], ["client", prompt(3, "and also")], ["agent", result(3, { messageId: "u2" })], ["agent", agentChunk()], ["agent", idle()]]);
    expect(found(m)).toEqual(["user-message-echo ACP-PROMPT-303 agent @10"]);
    expect(m.violations[0]?.message).toBe(`agent ended the turn of session/prompt #3 in session ${S} without a user_message or user_message_chunk update with messageId "u2"`);
  });

  it("count a user_message_chunk as the echo, and never end a turn on a running state_update", () => {
    const m = feed([...initV2, ["client", prompt(2)], ["agent", result(2, { messageId: "u1" })], ["agent", running], ["agent", agentChunk()], ["agent", update({ sessionUpdate: "user_message_chunk", messageId: "u1", content: { type: "text", text: "hi" } })], ["agent", idle()]]);
    expect(found(m)).toEqual([]);
  });

  it("judge a broken acknowledgement with the v2 PromptResponse validator (ACP-PROMPT-301)", () => {
    const m = feed([...initV2, ["client", prompt(2)], ["agent", result(2, { stopReason: "end_turn" })], ["agent", idle()]]);
    expect(m.violations.map((v) => `${v.rule} ${v.requirement}: ${v.message}`)).toEqual(["schema ACP-PROMPT-301: session/prompt result do not match v2 PromptResponse: /messageId: is required"]);
  });

  it("leave v1 turns to the v1 rule: a chunk after the answer is out of turn", () => {
    const m = feed([
      ["client", request(0, "initialize", { protocolVersion: 1, clientCapabilities: {} })],
      ["agent", result(0, { protocolVersion: 1, agentCapabilities: {}, authMethods: [] })],
      ["client", request(1, "session/new", { cwd: "/w", mcpServers: [] })],
      ["agent", result(1, { sessionId: S })],
      ["client", prompt(2)],
      ["agent", result(2, { stopReason: "end_turn" })],
      ["agent", update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "late" } })],
    ]);
    expect(found(m)).toEqual(["update-after-turn ACP-PROMPT-001 agent @6"]);
  });
});
