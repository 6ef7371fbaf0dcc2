/**
 * The mock agent's sample updates: every kind the pinned schemas list has a
 * sample, every sample is valid, and the forward-compatibility probes are
 * what they claim (an unknown kind, `_meta` that validators accept).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { validateSessionNotification } from "../../src/generated/validators.ts";
import { validateUpdateSessionNotification } from "../../src/v2/generated/validators.ts";
import type { Validator } from "../../src/runtime.ts";
import { metaLadenUpdate, sampleKinds, unknownKind, unknownUpdate, updateSamples, type SampleVersion } from "../../tools/mock-agent/updates.ts";

const schemaFiles: Record<SampleVersion, string> = { 1: "v1/schema.json", 2: "v2/schema.json" };
const validators: Record<SampleVersion, Validator> = { 1: validateSessionNotification, 2: validateUpdateSessionNotification };

/** The `sessionUpdate` consts of the schema's SessionUpdate union, read from the pinned file. */
function schemaKinds(version: SampleVersion): string[] {
  const url = new URL(`../../schemas/@agentclientprotocol/sdk/schema/${schemaFiles[version]}`, import.meta.url);
  const schema = JSON.parse(readFileSync(url, "utf8")) as { $defs: Record<string, { oneOf?: unknown[]; anyOf?: unknown[] }> };
  const union = schema.$defs["SessionUpdate"];
  const variants = (union?.oneOf ?? union?.anyOf ?? []) as { properties?: { sessionUpdate?: { const?: string } } }[];
  return variants.flatMap((v) => (v.properties?.sessionUpdate?.const === undefined ? [] : [v.properties.sessionUpdate.const]));
}

function valid(version: SampleVersion, update: unknown): { ok: boolean; errors: unknown } {
  const validate = validators[version];
  const ok = validate({ sessionId: "mock-session-1", update });
  return { ok, errors: validate.errors };
}

describe.each([1, 2] as const)("the v%i update samples", (version) => {
  it("cover every kind the pinned schema lists, and no other", () => {
    const kinds = schemaKinds(version);
    expect(kinds.length).toBeGreaterThan(10);
    expect([...sampleKinds(version)].sort()).toEqual([...kinds].sort());
  });

  it.each(updateSamples(version).map((s) => [s.label, s] as const))("%s is valid against the generated validator", (_label, s) => {
    expect(valid(version, s.update)).toEqual({ ok: true, errors: null });
    expect(s.update["sessionUpdate"]).toBe(s.kind);
  });

  it("have unique labels", () => {
    const labels = updateSamples(version).map((s) => s.label);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it("send tool calls with every kind and every status", () => {
    const kind = version === 1 ? "tool_call" : "tool_call_update";
    const calls = updateSamples(version).filter((s) => s.kind === kind || s.kind === "tool_call_update");
    expect(new Set(calls.map((s) => s.update["kind"]).filter((k) => k !== undefined)).size).toBe(10);
    const statuses = new Set(calls.map((s) => s.update["status"]));
    expect(statuses.size).toBe(version === 1 ? 4 : 6);
  });

  it("carry _meta that the validator accepts", () => {
    const update = metaLadenUpdate(version);
    expect(valid(version, update).ok).toBe(true);
    expect(update["_meta"]).toBeTypeOf("object");
  });

  it("probe with a kind the schema does not list", () => {
    expect(schemaKinds(version)).not.toContain(unknownKind);
    expect(unknownUpdate()["sessionUpdate"]).toBe(unknownKind);
    // v2 keeps the union open (an `other` variant), v1 closes it.
    expect(valid(version, unknownUpdate()).ok).toBe(version === 2);
  });
});

describe("the v1 samples that need a client capability", () => {
  it("name session.notices for notice and session.compaction for compaction updates", () => {
    const needs = updateSamples(1)
      .filter((s) => s.requires !== undefined)
      .map((s) => `${s.kind}:${(s.requires ?? []).join(".")}`);
    expect(needs).toEqual(["notice:session.notices", "compaction_update:session.compaction", "compaction_summary_chunk:session.compaction", "compaction_update:session.compaction"]);
    expect(updateSamples(2).some((s) => s.requires !== undefined)).toBe(false);
  });
});
