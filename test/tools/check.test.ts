// `acp-router check -- <agent>`: the scorecard of the example agent (v2 and v1), the SDK agent and a broken agent.
import { describe, expect, it } from "vitest";
import type { CheckReport } from "../../tools/check/main.ts";
import { V1_CHECKLIST, V2_CHECKLIST } from "../../tools/check/checklist.ts";
import { exampleAgent, fixture, runCommand, scratch, sdkAgent, tsNode } from "./support.ts";

const check = async (agent: readonly string[], ...options: string[]) => {
  const run = await runCommand(tsNode(fixture("run-check.ts"), "--json", "--timeout", "10", "--cwd", scratch(), ...options, "--", ...agent), "", 90_000);
  const card = JSON.parse(run.stdout.toString("utf8")) as CheckReport;
  return { code: run.code, card, failed: card.rows.filter((r) => r.outcome === "fail").map((r) => `${r.id} ${r.evidence}`), outcome: (id: string) => card.rows.find((r) => r.id === id)?.outcome };
};

/** The v1 rows check's probes and the traffic judge (the rest are "not run: no probe"). */
const V1_JUDGED = ["ACP-AUTH-005", "ACP-CANCEL-001", "ACP-CANCEL-002", "ACP-CANCEL-102", "ACP-CANCEL-105", "ACP-ERROR-101", "ACP-EXT-001", "ACP-EXT-201", "ACP-INFO-INVALIDREQ-001", "ACP-INFO-PARSE-001", "ACP-INIT-001", "ACP-JSONRPC-001", "ACP-JSONRPC-002", "ACP-JSONRPC-003", "ACP-JSONRPC-004", "ACP-JSONRPC-005", "ACP-JSONRPC-101", "ACP-LIST-103", "ACP-PROMPT-001", "ACP-PROMPT-003", "ACP-PROMPT-101", "ACP-SESSION-001", "ACP-SESSION-101", "ACP-SHUTDOWN-001", "ACP-TRANSPORT-001", "ACP-TRANSPORT-203"];

describe("acp-router check --json -- <agent>", () => {
  it("negotiates v2 with the example agent and scores it with the v2 catalogue: every v2 agent-side row listed, no fail", async () => {
    const { code, card, failed } = await check(tsNode(exampleAgent));
    expect({ code, protocol: card.protocol, catalogue: card.catalogue, failed }).toEqual({ code: 0, protocol: 2, catalogue: V2_CHECKLIST.catalogue, failed: [] });
    expect(card.rows.map((r) => r.id)).toEqual(V2_CHECKLIST.entries.map((e) => e.id));
    for (const id of ["ACP-INIT-303", "ACP-SESSION-301", "ACP-PROMPT-301", "ACP-PROMPT-302", "ACP-CANCEL-302", "ACP-CANCEL-303", "ACP-JSONRPC-305", "ACP-JSONRPC-309", "ACP-EXT-302"]) expect(card.rows.find((r) => r.id === id)?.outcome, id).toBe("pass");
  }, 100_000);

  it("passes the example agent on every v1 row it judges with --protocol 1, and lists every agent-side v1 requirement", async () => {
    const { code, card, failed } = await check(tsNode(exampleAgent), "--protocol", "1");
    expect({ code, protocol: card.protocol, passed: card.passed, failed }).toEqual({ code: 0, protocol: 1, passed: true, failed: [] });
    expect(card.rows.map((r) => r.id)).toEqual(V1_CHECKLIST.entries.map((e) => e.id));
    expect(card.rows.filter((r) => r.outcome === "pass").map((r) => r.id).sort()).toEqual(V1_JUDGED);
    expect(card.rows.filter((r) => r.outcome !== "pass").every((r) => r.outcome === "not run" && r.evidence === "check has no probe for this requirement")).toBe(true);
  }, 100_000);

  it("scores the SDK agent (v1 after asking for v2): its changed 2^53+1 id a note (beyond RFC 8259's interoperable range), its safe ids echoed, its silence on an id-only message and its answer to id 1.5 (SHOULDs)", async () => {
    const { code, card, failed } = await check(tsNode(sdkAgent));
    expect(card.protocol).toBe(1);
    expect({ code, passed: card.passed }).toEqual({ code: 0, passed: true });
    expect(failed.map((f) => f.split(" ")[0])).toEqual(["ACP-INFO-INVALIDREQ-001"]);
    expect(card.rows.find((r) => r.id === "ACP-JSONRPC-001")?.outcome).toBe("pass");
    expect(card.notes).toContain("ACP-JSONRPC-001: beyond the interoperable range of RFC 8259 §6: a request with id 9007199254740993 (2^53+1) was answered with id 9007199254740992");
    expect(failed[0]).toContain('{"jsonrpc":"2.0","id":77} got no answer (the request sent after it was answered)');
    expect(failed[0]).toContain("a request with id 1.5");
    expect(card.rows.find((r) => r.id === "ACP-LIST-103")).toEqual({ id: "ACP-LIST-103", tier: "MUST", outcome: "n/a", evidence: "agentCapabilities.sessionCapabilities.list was not advertised by the agent" });
  }, 100_000);

  it("fails an agent that logs on stdout, with the line as evidence, and exits 1", async () => {
    const { code, card, failed } = await check(tsNode(fixture("scripted-agent.ts"), "log-on-stdout"));
    expect({ code, passed: card.passed }).toEqual({ code: 1, passed: false });
    expect(failed).toContain('ACP-TRANSPORT-001 agent wrote a line that is not JSON (Unexpected token \'s\', "scripted a"... is not valid JSON): "scripted agent starting"');
  }, 100_000);
});
