// docs/real-clients.md and its renderer (tools/real-clients/render.ts): machine paths scrubbed, one section per client.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderPage, scrub } from "../../tools/real-clients/render.ts";
import { CLIENTS } from "../../tools/real-clients/scorecard.ts";
import { bridgeCommand, substitute } from "../../tools/check-client/run.ts";
import type { ClientReport } from "../../tools/check-client/main.ts";
import { repoRoot } from "./support.ts";

const report: ClientReport = {
  protocol: 1,
  catalogue: "docs/conformance-catalogue.json (ACP v1, client side)",
  passed: false,
  notes: ["a note naming /home/someone/project"],
  rows: [
    { id: "ACP-FS-102", tier: "MUST", outcome: "fail", evidence: "fs/write_text_file of a new file /tmp/acp-check-client-permission-Ab12Cd/check-client-probe.txt succeeded but the file does not hold the content" },
    { id: "ACP-PERM-103", tier: "MUST", outcome: "pass", evidence: undefined },
    { id: "ACP-LIST-105", tier: "MUST", outcome: "not run", evidence: "check --client has no probe for this requirement" },
    { id: "ACP-META-103", tier: "MUST NOT", outcome: "not observable", evidence: "what the client does with _meta internally is not on the wire" },
  ],
  runs: [{ scenario: "handshake", exit: "code 0", tail: "done in /Users/someone/x" }],
  negotiated: { offered: [1], answered: 1 },
};

describe("the real-clients page", () => {
  it("renders a summary row and a section per client, judged rows only (not-observable rows counted), with machine paths replaced", () => {
    const page = renderPage([{ client: CLIENTS[2]!, exit: 1, seconds: 12, report }], 10);
    expect(page).toContain("| acpx 0.19.1 | 1 | 1 | 0 | 1 | 1 | **yes** | 1 | 12 |");
    expect(page).toContain("1 pass, 1 fail, 0 n/a, 1 not observable, 1 not run (1 of them: no probe)");
    expect(page).not.toContain("| not observable | ACP-META-103");
    expect(page).toContain("**Violations found** (each: what check's agent sent and saw, then the requirement, and the spec's own words with their source and date):\n\n- **ACP-FS-102** (MUST): fs/write_text_file of a new file <scratch>/check-client-probe.txt succeeded");
    expect(page).toContain("  - Requirement: The client creates the file on fs/write_text_file if it does not exist.\n  - The spec's words: “The Client MUST create the file if it doesn't exist.” ([docs/protocol/v1/file-system.mdx:100](");
    expect(page).not.toContain("| not run | ACP-LIST-105");
    expect(page).toContain("- a note naming <path>");
    expect(page).not.toMatch(/\/tmp\/acp-check-client|\/work\/|\/home\//);
    expect(scrub("/var/tmp/acp-check-client-cancel-XyZ123/a.txt")).toBe("<scratch>/a.txt");
  });

  it("is committed with one section per client of the script and no path of this machine", () => {
    const page = readFileSync(join(repoRoot, "docs/real-clients.md"), "utf8");
    for (const c of CLIENTS) expect(page).toContain(`## ${c.name}\n`);
    expect(page).not.toMatch(/\/tmp\/acp-check-client|\/work\/|\/home\//);
  });

  it("puts the bridge command in place of {agent} and the prompt in place of {prompt}, inside larger words too", () => {
    const agent = bridgeCommand(4242);
    expect(agent.endsWith("bridge.mjs 4242")).toBe(true);
    expect(substitute(["acpx", "--agent", "{agent}", "exec", "{prompt}", "--x={prompt}!"], agent, "say hi")).toEqual(["acpx", "--agent", agent, "exec", "say hi", "--x=say hi!"]);
  });
});
