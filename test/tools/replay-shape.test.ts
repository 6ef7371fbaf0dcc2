// Replay's pieces on their own: shape comparison, id substitution, and the plan read from a recording.
import { describe, expect, it } from "vitest";
import { readRecording } from "../../tools/inspect/recording.ts";
import { buildPlan } from "../../tools/inspect/replay-plan.ts";
import { compareShape, substituteIds, type IdMap } from "../../tools/inspect/shape.ts";

describe("compareShape", () => {
  it("compares keys, types, array items and protocol tokens, not free text, generated ids or list lengths", () => {
    const ids: IdMap = new Map();
    const recorded = { sessionId: "a1", stopReason: "end_turn", title: "hello", text: "You said hi", n: 1, list: [1, 2], extra: true, nested: { kind: "read" } };
    const replayed = { sessionId: "b2", stopReason: "max_tokens", title: "bye", text: "Other words", n: 7, list: [1], added: null, nested: { kind: 3 } };
    expect(compareShape(recorded, replayed, "result", ids)).toEqual([
      { path: "result.stopReason", recorded: '"end_turn"', replayed: '"max_tokens"' },
      { path: "result.extra", recorded: "true", replayed: "absent" },
      { path: "result.nested.kind", recorded: '"read"', replayed: "3" },
      { path: "result.added", recorded: "absent", replayed: "null" },
    ]);
    expect([...ids]).toEqual([["a1", "b2"]]);
  });

  it("compares a list that grew (session/list against an agent that persists sessions) by its items' shape, learning no id from them", () => {
    const ids: IdMap = new Map();
    const recorded = { sessions: [{ sessionId: "s1", cwd: "/a", updatedAt: "2026-01-01" }] };
    const grown = {
      sessions: [
        { sessionId: "t9", cwd: "/b", updatedAt: "2026-01-02" },
        { sessionId: "t1", cwd: "/a", updatedAt: "2026-01-01" },
        { sessionId: "t2", cwd: "/c", updatedAt: "2026-01-03" },
      ],
    };
    expect(compareShape(recorded, grown, "result", ids)).toEqual([]);
    expect([...ids]).toEqual([]);
    const changed = {
      sessions: [
        { sessionId: "t1", cwd: "/a", updatedAt: "2026-02-01" },
        { sessionId: "t2", cwd: 3, updatedAt: "2026-02-01" },
      ],
    };
    expect(compareShape(recorded, changed, "result", ids)).toEqual([{ path: "result.sessions[1].cwd", recorded: "a string", replayed: "3" }]);
    expect(compareShape({ list: [] }, { list: [1, "two"] }, "result", ids)).toEqual([]);
  });

  it("substitutes learnt ids anywhere in a later client message, and says when it did", () => {
    const ids: IdMap = new Map([["a1", "b2"]]);
    expect(substituteIds({ params: { sessionId: "a1", prompt: [{ text: "a1" }], other: "a10" } }, ids)).toEqual({ value: { params: { sessionId: "b2", prompt: [{ text: "b2" }], other: "a10" } }, changed: true });
    expect(substituteIds({ x: "y" }, ids).changed).toBe(false);
  });
});

describe("buildPlan", () => {
  it("gives each client line what the agent wrote before it, and pairs the client's answers with agent requests by method and ordinal", () => {
    const lines = [
      { type: "start", t: 0, time: "2026-01-01T00:00:00.000Z", command: ["agent"], format: 1 },
      { t: 1, from: "client", msg: { jsonrpc: "2.0", id: 0, method: "initialize", params: {} } },
      { t: 2, from: "agent", msg: { jsonrpc: "2.0", id: 0, result: { protocolVersion: 1 } } },
      { t: 3, from: "client", msg: { jsonrpc: "2.0", id: 1, method: "session/prompt", params: {} } },
      { t: 4, from: "agent", msg: { jsonrpc: "2.0", method: "session/update", params: {} } },
      { t: 5, from: "agent", msg: { jsonrpc: "2.0", id: 7, method: "session/request_permission", params: {} } },
      { t: 6, from: "client", msg: { jsonrpc: "2.0", id: 7, result: { outcome: { outcome: "cancelled" } } } },
      { t: 7, from: "client", msg: { jsonrpc: "2.0", method: "session/cancel", params: {} } },
      { t: 8, from: "agent", msg: { jsonrpc: "2.0", id: 1, result: { stopReason: "cancelled" } } },
      { type: "end", t: 9, exit: 0 },
    ];
    const plan = buildPlan(readRecording(lines.map((l) => JSON.stringify(l)).join("\n")));
    expect(plan.steps.map((s) => [s.kind, s.method ?? s.answers?.method, s.afterAnswers, s.afterAgentRequests.map((r) => `${r.method}#${r.ordinal}`), s.afterNotifications])).toEqual([
      ["request", "initialize", [], [], 0],
      ["request", "session/prompt", ["n0"], [], 0],
      ["answer", "session/request_permission", [], ["session/request_permission#0"], 1],
      ["notification", "session/cancel", [], [], 1],
    ]);
    expect([...plan.answers.keys()]).toEqual(["n0", "n1"]);
    expect({ command: plan.command, exit: plan.exit, notifications: plan.notifications, lines: plan.lines.length }).toEqual({ command: ["agent"], exit: 0, notifications: 1, lines: 8 });
  });
});
