// `acp-router inspect` on ACP v2 traffic, end to end: a scripted v2 agent's faults each caught by the right
// v2 rule, the example client's negotiated (v2) tour of the example agent with no violation, and the report
// built from a v2 recording with the same verdicts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Summary } from "../../tools/inspect/summary.ts";
import { buildModel } from "../../tools/report/model.ts";
import { converse, exampleAgent, exampleClient, fixture, inspectCommand, repoRoot, runCommand, scratch, tsNode } from "./support.ts";

const readSummary = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Summary;
const violationsOf = (s: Summary) => s.violations.map((v) => `${v.rule} ${v.requirement} ${v.by} ${v.count}`);
const rpc = (id: number, method: string, params: object) => ({ line: JSON.stringify({ jsonrpc: "2.0", id, method, params }), awaitAnswer: id });
const prompt = (id: number) => rpc(id, "session/prompt", { sessionId: "s1", prompt: [{ type: "text", text: `prompt ${id}` }] });

/** Runs the scripted v2 agent in `mode` behind inspect through three prompts; the summary and the recording. */
async function scripted(mode: "clean" | "faults") {
  const dir = scratch();
  const files = { summary: join(dir, "summary.json"), record: join(dir, "trace.ndjson") };
  const run = await converse(
    inspectCommand(["--summary", files.summary, "--record", files.record], tsNode(fixture("scripted-agent-v2.ts"), mode)),
    [rpc(0, "initialize", { protocolVersion: 2, info: { name: "test-client", version: "1" }, capabilities: {} }), rpc(1, "session/new", { cwd: "/workspace/demo" }), prompt(2), prompt(3), prompt(4)],
    40_000,
  );
  return { run, summary: readSummary(files.summary), record: readFileSync(files.record, "utf8") };
}

describe("acp-router inspect on ACP v2", () => {
  it("catches a scripted v2 agent's broken result, out-of-turn update and missing user-message echo, each with its v2 rule, and nothing in its clean run", async () => {
    const [faults, clean] = await Promise.all([scripted("faults"), scripted("clean")]);
    expect(faults.run.code).toBe(0);
    expect({ table: faults.summary.table, protocolVersion: faults.summary.protocolVersion }).toEqual({ table: "v2", protocolVersion: 2 });
    expect(violationsOf(faults.summary)).toEqual(["schema ACP-PROMPT-301 agent 1", "update-after-turn ACP-PROMPT-302 agent 1", "user-message-echo ACP-PROMPT-303 agent 1"]);
    expect(faults.summary.violations.map((v) => v.example)).toEqual([
      "session/prompt result do not match v2 PromptResponse: /messageId: must be string",
      "agent sent a agent_message_chunk update for session s1 after the idle state_update ended the turn and before the next prompt",
      'agent ended the turn of session/prompt #4 in session s1 without a user_message or user_message_chunk update with messageId "user-3"',
    ]);
    expect({ table: clean.summary.table, violations: clean.summary.violations, notes: clean.summary.notes }).toEqual({ table: "v2", violations: [], notes: [] });

    // The report reads the recording with the same monitor: the same verdicts, linked to the v2 spec pages.
    const model = buildModel(faults.record);
    expect({ table: model.table, notes: model.notes }).toEqual({ table: "table v2, protocol version 2", notes: [] });
    expect(model.violations.map((v) => `${v.rule} ${v.requirement} ${v.url ?? "-"}`)).toEqual([
      "schema ACP-PROMPT-301 https://github.com/agentclientprotocol/agent-client-protocol/blob/b7f0005493b98de32fabee3e9540e2b64da68535/docs/protocol/v2/prompt-lifecycle.mdx#L109",
      "update-after-turn ACP-PROMPT-302 https://github.com/agentclientprotocol/agent-client-protocol/blob/b7f0005493b98de32fabee3e9540e2b64da68535/docs/protocol/v2/prompt-lifecycle.mdx#L332",
      "user-message-echo ACP-PROMPT-303 https://github.com/agentclientprotocol/agent-client-protocol/blob/b7f0005493b98de32fabee3e9540e2b64da68535/docs/protocol/v2/prompt-lifecycle.mdx#L119",
    ]);
  }, 60_000);

  it("finds zero violations in the example client's negotiated tour of the example agent (npm run demo), judged by v2, and every prompt's user message echoed", async () => {
    const dir = scratch();
    const files = { summary: join(dir, "summary.json"), record: join(dir, "trace.ndjson") };
    const agent = inspectCommand(["--summary", files.summary, "--record", files.record], tsNode(exampleAgent))
      .map((w) => JSON.stringify(w))
      .join(" ");
    const run = await runCommand(tsNode(exampleClient, "--tour", "--agent", agent), "", 60_000);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
    expect(run.stdout.toString("utf8")).toContain("\nTour done (protocol 2): 5 steps ran.\n");
    const s = readSummary(files.summary);
    expect({ table: s.table, protocolVersion: s.protocolVersion, violations: s.violations, notes: s.notes }).toEqual({ table: "v2", protocolVersion: 2, violations: [], notes: [] });
    // Each acknowledged messageId comes back in a user_message update of the same session.
    const messages = readFileSync(files.record, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { msg?: { method?: string; result?: { messageId?: unknown }; params?: { update?: { sessionUpdate?: string; messageId?: unknown } } } });
    const acked = messages.map((e) => e.msg?.result?.messageId).filter((id) => typeof id === "string");
    const echoed = messages.filter((e) => e.msg?.params?.update?.sessionUpdate === "user_message").map((e) => e.msg?.params?.update?.messageId);
    expect(acked).toEqual(["user-1", "user-2", "user-3"]);
    expect(echoed).toEqual(acked);
  }, 70_000);

  it("follows the negotiating client to v1 when a v1-only agent answers its v2 initialize with 1 and it initializes again", async () => {
    const dir = scratch();
    const summary = join(dir, "summary.json");
    const agent = inspectCommand(["--summary", summary], tsNode(join(repoRoot, "docs/snippets/agent.ts")))
      .map((w) => JSON.stringify(w))
      .join(" ");
    const run = await runCommand(tsNode(exampleClient, "--prompt", "hello", "--agent", agent), "", 40_000);
    expect(run.code).toBe(0);
    const s = readSummary(summary);
    expect({ table: s.table, protocolVersion: s.protocolVersion, violations: s.violations, notes: s.notes }).toEqual({ table: "v1", protocolVersion: 1, violations: [], notes: [] });
    expect(s.methods.find((m) => m.method === "initialize")).toMatchObject({ requests: 2, results: 2, errors: 0 });
  }, 50_000);
});
