// `acp-router check -- <agent>`: the scorecard of the example agent, the SDK agent and a broken agent.
import { describe, expect, it } from "vitest";
import type { ScoreRow } from "../../tools/check/main.ts";
import { exampleAgent, fixture, runCommand, scratch, sdkAgent, tsNode } from "./support.ts";

const check = async (agent: readonly string[]) => {
  const run = await runCommand(tsNode(fixture("run-check.ts"), "--json", "--cwd", scratch(), "--", ...agent), "", 60_000);
  const card = JSON.parse(run.stdout.toString("utf8")) as { rows: ScoreRow[]; passed: boolean };
  return { code: run.code, card, failed: card.rows.filter((r) => r.outcome === "fail").map((r) => `${r.id} ${r.evidence}`) };
};

const PROBED = ["ACP-CANCEL-001", "ACP-CANCEL-102", "ACP-CANCEL-105", "ACP-EXT-001", "ACP-EXT-201", "ACP-INFO-INVALIDREQ-001", "ACP-INFO-PARSE-001", "ACP-INIT-001", "ACP-JSONRPC-003", "ACP-JSONRPC-004", "ACP-JSONRPC-005", "ACP-JSONRPC-101", "ACP-LIST-103", "ACP-PROMPT-001", "ACP-PROMPT-003", "ACP-PROMPT-101", "ACP-SESSION-001", "ACP-SESSION-101", "ACP-SHUTDOWN-001", "ACP-TRANSPORT-203"];

describe("acp-router check --json -- <agent>", () => {
  it("passes the example agent on every probed requirement and exits 0", async () => {
    const { code, card, failed } = await check(tsNode(exampleAgent));
    expect({ code, passed: card.passed, failed }).toEqual({ code: 0, passed: true, failed: [] });
    expect(card.rows.map((r) => r.id)).toEqual(PROBED);
    expect(card.rows.every((r) => r.outcome === "pass")).toBe(true);
  }, 70_000);

  it("scores the SDK agent: only its documented silence on an id-only message fails (a SHOULD), session/list is not applicable, exit 0", async () => {
    const { code, card, failed } = await check(tsNode(sdkAgent));
    expect({ code, passed: card.passed, failed }).toEqual({ code: 0, passed: true, failed: ['ACP-INFO-INVALIDREQ-001 {"jsonrpc":"2.0","id":77} was answered no answer'] });
    expect(card.rows.find((r) => r.id === "ACP-LIST-103")).toEqual({ id: "ACP-LIST-103", tier: "MUST", outcome: "n/a", evidence: "sessionCapabilities.list is not advertised" });
  }, 70_000);

  it("fails an agent that logs on stdout, with the line as evidence, and exits 1", async () => {
    const { code, card, failed } = await check(tsNode(fixture("scripted-agent.ts"), "log-on-stdout"));
    expect({ code, passed: card.passed }).toEqual({ code: 1, passed: false });
    expect(failed).toContain('ACP-TRANSPORT-001 agent wrote a line that is not JSON (Unexpected token \'s\', "scripted a"... is not valid JSON): "scripted agent starting"');
  }, 70_000);
});
