// `acp-router check -- <agent>`: the scorecard of the example agent (v2 and v1), the SDK agent and a broken agent.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { CheckReport } from "../../tools/check/main.ts";
import { V1_CHECKLIST, V2_CHECKLIST } from "../../tools/check/checklist.ts";
import { bundledCli, exampleAgent, fixture, runCommand, scratch, sdkAgent, STUB_WINDOWS, tsNode } from "./support.ts";

const check = async (agent: readonly string[], ...options: string[]) => {
  const run = await runCommand(bundledCli("check", "--json", ...STUB_WINDOWS, "--timeout", "10", "--cwd", scratch(), ...options, "--", ...agent), "", 90_000);
  const card = JSON.parse(run.stdout.toString("utf8")) as CheckReport;
  return { code: run.code, card, failed: card.rows.filter((r) => r.outcome === "fail").map((r) => `${r.id} ${r.evidence}`), outcome: (id: string) => card.rows.find((r) => r.id === id)?.outcome };
};

/** The v1 rows the example agent passes (the rest are n/a with a reason, or not observable). */
const V1_JUDGED = [
  "ACP-AUTH-002",
  "ACP-AUTH-005",
  "ACP-CANCEL-001",
  "ACP-CANCEL-002",
  "ACP-CANCEL-101",
  "ACP-CANCEL-102",
  "ACP-CANCEL-105",
  "ACP-CANCEL-109",
  "ACP-CANCEL-205",
  "ACP-CLIENTCAP-001",
  "ACP-CLIENTCAP-002",
  "ACP-CLIENTCAP-003",
  "ACP-CLIENTCAP-101",
  "ACP-CLIENTCAP-102",
  "ACP-CLOSE-002",
  "ACP-ERROR-001",
  "ACP-ERROR-101",
  "ACP-EXT-001",
  "ACP-EXT-101",
  "ACP-EXT-201",
  "ACP-FS-101",
  "ACP-INFO-INVALIDREQ-001",
  "ACP-INFO-PARSE-001",
  "ACP-INIT-001",
  "ACP-INIT-002",
  "ACP-INIT-003",
  "ACP-INIT-004",
  "ACP-INIT-103",
  "ACP-INIT-106",
  "ACP-INIT-107",
  "ACP-INIT-109",
  "ACP-INIT-110",
  "ACP-JSONRPC-001",
  "ACP-JSONRPC-002",
  "ACP-JSONRPC-003",
  "ACP-JSONRPC-004",
  "ACP-JSONRPC-005",
  "ACP-JSONRPC-101",
  "ACP-JSONRPC-102",
  "ACP-JSONRPC-103",
  "ACP-LIST-002",
  "ACP-LIST-103",
  "ACP-LIST-107",
  "ACP-LIST-204",
  "ACP-LOAD-002",
  "ACP-LOAD-102",
  "ACP-MCP-101",
  "ACP-MCP-102",
  "ACP-META-001",
  "ACP-META-102",
  "ACP-PATH-101",
  "ACP-PATH-102",
  "ACP-PLAN-101",
  "ACP-PLAN-102",
  "ACP-PLAN-103",
  "ACP-PROMPT-001",
  "ACP-PROMPT-003",
  "ACP-PROMPT-101",
  "ACP-SCHEMA-002",
  "ACP-SESSION-001",
  "ACP-SESSION-002",
  "ACP-SESSION-101",
  "ACP-SESSION-103",
  "ACP-SESSION-104",
  "ACP-SESSION-107",
  "ACP-SHUTDOWN-001",
  "ACP-TERM-101",
  "ACP-TOOL-101",
  "ACP-TOOL-102",
  "ACP-TRANSPORT-001",
  "ACP-TRANSPORT-002",
  "ACP-TRANSPORT-103",
  "ACP-TRANSPORT-203",
];

describe("acp-router check --json -- <agent>", () => {
  it("negotiates v2 with the example agent and scores it with the v2 catalogue: every v2 agent-side row listed, no fail", async () => {
    const { code, card, failed } = await check(tsNode(exampleAgent));
    expect({ code, protocol: card.protocol, catalogue: card.catalogue, failed }).toEqual({ code: 0, protocol: 2, catalogue: V2_CHECKLIST.catalogue, failed: [] });
    expect(card.rows.map((r) => r.id)).toEqual(V2_CHECKLIST.entries.map((e) => e.id));
    for (const id of ["ACP-INIT-303", "ACP-SESSION-301", "ACP-PROMPT-301", "ACP-PROMPT-302", "ACP-CANCEL-302", "ACP-CANCEL-303", "ACP-JSONRPC-305", "ACP-JSONRPC-309", "ACP-EXT-302"]) expect(card.rows.find((r) => r.id === id)?.outcome, id).toBe("pass");
  }, 100_000);

  it("passes the example agent on every v1 row it judges with --protocol 1, and lists every agent-side v1 requirement", async () => {
    const { code, card, failed } = await check(tsNode(exampleAgent), "--protocol", "1");
    // The example agent starts no MCP server it is given, but its turns use no tool: ACP-MCP-104 is n/a (it may connect when a model needs tools).
    expect({ code, protocol: card.protocol, passed: card.passed, failed }).toEqual({ code: 0, protocol: 1, passed: true, failed: [] });
    expect(card.rows.find((r) => r.id === "ACP-MCP-104")?.evidence).toContain("without a tool call, and the server was not started");
    expect(card.rows.map((r) => r.id)).toEqual(V1_CHECKLIST.entries.map((e) => e.id));
    expect(
      card.rows
        .filter((r) => r.outcome === "pass")
        .map((r) => r.id)
        .sort(),
    ).toEqual(V1_JUDGED);
    // Every other row is n/a with its reason (a feature the agent does not offer or did not show) or not observable with the catalogue's reason: none is left without a probe.
    const unobservable = new Map(V1_CHECKLIST.entries.filter((e) => e.observable === false).map((e) => [e.id, e.unobservable]));
    for (const r of card.rows.filter((x) => x.outcome !== "pass" && x.outcome !== "fail")) {
      if (unobservable.has(r.id)) expect(r, r.id).toMatchObject({ outcome: "not observable", evidence: unobservable.get(r.id) });
      else expect({ id: r.id, outcome: r.outcome, reason: typeof r.evidence === "string" && r.evidence.length > 0 }).toEqual({ id: r.id, outcome: "n/a", reason: true });
    }
  }, 100_000);

  it("scores the SDK agent (v1 after asking for v2): its 2^53+1 id answered as 2^53 an interoperability finding (no fail), the ids every implementation holds echoed (pass), the invalid Request object answered (pass), its fs read without the capability a MUST fail, the turn left pending at shutdown unanswered (a SHOULD)", async () => {
    const { code, card, failed } = await check(tsNode(sdkAgent));
    expect(card.protocol).toBe(1);
    expect({ code, passed: card.passed }).toEqual({ code: 1, passed: false });
    expect(failed.map((f) => f.split(" ")[0])).toEqual(["ACP-INIT-107", "ACP-CANCEL-109", "ACP-FS-101", "ACP-CLIENTCAP-001"]);
    expect(card.rows.find((r) => r.id === "ACP-JSONRPC-001")?.outcome).toBe("pass");
    expect(card.sections?.find((x) => x.id === "interoperability")?.findings.map((f) => f.outcome)).toEqual(["answered with id 9007199254740992", "answered with id -9007199254740992"]);
    // The SDK peer reads a file it is asked to even when check's client withheld fs: the capability-gate rows catch it.
    expect(failed[0]).toContain("check's client advertised no client capability, yet the agent sent");
    for (const id of ["ACP-INFO-INVALIDREQ-001", "ACP-INFO-PARSE-001", "ACP-SHUTDOWN-001"]) expect(card.rows.find((r) => r.id === id)?.outcome, id).toBe("pass");
    expect(card.notes.some((n) => n.startsWith("a request with id 1.5 (fractional ids SHOULD NOT be sent, but JSON-RPC allows them) was served as a request"))).toBe(true);
    expect(card.rows.find((r) => r.id === "ACP-LIST-103")).toEqual({ id: "ACP-LIST-103", tier: "MUST", outcome: "n/a", evidence: "agentCapabilities.sessionCapabilities.list was not advertised by the agent" });
  }, 100_000);

  it("scores the SDK v2 agent: a batch refused whole with one -32600 fails ACP-JSONRPC-306 (no array of responses) quoting the batch, and is no empty array (ACP-JSONRPC-308 passes, the refusal noted); 2^53+1 answered as 2^53 is an interoperability finding, ACP-JSONRPC-302 passes on the ids every implementation holds", async () => {
    const { card, failed } = await check(tsNode(fileURLToPath(new URL("../peers/sdk-v2-agent.ts", import.meta.url))));
    expect(card.protocol).toBe(2);
    const ids = failed.map((f) => f.split(" ")[0]);
    expect(ids).toContain("ACP-JSONRPC-306");
    expect(card.rows.find((r) => r.id === "ACP-JSONRPC-302")?.outcome).toBe("pass");
    expect(card.sections?.[0]?.findings[0]?.outcome).toBe("answered with id 9007199254740992");
    expect(failed.find((f) => f.startsWith("ACP-JSONRPC-306"))).toContain(
      'check sent [{"jsonrpc":"2.0","id":5001,"method":"_acp-router.check/a","params":{}},{"jsonrpc":"2.0","id":5002,"method":"_acp-router.check/b","params":{}}]; the agent answered {"jsonrpc":"2.0","id":null,"error":{"code":-32600,',
    );
    expect(card.rows.find((r) => r.id === "ACP-JSONRPC-308")?.outcome).toBe("pass");
    expect(card.notes.some((n) => n.startsWith('ACP-JSONRPC-308: check sent [{"jsonrpc":"2.0","method":"_acp-router.check/note","params":{}}]; the agent answered {"jsonrpc":"2.0","id":null,"error":{"code":-32600,') && n.endsWith("not the empty array the row forbids, so noted"))).toBe(true);
  }, 100_000);

  it("fails an agent that logs on stdout, with the line as evidence, and exits 1", async () => {
    const { code, card, failed } = await check(tsNode(fixture("scripted-agent.ts"), "log-on-stdout"));
    expect({ code, passed: card.passed }).toEqual({ code: 1, passed: false });
    expect(failed).toContain('ACP-TRANSPORT-001 agent wrote a line that is not JSON (Unexpected token \'s\', "scripted a"... is not valid JSON): "scripted agent starting"');
  }, 100_000);
});
