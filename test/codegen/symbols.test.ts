// The generator's one list of runtime symbols (codegen/symbols.ts) is what acp-router/runtime
// exports, and the only thing generated files import from it.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RUNTIME_SYMBOLS, runtimeImport, DEFAULT_PRINTER } from "../../codegen/symbols.ts";
import * as runtime from "../../src/runtime.ts";
import { repoRoot } from "./support.ts";

/** The generated folders, from their one declaration. */
const FOLDERS = (JSON.parse(readFileSync(join(repoRoot, "codegen/tables.json"), "utf8")) as { tables: { out: string }[] }).tables.map((t) => t.out);
/** An import of another declared generated folder (an extension table's base), by its path from a folder two levels down. */
const baseFolder = new RegExp(`^\\.\\./\\.\\./(${FOLDERS.map((f) => f.replace(/^src\//, "")).join("|")})/`);

/** The names `src/runtime.ts` exports, types included, read off its export lines. */
function exportedNames(): Set<string> {
  const text = readFileSync(join(repoRoot, "src/runtime.ts"), "utf8");
  const names = new Set<string>();
  for (const m of text.matchAll(/^export (?:type )?\{([^}]*)\}/gm)) {
    for (const part of (m[1] as string).split(",")) {
      const name = part
        .trim()
        .replace(/^type /, "")
        .split(" as ")
        .pop()
        ?.trim();
      if (name) names.add(name);
    }
  }
  return names;
}

describe("the runtime symbols generated code may import", () => {
  it("are all exported by acp-router/runtime, values as values", () => {
    const names = exportedNames();
    for (const [name, kind] of Object.entries(RUNTIME_SYMBOLS)) {
      expect(names.has(name), name).toBe(true);
      if (kind === "value") expect(typeof (runtime as Record<string, unknown>)[name], name).toBe("function");
    }
  });

  it("are the only runtime names the repository's generated folders import", () => {
    for (const folder of FOLDERS) {
      for (const file of readdirSync(join(repoRoot, folder))) {
        const text = readFileSync(join(repoRoot, folder, file), "utf8");
        for (const m of text.matchAll(/^import (?:type )?\{([^}]*)\} from "[./]*runtime\.ts";$/gm)) {
          for (const part of (m[1] as string).split(",")) expect(Object.keys(RUNTIME_SYMBOLS), `${folder}/${file}`).toContain(part.trim().replace(/^type /, ""));
        }
        // Outside the folder: the runtime, or (an extension table's folder) its base table's folder.
        for (const m of text.matchAll(/from "(\.\.\/[^"]+)"/g)) {
          const target = m[1] as string;
          if (!/^(\.\.\/){1,3}runtime\.ts$/.test(target)) expect(target, `${folder}/${file}`).toMatch(baseFolder);
        }
      }
    }
  });

  it("print as one import line, type-only when every name is a type", () => {
    expect(runtimeImport(DEFAULT_PRINTER, ["Row", "notImplemented"])).toBe('import { notImplemented, type Row } from "acp-router/runtime";');
    expect(runtimeImport(DEFAULT_PRINTER, ["PeerCaller", "RequestOptions"])).toBe('import type { PeerCaller, RequestOptions } from "acp-router/runtime";');
  });
});
