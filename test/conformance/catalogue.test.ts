// Keeps each conformance catalogue (v1, v2, unstable, v2 unstable: PAGES), the test names that carry its ids,
// and its rendered page in sync (see test/conformance/render-catalogue.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BRACKETED_ID, PAGES, TIERS, areaOf, collectBindings, pagePath, readCatalogue, renderFromDisk, repoRoot, scanTestNames, testFiles } from "./render-catalogue.ts";

const pages = PAGES.map((page) => ({
  page,
  catalogue: readCatalogue(repoRoot, page),
  schema: JSON.parse(readFileSync(join(repoRoot, page.schema), "utf8")) as Record<string, unknown> & { $defs: Record<string, unknown> },
}));
/** Every entry of every page: ids are unique across them, so a test name binds to one page. */
const catalogue = pages.flatMap((p) => p.catalogue);
const bindings = collectBindings();
const byId = new Map(catalogue.map((e) => [e.id, e]));
const minimumApplicable = { v1: 60, v2: 25, unstable: 8, "v2-unstable": 6 } as const;

/** Resolves a JSON pointer (without the leading "#") in `root`; undefined when a segment is missing. */
function resolvePointer(root: unknown, pointer: string): unknown {
  let node = root;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

describe("the test-name scanner", () => {
  it("finds the names of it, test, it.fails, it.skip and it.each calls, and only those", () => {
    // The id is assembled so that this file itself carries no bracketed id.
    const id = ["ACP", "A", "101"].join("-");
    const source = [
      `it("[${id}] plain", () => {});`,
      "test('single quotes \\' escaped', () => {});",
      "it.fails(`a template`, () => {});",
      'it.skip("skipped", () => {});',
      'it.each([["a", (x) => f(x)], ["b)", 2]])("each %s", () => {});',
      'describe("not a test", () => {}); bit("no"); obj.it("no"); const it2 = "no";',
      "it(name, () => {});",
    ].join("\n");
    expect(scanTestNames(source)).toEqual([
      { name: `[${id}] plain`, fails: false, skipped: false },
      { name: "single quotes ' escaped", fails: false, skipped: false },
      { name: "a template", fails: true, skipped: false },
      { name: "skipped", fails: false, skipped: true },
      { name: "each %s", fails: false, skipped: false },
    ]);
  });

  it("sees every test of this folder's files that vitest would run", () => {
    const names = scanTestNames(readFileSync(join(repoRoot, "test/conformance/cancellation.test.ts"), "utf8"));
    expect(names.length).toBeGreaterThanOrEqual(20);
    expect(names.every((n) => n.name.startsWith("[ACP-"))).toBe(true);
  });
});

describe.each(pages.map((p) => [p.page.catalogue, p] as const))("the conformance catalogue %s", (_file, { page, catalogue: entries, schema }) => {
  it("has ids of the form ACP-<AREA>-<NNN>, unique across every catalogue, each area belonging to one section of the page", () => {
    const all = catalogue.map((e) => e.id);
    expect(new Set(all).size).toBe(all.length);
    const areas = page.sections.flatMap((s) => s.areas);
    expect(new Set(areas).size).toBe(areas.length);
    for (const { id } of entries) {
      expect(id).toMatch(/^ACP-[A-Z]+(-[A-Z]+)*-\d{3}$/);
      expect([id, areas.includes(areaOf(id))]).toEqual([id, true]);
    }
  });

  it("numbers the ids new to the v2 page from 301, to the unstable page from 401 and to the v2 unstable page from 501", () => {
    const floor = { v1: 0, v2: 301, unstable: 401, "v2-unstable": 501 }[page.name];
    const ceiling = { v1: 300, v2: 400, unstable: 500, "v2-unstable": 600 }[page.name];
    for (const { id } of entries) {
      if (page.name === "v1") continue;
      const n = Number(id.slice(-3));
      expect([id, n >= floor && n < ceiling]).toEqual([id, true]);
    }
  });

  it("gives every entry a tier, a side, a statement and a one-line reason", () => {
    for (const e of entries) {
      expect([e.id, TIERS.includes(e.tier), ["agent", "client", "both"].includes(e.side), typeof e.applies]).toEqual([e.id, true, true, "boolean"]);
      expect(e.statement.trim().length).toBeGreaterThan(10);
      expect(e.reason.trim().length).toBeGreaterThan(10);
      expect(e.reason).not.toContain("\n");
    }
  });

  it("says for every entry that does not apply that it is the application's responsibility", () => {
    for (const e of entries.filter((x) => !x.applies)) expect([e.id, e.reason.startsWith("application responsibility: ")]).toEqual([e.id, true]);
  });

  it("cites its spec pages as docs/protocol/<version>/<file>.mdx:<line> and its schema by pointers that resolve", () => {
    const docPattern = new RegExp(`^docs/protocol/${page.specVersion}/[a-z-]+\\.mdx:[1-9]\\d*$`);
    for (const e of entries) {
      for (const citation of e.citation.split("; ")) {
        if (citation.startsWith("docs/")) {
          expect(citation).toMatch(docPattern);
          continue;
        }
        const match = /^schema\.json#(\/\$defs\/([A-Za-z0-9]+)(?:\/[^/]+)*|\/anyOf\/\d+(?:\/[^/]+)*)$/.exec(citation);
        expect([e.id, citation, match !== null]).toEqual([e.id, citation, true]);
        const pointer = (match as RegExpExecArray)[1] as string;
        const def = (match as RegExpExecArray)[2];
        // $defs/<Def> is the rule; a top-level pointer is the "$/ notifications" (v1) or $/cancel_request (v2) text of the protocol-level union.
        if (def !== undefined) expect([citation, def in schema.$defs]).toEqual([citation, true]);
        else expect((resolvePointer(schema, pointer) as { description?: string }).description).toMatch(/\$\/|cancel/i);
        expect([citation, resolvePointer(schema, pointer) !== undefined]).toEqual([citation, true]);
      }
    }
  });

  it("has enough applicable entries", () => {
    expect(entries.filter((e) => e.applies).length).toBeGreaterThanOrEqual(minimumApplicable[page.name]);
  });
});

describe("the tests bound to the catalogue", () => {
  it("name only ids that exist in the catalogue, in test names and anywhere else in a test file", () => {
    const unknown = bindings.flatMap((b) => b.ids.filter((id) => !byId.has(id)).map((id) => `${b.file}: ${id}`));
    expect(unknown).toEqual([]);
    const elsewhere = testFiles().flatMap((file) =>
      [...readFileSync(join(repoRoot, file), "utf8").matchAll(BRACKETED_ID)]
        .map((m) => m[1] as string)
        .filter((id) => !byId.has(id))
        .map((id) => `${file}: ${id}`),
    );
    expect(elsewhere).toEqual([]);
  });

  it("cover every applicable entry with a test that runs", () => {
    const missing = catalogue.filter((e) => e.applies && !bindings.some((b) => b.ids.includes(e.id) && !b.skipped)).map((e) => e.id);
    expect(missing).toEqual([]);
  });

  it("cover every applicable MUST and MUST NOT with a passing test, not only an it.fails one", () => {
    const missing = catalogue.filter((e) => e.applies && (e.tier === "MUST" || e.tier === "MUST NOT") && !bindings.some((b) => b.ids.includes(e.id) && !b.fails && !b.skipped)).map((e) => e.id);
    expect(missing).toEqual([]);
  });

  it("never claim an entry that does not apply", () => {
    const claimed = bindings.flatMap((b) => b.ids.filter((id) => byId.get(id)?.applies === false).map((id) => `${b.file}: ${id}`));
    expect(claimed).toEqual([]);
  });
});

describe.each(PAGES.map((page) => [page.page, page] as const))("%s", (_file, page) => {
  it("is exactly what render-catalogue.ts produces now (run `npx tsx test/conformance/render-catalogue.ts` after changing a catalogue or a bound test name)", () => {
    expect(readFileSync(pagePath(repoRoot, page), "utf8")).toBe(renderFromDisk(repoRoot, page));
  });
});
