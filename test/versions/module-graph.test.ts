// DESIGN §10: the runtime never imports a table. Reads every import of the runtime folders
// (src/connection, src/transport, src/remote, src/versions, src/extensions) and of the shared
// runtime modules, and asserts none reaches a generated folder.
import { describe, expect, it } from "vitest";
import { filesIn, importsOf } from "../support/imports.ts";

const RUNTIME_FOLDERS = ["src/connection", "src/transport", "src/remote", "src/versions", "src/extensions", "src/validation", "src/jsonrpc"];
const RUNTIME_FILES = ["src/protocol.ts", "src/bind.ts", "src/decode.ts", "src/row.ts", "src/context.ts", "src/runtime.ts", "src/peer-caller.ts", "src/errors.ts"];

const isTable = (target: string) => /(^|\/)generated(\/|$)/.test(target) || /^src\/(v2|unstable|v2\/unstable)\/index\.ts$/.test(target) || target === "src/index.ts";

describe("the runtime's module graph", () => {
  const files = [...RUNTIME_FOLDERS.flatMap(filesIn), ...RUNTIME_FILES];

  it("reads the imports of every runtime file", () => {
    expect(files.length).toBeGreaterThan(60);
    expect(importsOf("src/connection/pipeline.ts")).toContain("src/connection/lanes.ts");
    // The check itself sees a table import where there is one.
    expect(importsOf("src/serve-stdio-v1.ts").some(isTable)).toBe(true);
  });

  it("has no file that imports a generated folder or an entry that loads one", () => {
    const offending = files.flatMap((file) =>
      importsOf(file)
        .filter(isTable)
        .map((target) => `${file} → ${target}`),
    );
    expect(offending).toEqual([]);
  });
});

/** Every file `file` reaches through relative imports (itself included). */
function reach(file: string): Set<string> {
  const seen = new Set<string>();
  const visit = (f: string): void => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const target of importsOf(f)) if (target.endsWith(".ts")) visit(target);
  };
  visit(file);
  return seen;
}
const generatedFoldersIn = (files: Set<string>) => [...new Set([...files].filter((f) => /(^|\/)generated\//.test(f)).map((f) => f.replace(/\/[^/]+$/, "")))].sort();

describe("the surfaces' module graphs", () => {
  it("the runtime imports no codegen module, and codegen no runtime module but the validators' shared error wording", () => {
    // codegen/validator-size.ts prints the messages the runtime's errorKinds would build, from the same function.
    for (const file of filesIn("codegen"))
      expect(
        importsOf(file).filter((t) => t.startsWith("src/") && t !== "src/validation/runtime.ts"),
        file,
      ).toEqual([]);
    for (const file of filesIn("src"))
      expect(
        importsOf(file).filter((t) => t.startsWith("codegen/")),
        file,
      ).toEqual([]);
  });

  it("src/mcp loads the unstable table and, through it, its base (the stable table) only", () => {
    expect(generatedFoldersIn(reach("src/mcp/index.ts"))).toEqual(["src/generated", "src/unstable/generated"]);
  });

  it("each version entry loads its own table and the tables it extends only: acp-router/v2 the v2 table, acp-router/v2/unstable the v2 unstable table over v2, acp-router/unstable the v1 unstable table over v1", () => {
    expect(generatedFoldersIn(reach("src/v2/index.ts"))).toEqual(["src/v2/generated"]);
    expect(generatedFoldersIn(reach("src/v2/unstable/index.ts"))).toEqual(["src/v2/generated", "src/v2/unstable/generated"]);
    expect(generatedFoldersIn(reach("src/unstable/index.ts"))).toEqual(["src/generated", "src/unstable/generated"]);
  });

  it("src/proxy loads the proxy table and, through it, its bases (the unstable table, and the stable one under it) only", () => {
    expect(generatedFoldersIn(reach("src/proxy/index.ts"))).toEqual(["src/generated", "src/proxy/generated", "src/unstable/generated"]);
  });

  it("the conductor's parts load no table: they route by the rows conductor.ts reads off the proxy table and hands them", () => {
    const parts = reach("src/proxy/chain.ts");
    expect([...parts].filter((f) => f.startsWith("src/proxy/")).sort()).toEqual(["src/proxy/chain-rows.ts", "src/proxy/chain.ts", "src/proxy/hop.ts", "src/proxy/mcp-hook.ts", "src/proxy/relay.ts", "src/proxy/route.ts", "src/proxy/splice.ts"]);
    expect(generatedFoldersIn(parts)).toEqual([]);
    expect([...parts].filter(isTable)).toEqual([]);
  });
});
