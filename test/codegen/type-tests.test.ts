// The type tests in test/types/generated-types.ts pass tsc, and each of their
// `@ts-expect-error` lines guards a real error, so they cannot pass silently.
import { readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, run, tempDirIn, type RunResult } from "./support.ts";

const typeTests = join(repoRoot, "test/types/generated-types.ts");

/** Runs tsc on exactly `files` (relative to `dir`) under the repo's compiler options. */
async function tscOn(dir: string, name: string, files: readonly string[]): Promise<RunResult> {
  const config = join(dir, name);
  await writeFile(config, JSON.stringify({ extends: "../../tsconfig.json", include: [], files }, null, 2));
  return run("npx", ["tsc", "--noEmit", "--pretty", "false", "-p", relative(repoRoot, config)]);
}

/** `file(line,col): error TSnnnn` → the 1-based lines with errors, per file name. */
function errorLines(output: string): Map<string, number[]> {
  const byFile = new Map<string, number[]>();
  for (const m of output.matchAll(/^(?:.*\/)?([^/(]+)\((\d+),\d+\): error TS\d+/gm)) {
    const [, file, line] = m as unknown as [string, string, string];
    byFile.set(file, [...(byFile.get(file) ?? []), Number(line)]);
  }
  return byFile;
}

describe("the generated-code type tests", () => {
  // A temp folder at the same depth as test/types, so the copies' relative imports still resolve.
  let dir: string;
  let source: string[];
  let directives: number[];
  let original: Promise<RunResult>;
  let mutants: Promise<RunResult>;

  beforeAll(async () => {
    dir = await tempDirIn("test", "types-");
    source = (await readFile(typeTests, "utf8")).split("\n");
    directives = source.flatMap((line, i) => (line.trim().startsWith("// @ts-expect-error") ? [i] : []));
    // Copy k lacks the k-th @ts-expect-error line; one tsc run checks every copy.
    const copies = directives.map((_, k) => `mutant-${k}.ts`);
    await Promise.all(directives.map((at, k) => writeFile(join(dir, copies[k] as string), source.filter((_, i) => i !== at).join("\n"))));
    original = tscOn(dir, "tsconfig.original.json", [relative(dir, typeTests)]);
    mutants = tscOn(dir, "tsconfig.mutants.json", copies);
    await Promise.all([original, mutants]);
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("has @ts-expect-error lines to check", () => {
    expect(directives.length).toBeGreaterThanOrEqual(7);
  });

  it("compile cleanly with tsc --noEmit", async () => {
    const { code, stdout, stderr } = await original;
    expect(stdout + stderr).toBe("");
    expect(code).toBe(0);
  });

  it("fail tsc, on exactly the guarded line, when any one @ts-expect-error is removed", async () => {
    const { code, stdout } = await mutants;
    expect(code).not.toBe(0);
    const found = errorLines(stdout);
    // Removing directive k (0-based line `at`) moves the guarded line up to 1-based line `at + 1`.
    const expected = new Map(directives.map((at, k) => [`mutant-${k}.ts`, [at + 1]]));
    expect(Object.fromEntries([...found].map(([file, lines]) => [file, [...new Set(lines)]]))).toEqual(Object.fromEntries(expected));
  });
});
