// The type tests in test/types/*.ts pass tsc, and each of their
// `@ts-expect-error` lines guards a real error, so they cannot pass silently.
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, run, tempDirIn, type Ran } from "./support.ts";

const typesDir = join(repoRoot, "test/types");

/** Runs tsc on exactly `files` (relative to `dir`) under the repo's compiler options. */
async function tscOn(dir: string, name: string, files: readonly string[]): Promise<Ran> {
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

describe("the type tests (generated code, public API)", () => {
  // A temp folder at the same depth as test/types, so the copies' relative imports still resolve.
  let dir: string;
  let files: string[];
  /** One entry per `@ts-expect-error` line: the copy that lacks it and the 0-based line it was on. */
  let directives: { copy: string; at: number }[];
  let original: Promise<Ran>;
  let mutants: Promise<Ran>;

  beforeAll(async () => {
    dir = await tempDirIn("test", "types-");
    files = (await readdir(typesDir)).filter((f) => f.endsWith(".ts")).sort();
    directives = [];
    const writes: Promise<void>[] = [];
    for (const file of files) {
      const source = (await readFile(join(typesDir, file), "utf8")).split("\n");
      source.forEach((line, at) => {
        if (!line.trim().startsWith("// @ts-expect-error")) return;
        // Each copy lacks one @ts-expect-error line; one tsc run checks every copy.
        const copy = `mutant-${directives.length}-${file}`;
        directives.push({ copy, at });
        writes.push(writeFile(join(dir, copy), source.filter((_, i) => i !== at).join("\n")));
      });
    }
    await Promise.all(writes);
    original = tscOn(
      dir,
      "tsconfig.original.json",
      files.map((f) => relative(dir, join(typesDir, f))),
    );
    mutants = tscOn(
      dir,
      "tsconfig.mutants.json",
      directives.map((d) => d.copy),
    );
    await Promise.all([original, mutants]);
  }, 180_000); // two whole-project tsc runs; slow on a shared machine

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("has @ts-expect-error lines to check, in every file", () => {
    expect(files).toContain("generated-types.ts");
    expect(files).toContain("error-code.ts");
    expect(directives.length).toBeGreaterThanOrEqual(10);
    for (const file of files) expect(directives.some((d) => d.copy.endsWith(`-${file}`))).toBe(true);
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
    // Removing a directive (0-based line `at`) moves the guarded line up to 1-based line `at + 1`.
    const expected = new Map(directives.map(({ copy, at }) => [copy, [at + 1]]));
    expect(Object.fromEntries([...found].map(([file, lines]) => [file, [...new Set(lines)]]))).toEqual(Object.fromEntries(expected));
  });
});
