// One name, one meaning across entries (DESIGN §11): a name exported by several entries of
// package.json "exports" is the same declaration everywhere, or the per-table form of one
// concept — a schema type of each table's generated folder, each table entry's `serveStdio`
// bound to its table, each table file's `methods` / `schemaSource` / `base` (the table it extends). `serveStdio` on
// acp-router/stdio (protocol first) and a `ProtocolVersion`, `RequestId` or `Side` meaning two
// different things in two entries fail here.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const exportsField = (JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { exports: Record<string, string | { types?: string }> }).exports;

/** The source file of an entry, from its `types` path (`./dist/src/v2/index.d.ts` → `src/v2/index.ts`). */
const sources = Object.entries(exportsField).flatMap(([entry, target]) => {
  const types = typeof target === "string" ? undefined : target.types;
  return types === undefined ? [] : [[entry, types.replace(/^\.\/dist\//, "").replace(/\.d\.ts$/, ".ts")] as const];
});

/** Whether all of a name's declarations are one concept per table. */
function perTable(name: string, files: readonly string[]): boolean {
  if (files.every((f) => /^src\/(?:[a-z0-9]+\/){0,2}generated\//.test(f)) && new Set(files.map((f) => f.replace(/^.*generated\//, ""))).size === 1) return true;
  if (name === "serveStdio") return files.every((f) => ["src/serve-stdio-v1.ts", "src/v2/index.ts", "src/v2/unstable/index.ts", "src/unstable/index.ts"].includes(f));
  if (name === "methods" || name === "schemaSource" || name === "base") return files.every((f) => f === "method-table.ts" || f.startsWith("tables/"));
  return false;
}

describe("one name, one meaning across the package's entries", () => {
  it("every name exported by two entries is one declaration or one concept per table", () => {
    expect(sources.length).toBeGreaterThan(10);
    const program = ts.createProgram(
      sources.map(([, file]) => `${root}${file}`),
      { allowImportingTsExtensions: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, skipLibCheck: true },
    );
    const checker = program.getTypeChecker();
    const declared = new Map<string, Map<string, string[]>>();
    for (const [entry, file] of sources) {
      const source = program.getSourceFile(`${root}${file}`);
      const moduleSymbol = source && checker.getSymbolAtLocation(source);
      expect(moduleSymbol, file).toBeDefined();
      for (const exported of checker.getExportsOfModule(moduleSymbol as ts.Symbol)) {
        const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        const at = symbol.declarations?.[0]?.getSourceFile().fileName.slice(root.length) ?? "?";
        const byFile = declared.get(exported.name) ?? new Map<string, string[]>();
        byFile.set(`${at}#${symbol.name}`, [...(byFile.get(`${at}#${symbol.name}`) ?? []), entry]);
        declared.set(exported.name, byFile);
      }
    }
    const clashes = [...declared].filter(
      ([name, byFile]) =>
        byFile.size > 1 &&
        !perTable(
          name,
          [...byFile.keys()].map((k) => k.split("#")[0] as string),
        ),
    );
    expect(clashes.map(([name, byFile]) => `${name}: ${[...byFile].map(([at, entries]) => `${at} in ${entries.join(", ")}`).join(" | ")}`)).toEqual([]);
    // The names this rule was written for.
    expect(declared.get("serveStdio")?.size).toBe(4);
    expect(declared.has("serveProtocolStdio")).toBe(true);
  });
});
