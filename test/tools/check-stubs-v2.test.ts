// check's v2 cancel rows and v2 unstable rows against a scripted v2 stub agent (test/fixtures/check-v2-agent.mjs): what they no longer charge
// (a turn that fails on its own whether cancelled or not; session metadata after the idle update; a batch refused whole,
// which inspect's monitor used to call an answer naming no request) and what they still catch (turn content after idle).
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkJson, scratch } from "./support.ts";
import v2UnstableEntries from "../../docs/conformance-catalogue-v2-unstable.json" with { type: "json" };
import { V2_UNSTABLE_ROWS } from "../../tools/check/unstable-surface.ts";

const stub = fileURLToPath(new URL("../fixtures/check-v2-agent.mjs", import.meta.url));

async function check(mode: string, timeout = 3) {
  const card = await checkJson(["--timeout", String(timeout), "--cwd", scratch()], [process.execPath, stub, mode]);
  return { card, row: (id: string) => card.rows.find((r) => r.id === id), failed: card.rows.filter((r) => r.outcome === "fail").map((r) => r.id) };
}

describe("check's v2 cancel rows against a scripted v2 stub agent", () => {
  it("a turn that goes idle with stopReason error whether cancelled or not shows nothing about the cancel: ACP-CANCEL-302 is n/a, not a fail; the batch refused whole fails only ACP-JSONRPC-306", async () => {
    const { card, row, failed } = await check("error-turns");
    expect(card.protocol).toBe(2);
    expect(row("ACP-CANCEL-302")).toMatchObject({ outcome: "n/a", evidence: 'the cancelled turn went idle with stopReason "error", as the same kind of prompt did uncancelled: the turn failed on its own, which shows nothing about the cancel' });
    expect(failed).not.toContain("ACP-JSONRPC-302");
    expect(failed).toContain("ACP-JSONRPC-306");
    expect(row("ACP-JSONRPC-308")?.outcome).toBe("pass");
  }, 90_000);

  it("a fresh process's first initialize gets the slow-start wait wherever check starts one: a slow agent echoing protocolVersion 9999 to the version probe fails ACP-INIT-303", async () => {
    const { row } = await check("slow-echo", 1);
    expect(row("ACP-INIT-303")?.outcome).toBe("fail");
    expect(row("ACP-INIT-303")?.evidence).toMatch(/protocolVersion 9999, a version no agent speaks, not the latest version the agent supports$/);
  }, 90_000);

  it("v1's agentInfo and agentCapabilities in a v2 initialize answer are fields of a published schema (a note), not custom fields; a field no schema defines fails ACP-EXT-304", async () => {
    const drift = await check("v1-fields");
    expect(drift.row("ACP-EXT-304")?.outcome).toBe("pass");
    expect(drift.card.notes).toContain('ACP-EXT-304: the initialize answer has the field "agentInfo", which the v1 schema\'s InitializeResponse defines: protocol data of another published version, not a custom field');
    const custom = await check("custom-field");
    expect(custom.row("ACP-EXT-304")).toMatchObject({ outcome: "fail", evidence: 'custom fields at the root of spec types, which no published ACP schema defines (custom data goes in _meta): the initialize answer has the field "flavour"' });
  }, 120_000);

  it("a session_info_update after the cancelled turn's idle update is session metadata, noted; an agent_message_chunk there fails ACP-CANCEL-306", async () => {
    const title = await check("title-after-idle");
    expect([title.row("ACP-CANCEL-302")?.outcome, title.row("ACP-CANCEL-306")?.outcome]).toEqual(["pass", "pass"]);
    expect(title.card.notes).toContain("ACP-CANCEL-306: after the idle state_update came 1 update(s) that are not turn content (session_info_update); not counted");
    const chunk = await check("chunk-after-idle");
    expect(chunk.row("ACP-CANCEL-306")).toMatchObject({
      outcome: "fail",
      evidence: expect.stringMatching(/^a content or tool call update followed the idle state_update that reported the cancellation: \{"jsonrpc":"2\.0","method":"session\/update","params":\{"sessionId":"v\d+","update":\{"sessionUpdate":"agent_message_chunk"/) as string,
    });
  }, 120_000);

  it("judges the v2 unstable rows of an agent that advertises them: all pass when it serves them; refusing auth/status -32000 and touching the session on session/status fail their MUST NOT rows, and a refused session/fork or providers/list is noted on its declarative row; the rows no probe scores are not run, the client-side rows absent", async () => {
    const good = await check("unstable");
    for (const id of ["ACP-SESSION-501", "ACP-SESSION-502", "ACP-SESSION-504", "ACP-SESSION-505", "ACP-SESSION-506", "ACP-AUTH-501", "ACP-AUTH-502", "ACP-PROVIDERS-501"]) expect([id, good.row(id)?.outcome]).toEqual([id, "pass"]);
    const broken = await check("unstable-broken");
    expect(broken.row("ACP-AUTH-501")).toMatchObject({ outcome: "fail", evidence: 'auth/status was refused error -32000 "Authentication required"' });
    expect(broken.row("ACP-SESSION-505")).toMatchObject({ outcome: "fail", evidence: expect.stringMatching(/^session\/status was followed by a session\/update: .*"touched by session\/status"/) as string });
    expect(broken.row("ACP-SESSION-501")).toMatchObject({ outcome: "n/a", evidence: expect.stringContaining("noted: session/fork is advertised but was answered error -32601") as string });
    expect(broken.row("ACP-PROVIDERS-501")).toMatchObject({ outcome: "n/a", evidence: expect.stringContaining("noted: providers/list is advertised but was answered error -32601") as string });
    expect(good.failed).not.toContain("ACP-AUTH-501");
    // The rows of the archive filter and field, the system prompt, the subagent announcement and the open API type.
    const added = ["ACP-SESSION-507", "ACP-SESSION-508", "ACP-SESSION-513", "ACP-SESSION-517", "ACP-SESSION-518", "ACP-SESSION-519", "ACP-PROVIDERS-502"];
    expect(added.map((id) => [id, good.row(id)?.outcome])).toEqual(added.map((id) => [id, "pass"]));
    expect(added.map((id) => [id, broken.row(id)?.outcome])).toEqual(added.map((id) => [id, ["ACP-SESSION-519", "ACP-PROVIDERS-502"].includes(id) ? "pass" : "fail"]));
    expect(broken.row("ACP-SESSION-513")?.evidence).toMatch(/^a message bore a child session id before the subagent_update announcing it: .*"child-1"/);
    // The agent-side rows of the v2 unstable catalogue that no probe scores are listed as not run, never pass or fail.
    const unprobed = v2UnstableEntries.filter((e) => e.side !== "client" && !V2_UNSTABLE_ROWS.includes(e.id)).map((e) => e.id);
    expect(unprobed.length).toBeGreaterThanOrEqual(5);
    for (const card of [good, broken])
      for (const e of v2UnstableEntries.filter((x) => unprobed.includes(x.id)))
        expect([e.id, card.row(e.id)]).toEqual([e.id, expect.objectContaining("observable" in e ? { outcome: "not observable", evidence: e.unobservable } : { outcome: "not run", evidence: "check has no probe for this requirement" })]);
    for (const e of v2UnstableEntries.filter((x) => x.side === "client")) expect([e.id, good.row(e.id)]).toEqual([e.id, undefined]);
  }, 120_000);
});
