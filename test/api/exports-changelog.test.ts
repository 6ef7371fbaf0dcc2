// Every public export of the last release (0.1.0: fixtures/exports-0.1.0.txt, written by scripts/list-exports.ts
// on that commit) that an entry no longer exports is named in the CHANGELOG's Unreleased section with its entry,
// so a user upgrading finds what to write instead.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const lines = (text: string) => text.split("\n").filter((l) => l !== "");

describe("exports removed or renamed since the last release", () => {
  it("are each named in the CHANGELOG's Unreleased section, with their entry", () => {
    const released = lines(readFileSync(new URL("./fixtures/exports-0.1.0.txt", import.meta.url), "utf8"));
    const now = new Set(lines(execFileSync(process.execPath, ["--import", "tsx", "scripts/list-exports.ts", "."], { cwd: root, encoding: "utf8" })));
    const gone = released.filter((l) => !now.has(l));
    expect(gone.length).toBeGreaterThan(0);
    const changelog = readFileSync(new URL("../../CHANGELOG.md", import.meta.url), "utf8");
    const unreleased = changelog.slice(changelog.indexOf("## Unreleased"), changelog.indexOf("\n## ", changelog.indexOf("## Unreleased") + 1));
    const missing = gone.filter((l) => {
      const [entry, name] = l.split(" ") as [string, string];
      const spelled = `acp-router${entry.slice(1)}`;
      // The entry and the name, in one list item of the section.
      return !unreleased.split("\n  - ").some((item) => item.includes(`\`${spelled}\``) && new RegExp(`\`${name}[\`(]`).test(item));
    });
    expect(missing).toEqual([]);
  }, 120_000);
});
