// What a reader of docs/real-agents.md and docs/real-clients.md gets under each charge (issue 47, item 6): the
// lines quoted whole (or their first 2 KB and the record file's line), the spec's own sentence with its source
// and date, each fact counted once, the interoperability section, and the SDK a behaviour comes from.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import v1 from "../../docs/conformance-catalogue.json" with { type: "json" };
import v1Unstable from "../../docs/conformance-catalogue-unstable.json" with { type: "json" };
import v2 from "../../docs/conformance-catalogue-v2.json" with { type: "json" };
import v2Unstable from "../../docs/conformance-catalogue-v2-unstable.json" with { type: "json" };
import quotes from "../../docs/conformance-quotes.json" with { type: "json" };
import { QUOTE_BYTES, quoteText, show } from "../../tools/check/kit.ts";
import { renderText, type CheckReport } from "../../tools/check/main.ts";
import { AGENTS } from "../../tools/real-agents/agents.ts";
import { renderPage, type AgentRun } from "../../tools/real-agents/render.ts";
import { requirementLines } from "../../tools/real-agents/requirement.ts";
import { SDK_BATCH_REFUSAL, sdkOf } from "../../tools/real-agents/sdk.ts";

const QUOTES = quotes.quotes as Record<string, { citation: string; text: string; date: string }[]>;

describe("the spec's own words (docs/conformance-quotes.json)", () => {
  it("holds, for every catalogue entry, at least one sentence with its citation and its source's date", () => {
    for (const e of [...v1, ...v1Unstable, ...v2, ...v2Unstable]) {
      const q = QUOTES[e.id];
      expect(q?.length, e.id).toBeGreaterThan(0);
      for (const x of q!) {
        expect(x.text.length, e.id).toBeGreaterThan(10);
        expect(x.date, e.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(
          e.citation.split("; ").some((c) => x.citation.startsWith(c)),
          `${e.id}: ${x.citation}`,
        ).toBe(true);
      }
    }
  });

  it("quotes the sentence itself: the schema's id rule, and a docs sentence wrapped over two lines joined", () => {
    expect(QUOTES["ACP-JSONRPC-302"]).toEqual([{ citation: "schema.json#/$defs/RequestId (@agentclientprotocol/sdk 2.4.0, schema/v2/schema.json)", text: "The receiver MUST reply with the same value in the response.", date: "2026-11-02" }]);
    expect(QUOTES["ACP-JSONRPC-306"]?.[0]).toEqual({ citation: "docs/protocol/v2/transports.mdx:62", text: "The receiver SHOULD respond with an array containing the corresponding Response objects after all batch Request objects have been processed.", date: "2026-08-22" });
  });

  it("puts the statement, then each of the spec's sentences with a link to its line and the date, under a fail row", () => {
    const auth = requirementLines("ACP-AUTH-301");
    expect(auth[0]).toBe(`Requirement: ${v2.find((e) => e.id === "ACP-AUTH-301")!.statement}`);
    expect(auth[1]).toBe(`The spec's words: “${QUOTES["ACP-AUTH-301"]![0]!.text}” ([docs/protocol/v2/initialization.mdx:78](https://github.com/agentclientprotocol/agent-client-protocol/blob/b7f0005493b98de32fabee3e9540e2b64da68535/docs/protocol/v2/initialization.mdx#L78), 2026-08-22)`);
    expect(auth[1]).toContain("Returning one or more valid entries advertises the Agent's authentication surface and means the Agent MUST implement both `auth/login` and `auth/logout`.");
    expect(requirementLines("ACP-JSONRPC-302")[1]).toBe("The spec's words: “The receiver MUST reply with the same value in the response.” (`schema.json#/$defs/RequestId`, @agentclientprotocol/sdk 2.4.0, schema/v2/schema.json, 2026-11-02)");
    expect(requirementLines("ACP-NO-SUCH-999")).toEqual([]);
  });
});

describe("check's text report", () => {
  it("prints the spec's own words, with source and date, under a fail row that carries its evidence (not under a row linked to it)", () => {
    const text = renderText({
      protocol: 2,
      catalogue: "docs/conformance-catalogue-v2.json (ACP v2)",
      passed: false,
      notes: [],
      rows: [
        { id: "ACP-JSONRPC-302", tier: "MUST", outcome: "fail", evidence: "check sent …; the agent answered …" },
        { id: "ACP-JSONRPC-307", tier: "MUST NOT", outcome: "fail", evidence: "the same observation as ACP-JSONRPC-302", sameAs: "ACP-JSONRPC-302" },
      ],
    });
    const lines = text.split("\n");
    const at = lines.findIndex((l) => l.startsWith("fail    ACP-JSONRPC-302"));
    expect(lines[at + 1]).toBe(`${" ".repeat(44)}the spec: “The receiver MUST reply with the same value in the response.” (schema.json#/$defs/RequestId (@agentclientprotocol/sdk 2.4.0, schema/v2/schema.json), 2026-11-02)`);
    expect(lines[at + 2]).toMatch(/^fail {4}ACP-JSONRPC-307/);
  });
});

describe("evidence quotes whole lines", () => {
  it("quotes a line up to 2 KB whole, and a longer one by its first 2 KB, its size and the record file's line", () => {
    const short = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { text: "x".repeat(1500) } });
    expect(show(JSON.parse(short))).toBe(short);
    const long = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { text: "y".repeat(5000) } });
    expect(quoteText(long, 17)).toBe(`${long.slice(0, QUOTE_BYTES)}… (${long.length} bytes; the whole line is line 17 of the record file)`);
    expect(quoteText(long)).toBe(`${long.slice(0, QUOTE_BYTES)}… (${long.length} bytes; the rest is not shown)`);
  });
});

/** An install folder holding an agent package that depends on the SDK, and the SDK with a refusal and a line parse in its files. */
function fakeInstall(sdkVersion: string, withRefusal: boolean): string {
  const folder = mkdtempSync(join(tmpdir(), "acp-real-agent-"));
  mkdirSync(join(folder, "node_modules/some-agent"), { recursive: true });
  writeFileSync(join(folder, "node_modules/some-agent/package.json"), JSON.stringify({ name: "some-agent", dependencies: { "@agentclientprotocol/sdk": `^${sdkVersion}` } }));
  mkdirSync(join(folder, "node_modules/@agentclientprotocol/sdk/dist/core"), { recursive: true });
  writeFileSync(join(folder, "node_modules/@agentclientprotocol/sdk/package.json"), JSON.stringify({ name: "@agentclientprotocol/sdk", version: sdkVersion }));
  writeFileSync(join(folder, "node_modules/@agentclientprotocol/sdk/dist/core/stream.js"), "const message = JSON.parse(trimmedLine);\n");
  writeFileSync(join(folder, "node_modules/@agentclientprotocol/sdk/dist/core/jsonrpc.js"), withRefusal ? `invalidRequest(undefined, "${SDK_BATCH_REFUSAL}")\n` : "// no batches here\n");
  return folder;
}

describe("the SDK an agent is built on", () => {
  it("is read from the agent's install: name, version, and what of its behaviour its files show", () => {
    expect(sdkOf(fakeInstall("2.4.0", true), "some-agent")).toEqual({ name: "@agentclientprotocol/sdk", version: "2.4.0", refusesBatches: true, parsesWithJsonParse: true });
    expect(sdkOf(fakeInstall("0.18.0", false), "some-agent")).toEqual({ name: "@agentclientprotocol/sdk", version: "0.18.0", refusesBatches: false, parsesWithJsonParse: true });
    // An agent whose package names no SDK (a binary, or its own JSON-RPC code) is attributed nothing.
    const folder = fakeInstall("2.4.0", true);
    writeFileSync(join(folder, "node_modules/some-agent/package.json"), JSON.stringify({ name: "some-agent", dependencies: {} }));
    expect(sdkOf(folder, "some-agent")).toBeUndefined();
  });

  it("is named on the card, with the batch refusal it writes marked under the fail row; linked rows count once; the interoperability section is shown", () => {
    const refusal = `check sent [{"jsonrpc":"2.0","id":5001,"method":"_acp-router.check/a","params":{}}]; the agent answered {"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: ${SDK_BATCH_REFUSAL}"}}`;
    const report: CheckReport = {
      protocol: 2,
      catalogue: "docs/conformance-catalogue-v2.json (ACP v2)",
      passed: true,
      notes: [],
      rows: [
        { id: "ACP-JSONRPC-306", tier: "SHOULD", outcome: "fail", evidence: refusal },
        { id: "ACP-JSONRPC-307", tier: "MUST NOT", outcome: "fail", evidence: "a notification was answered {…}. The same fact decides ACP-EXT-303 (counted once, here)" },
        { id: "ACP-EXT-303", tier: "SHOULD", outcome: "fail", evidence: "the same observation as ACP-JSONRPC-307, which shows the evidence (counted once, there)", sameAs: "ACP-JSONRPC-307" },
        { id: "ACP-JSONRPC-302", tier: "MUST", outcome: "pass", evidence: undefined },
      ],
      sections: [{ id: "interoperability", title: "Interoperability: request ids beyond ±(2^53−1)", about: "not judged", findings: [{ id: "id 9007199254740993", outcome: "answered with id 9007199254740992", evidence: "check sent …" }] }],
    };
    const run: AgentRun = { agent: AGENTS[0]!, installError: undefined, report, exit: 0, seconds: 9, stderrTail: "", left: [], sdk: { name: "@agentclientprotocol/sdk", version: "2.4.0", refusesBatches: true, parsesWithJsonParse: true } };
    const page = renderPage([run], 60);
    expect(page).toContain(`| ${AGENTS[0]!.pkg}@${AGENTS[0]!.version} | v2 | 1 | 2 | 0 | 0 | 0 | no | 0 | 0 |`);
    expect(page).toContain("1 pass, 2 fail, 0 n/a, 0 not observable, 0 not run (0 of them: no probe) (1 more row decided by an observation counted with another row)");
    expect(page).toContain(
      `Built on @agentclientprotocol/sdk 2.4.0 (a dependency of the agent, read from its install): its answer to a JSON-RPC batch (one -32600 "${SDK_BATCH_REFUSAL}", written by the SDK before the agent's code sees the batch); its answer to a request id beyond ±(2^53−1) with another id (the SDK reads each line with JSON.parse, which holds such an id as the nearest double) come from that SDK, not from the agent's own code.`,
    );
    // A card that shows neither behaviour names the SDK and attributes nothing to it.
    const plain = renderPage([{ ...run, report: { ...report, rows: report.rows.slice(1), sections: [] } }], 60);
    expect(plain).toContain("Built on @agentclientprotocol/sdk 2.4.0 (a dependency of the agent, read from its install).\n");
    expect(page).toContain("  - This answer is written by @agentclientprotocol/sdk 2.4.0, the SDK the agent is built on, not by the agent's own code.");
    expect(page).not.toContain("- **ACP-EXT-303**");
    expect(page).toContain("Interoperability: request ids beyond ±(2^53−1) (not counted in the totals or the exit status):");
    expect(page).toContain("- **id 9007199254740993**: answered with id 9007199254740992. check sent …");
    // The SDK line is absent for an agent with no SDK, and the refusal is not attributed to one.
    const bare = renderPage([{ ...run, sdk: undefined }], 60);
    expect(bare).not.toContain("Built on");
    expect(bare).not.toContain("This answer is written by");
  });
});
