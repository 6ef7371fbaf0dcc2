// DESIGN §10: the runtime never imports a table. Reads every import of the runtime folders
// (src/connection, src/transport, src/remote, src/versions, src/extensions) and of the shared
// runtime modules, and asserts none reaches a generated folder.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const RUNTIME_FOLDERS = ["src/connection", "src/transport", "src/remote", "src/versions", "src/extensions", "src/validation", "src/jsonrpc"];
const RUNTIME_FILES = ["src/protocol.ts", "src/bind.ts", "src/decode.ts", "src/row.ts", "src/context.ts", "src/runtime.ts", "src/peer-caller.ts", "src/errors.ts"];

/** Every `.ts` file below `folder`, repository-relative. */
function filesIn(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(folder, f));
}

/** The repository-relative targets of a file's relative imports and re-exports (type-only ones included). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)"/gm)) out.push(relative(root, resolve(dirname(join(root, file)), m[1] as string)));
  for (const m of text.matchAll(/\bimport\(\s*"(\.[^"]+)"\s*\)/g)) out.push(relative(root, resolve(dirname(join(root, file)), m[1] as string)));
  return out;
}

const isTable = (target: string) => /(^|\/)generated(\/|$)/.test(target) || /^src\/(v2|unstable)\/index\.ts$/.test(target) || target === "src/index.ts";

describe("the runtime's module graph", () => {
  const files = [...RUNTIME_FOLDERS.flatMap(filesIn), ...RUNTIME_FILES];

  it("reads the imports of every runtime file", () => {
    expect(files.length).toBeGreaterThan(60);
    expect(importsOf("src/connection/pipeline.ts")).toContain("src/connection/lanes.ts");
    // The check itself sees a table import where there is one.
    expect(importsOf("src/serve-stdio-v1.ts").some(isTable)).toBe(true);
  });

  it("has no file that imports a generated folder or an entry that loads one", () => {
    const offending = files.flatMap((file) => importsOf(file).filter(isTable).map((target) => `${file} → ${target}`));
    expect(offending).toEqual([]);
  });
});
