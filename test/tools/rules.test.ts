// The requirement ids inspect reports exist in docs/conformance-catalogue.json (v2 rules: -v2.json), copied without drift.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { citationUrl, requirement, REQUIREMENT_IDS } from "../../tools/inspect/requirements.ts";
import { RULES } from "../../tools/inspect/rules.ts";

interface Entry {
  id: string;
  tier: string;
  citation: string;
  statement: string;
}
const read = (name: string) => JSON.parse(readFileSync(new URL(`../../docs/${name}`, import.meta.url), "utf8")) as Entry[];
const catalogue = [...read("conformance-catalogue.json"), ...read("conformance-catalogue-v2.json"), ...read("conformance-catalogue-unstable.json"), ...read("conformance-catalogue-v2-unstable.json")];
const toolDirs = [new URL("../../tools/inspect/", import.meta.url), new URL("../../tools/check/", import.meta.url)];
/** check scores rows straight from the catalogues (tiers included), so the ids it alone mentions need no copy in requirements.ts. */
const checkOnly = new URL("../../tools/check/", import.meta.url);
const mentionedIn = (dir: URL) => {
  const ids = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts") && f !== "requirements.ts")) for (const m of readFileSync(new URL(file, dir), "utf8").matchAll(/ACP-[A-Z]+(?:-[A-Z]+)?-\d{3}/g)) ids.add(m[0]);
  return ids;
};

describe("inspect's requirement ids", () => {
  it("lists every id the inspect and check sources mention, each exactly as the catalogue has it", () => {
    const mentioned = new Set<string>();
    for (const dir of toolDirs) for (const id of mentionedIn(dir)) mentioned.add(id);
    // Every id of requirements.ts is used; every id inspect mentions is there; every id check mentions is in a catalogue.
    for (const id of REQUIREMENT_IDS) expect(mentioned.has(id), id).toBe(true);
    for (const id of mentionedIn(toolDirs[0]!)) expect(REQUIREMENT_IDS, id).toContain(id);
    const unstable = read("conformance-catalogue-unstable.json");
    for (const id of mentionedIn(checkOnly))
      expect(
        [...catalogue, ...unstable].some((e) => e.id === id),
        id,
      ).toBe(true);
    for (const id of REQUIREMENT_IDS) {
      const entry = catalogue.find((e) => e.id === id);
      expect({ id, ...requirement(id) }).toEqual({ id, tier: entry?.tier, citation: entry?.citation.split("\n")[0], statement: entry?.statement });
    }
  });

  it("gives every rule a default requirement from the list", () => {
    for (const rule of Object.values(RULES)) expect(REQUIREMENT_IDS).toContain(rule.requirement);
  });

  it("links doc citations to the spec line at the catalogue's commit, and none for schema pointers", () => {
    expect(citationUrl("docs/protocol/v1/transports.mdx:26")).toBe("https://github.com/agentclientprotocol/agent-client-protocol/blob/b7f0005493b98de32fabee3e9540e2b64da68535/docs/protocol/v1/transports.mdx#L26");
    expect(citationUrl("docs/protocol/v2/prompt-lifecycle.mdx:119; schema.json#/$defs/PromptResponse")).toBe("https://github.com/agentclientprotocol/agent-client-protocol/blob/b7f0005493b98de32fabee3e9540e2b64da68535/docs/protocol/v2/prompt-lifecycle.mdx#L119");
    expect(citationUrl("schema.json#/$defs/Error")).toBeUndefined();
  });
});
