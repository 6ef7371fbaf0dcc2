// `inspect replay` on hand-written recordings against the scripted stub agent (test/fixtures/check-agent.mjs):
// a client that reuses an id, a session/list that grew since the recording, and waits that follow the
// recorded latencies (or say they expired).
import { describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { readRecording } from "../../tools/inspect/recording.ts";
import { buildPlan } from "../../tools/inspect/replay-plan.ts";
import { runReplay } from "../../tools/inspect/replay-run.ts";

const stub = fileURLToPath(new URL("../fixtures/check-agent.mjs", import.meta.url));
const agent = (...args: string[]) => [process.execPath, stub, ...args];
type Line = { t: number; from: "client" | "agent"; msg: Record<string, unknown> };
const rpc = (m: Record<string, unknown>) => ({ jsonrpc: "2.0", ...m });

/** A recording of `lines` between a start and an end record. */
const recording = (lines: readonly Line[]) => [{ type: "start", t: 0, time: "2026-01-01T00:00:00.000Z", command: ["agent"], format: 1 }, ...lines, { type: "end", t: 99_000, exit: 0 }].map((l) => JSON.stringify(l)).join("\n");
const init = (t: number, version: number): Line[] => [
  { t, from: "client", msg: rpc({ id: 0, method: "initialize", params: { protocolVersion: version, clientCapabilities: {} } }) },
  { t: t + 5, from: "agent", msg: rpc({ id: 0, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [], agentInfo: { name: "check-agent", version: "0.0.0" } } }) },
];
const replay = (text: string, command: readonly string[], timeoutMs = 5000) => runReplay(buildPlan(readRecording(text)), command, { timeoutMs, startMs: 20_000, quietMs: 300 });

describe("inspect replay: reused ids, grown lists, recorded latencies", () => {
  it("keys answers by request and position: two initialize with id 0 are both compared", async () => {
    const text = recording([...init(10, 2), ...init(20, 1), { t: 30, from: "client", msg: rpc({ id: 1, method: "session/new", params: { cwd: "/tmp", mcpServers: [] } }) }, { t: 35, from: "agent", msg: rpc({ id: 1, result: { sessionId: "s1" } }) }]);
    const plan = buildPlan(readRecording(text));
    expect([...plan.answers.keys()]).toEqual(["n0", "n0@1", "n1"]);
    const outcome = await replay(text, agent());
    expect({ sent: outcome.sent.requests, compared: outcome.compared.answers, differences: outcome.differences }).toEqual({ sent: 3, compared: 3, differences: [] });
  }, 30_000);

  it("a session/list that grew since the recording is not a difference; a changed item shape is", async () => {
    const lines: Line[] = [
      ...init(10, 1),
      { t: 20, from: "client", msg: rpc({ id: 1, method: "session/new", params: { cwd: "/tmp", mcpServers: [] } }) },
      { t: 25, from: "agent", msg: rpc({ id: 1, result: { sessionId: "s1" } }) },
      { t: 30, from: "client", msg: rpc({ id: 2, method: "session/list", params: {} }) },
    ];
    const grown = await replay(recording([...lines, { t: 35, from: "agent", msg: rpc({ id: 2, result: { sessions: [{ sessionId: "s1", cwd: "/tmp" }] } }) }]), agent("persisted", "3"));
    expect({ compared: grown.compared.answers, differences: grown.differences }).toEqual({ compared: 3, differences: [] });
    const changed = await replay(recording([...lines, { t: 35, from: "agent", msg: rpc({ id: 2, result: { sessions: [{ sessionId: "s1", cwd: "/tmp", title: "t" }] } }) }]), agent("persisted", "3"));
    expect(changed.differences.map((d) => `${d.at} ${d.path}`)).toEqual(["session/list #2 result.sessions[0].title", "session/list #2 result.sessions[1].title", "session/list #2 result.sessions[2].title", "session/list #2 result.sessions[3].title"]);
  }, 30_000);

  it("waits for an answer as long as the recording shows it took (twice), and says so when a wait expired", async () => {
    const prompt = (t: number): Line[] => [
      ...init(10, 1),
      { t: 20, from: "client", msg: rpc({ id: 1, method: "session/new", params: { cwd: "/tmp", mcpServers: [] } }) },
      { t: 25, from: "agent", msg: rpc({ id: 1, result: { sessionId: "s1" } }) },
      { t: 30, from: "client", msg: rpc({ id: 2, method: "session/prompt", params: { sessionId: "s1", prompt: [{ type: "text", text: "hi" }] } }) },
      { t: 40, from: "agent", msg: rpc({ method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "working" } } } }) },
      { t: 30 + t, from: "agent", msg: rpc({ id: 2, result: { stopReason: "end_turn" } }) },
      { t: 31 + t, from: "client", msg: rpc({ id: 3, method: "session/no_such_method", params: {} }) },
      { t: 32 + t, from: "agent", msg: rpc({ id: 3, error: { code: -32601, message: "Method not found" } }) },
    ];
    // The stub answers this prompt after 1.5 s: a recording that shows 2 s is waited for (4 s) despite --timeout 300.
    const slow = await replay(recording(prompt(2000)), agent("ignore-cancel"), 300);
    expect({ compared: slow.compared.answers, differences: slow.differences }).toEqual({ compared: 4, differences: [] });
    // A recording that shows 50 ms: the 300 ms wait expires, and the report says the replay went on.
    const fast = await replay(recording(prompt(50)), agent("ignore-cancel"), 300);
    expect(fast.differences[0]).toEqual({ kind: "timeout", at: "session/prompt #2", recorded: "a result after 50 ms", replayed: "no answer within 300 ms; the replay went on" });
  }, 40_000);
});
