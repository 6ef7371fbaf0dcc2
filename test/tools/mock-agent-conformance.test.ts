/**
 * The mock agent is itself a conformant agent: behind `acp-router inspect`
 * every grammar element runs with no violation (the two forward-compatibility
 * probes that break a rule on purpose are each seen as exactly that one
 * violation), and `acp-router check -- acp-router mock-agent` passes with no
 * MUST failure in v1 and v2. The SDK client drives it, so refused and error
 * prompts do not end the session.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Summary } from "../../tools/inspect/summary.ts";
import { mockAgent, mockCwd } from "./mock-agent-support.ts";
import { sdkV1Client, sdkV2Client, spawnedStream } from "./mock-agent-sdk.ts";
import { bundledCli, fixture, inspectCommand, runCommand, scratch, STUB_WINDOWS, tsNode } from "./support.ts";

const V1_CAPS = { fs: { readTextFile: true, writeTextFile: true }, terminal: true, session: { notices: {}, compaction: {} }, elicitation: { form: {} } };

/** Every v1 element whose traffic is conformant, each as a prompt (refusals and #error included: an error answer is conformant). */
const CONFORMANT_V1 = ["hello", "#updates all", "#updates message 3", "#updates tool", "#permission", "#read notes.txt", "#write out.txt text", "#terminal echo x", "#terminal-kill sleep 30", "#elicit", "#big 100000", "#sleep 10", "#meta", "#error -32042 boom", "#bogus", "#updates state"];

const readSummary = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Summary;
const violations = (s: Summary) => s.violations.map((v) => `${v.by} ${v.rule} ${v.requirement} x${v.count}`);

/** Runs `prompts` (and `#hang`, cancelled) through inspect with an SDK client of `version`; resolves with inspect's summary. */
async function behindInspect(version: 1 | 2, prompts: readonly string[]): Promise<Summary> {
  const summary = join(scratch(), "summary.json");
  const source = spawnedStream(inspectCommand(["--summary", summary], mockAgent()));
  const cwd = mockCwd();
  if (version === 1) {
    const c = sdkV1Client(source);
    await c.agent.request("initialize", { protocolVersion: 1, clientCapabilities: V1_CAPS });
    const { sessionId } = await c.agent.request("session/new", { cwd, mcpServers: [] });
    for (const text of prompts) await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] }).catch(() => undefined);
    const hang = c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "#hang" }] });
    while (!c.updates.some((u) => JSON.stringify(u.update).includes("hanging"))) await new Promise((r) => setTimeout(r, 10));
    await c.agent.notify("session/cancel", { sessionId });
    expect((await hang).stopReason).toBe("cancelled");
    expect(await c.close()).toBe(0);
  } else {
    const c = sdkV2Client(source);
    await c.agent.request("initialize", { protocolVersion: 2, info: { name: "sdk", version: "0" }, capabilities: { elicitation: { form: {} } } });
    const { sessionId } = await c.agent.request("session/new", { cwd });
    const idles = () => c.updates.filter((u) => u.update.sessionUpdate === "state_update" && (u.update as { state?: string }).state === "idle").length;
    for (const text of [...prompts, "#hang"]) {
      const before = idles();
      const ack = await c.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] }).then(
        () => true,
        () => false,
      );
      if (!ack) continue;
      if (text === "#hang") {
        while (!c.updates.some((u) => JSON.stringify(u.update).includes("hanging"))) await new Promise((r) => setTimeout(r, 10));
        await c.agent.notify("session/cancel", { sessionId });
      }
      while (idles() === before) await new Promise((r) => setTimeout(r, 10));
    }
    expect(await c.close()).toBe(0);
  }
  return readSummary(summary);
}

describe("mock-agent behind acp-router inspect", () => {
  it("v1: every conformant element, #hang cancelled included, has 0 violations and no request left unanswered", async () => {
    const s = await behindInspect(1, CONFORMANT_V1);
    expect(s.protocolVersion).toBe(1);
    expect(violations(s)).toEqual([]);
    expect(s.unanswered).toEqual([]);
  }, 60_000);

  it("v1: #unknown-update and #foreign-session are each exactly the one violation they probe", async () => {
    const s = await behindInspect(1, ["#unknown-update", "#foreign-session"]);
    expect(violations(s)).toEqual(["agent schema ACP-JSONRPC-101 x1", "agent unknown-session ACP-SESSION-001 x1"]);
  }, 60_000);

  it("v2: every element has 0 violations (an unknown kind is valid in v2) but #foreign-session's one", async () => {
    const s = await behindInspect(2, ["hello", "#updates all", "#permission", "#elicit", "#big 100000", "#sleep 10", "#meta", "#unknown-update", "#error -32042 boom", "first\n#error -32043 later", "#read x", "#foreign-session"]);
    expect(s.protocolVersion).toBe(2);
    expect(violations(s)).toEqual(["agent unknown-session ACP-SESSION-001 x1"]);
    expect(s.unanswered).toEqual([]);
  }, 60_000);
});

describe("acp-router check -- acp-router mock-agent", () => {
  it.each([1, 2] as const)(
    "passes with 0 MUST failures in v%i",
    async (version) => {
      const run = await runCommand(bundledCli("check", "--json", ...STUB_WINDOWS, "--timeout", "10", "--protocol", String(version), "--cwd", scratch(), "--", ...mockAgent()), "", 90_000);
      const report = JSON.parse(run.stdout.toString("utf8")) as { protocol: number; passed: boolean; rows: { id: string; tier: string; outcome: string }[] };
      expect(report.protocol).toBe(version);
      expect(report.rows.filter((r) => r.outcome === "fail").map((r) => `${r.id} ${r.tier}`)).toEqual([]);
      expect(report.rows.filter((r) => r.outcome === "pass").length).toBeGreaterThan(15);
      expect(report.passed).toBe(true);
      expect(run.code).toBe(0);
    },
    90_000,
  );
});
