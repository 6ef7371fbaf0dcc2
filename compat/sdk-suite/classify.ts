/**
 * Which of the suite's test files reach a redirected module: a file that imports none, directly or
 * through the suite's test-support modules, tests SDK internals only, so its tests are `internal`
 * (they run the SDK's own code on every target and say nothing about an implementation of the API).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isSuiteFile, redirects, suiteDist, suiteModule } from "./redirect.ts";

/** The relative specifiers a compiled module imports (static imports, re-exports and `import()` of a literal). */
export function relativeImports(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g)) found.push(match[1] as string);
  return found;
}

/** The redirected modules `file` (a path inside `dist/`) reaches through its own imports and its test-support modules'. */
export function redirectedModules(file: string, seen = new Set<string>()): Set<string> {
  const reached = new Set<string>();
  if (seen.has(file)) return reached;
  seen.add(file);
  const path = join(suiteDist, file);
  for (const specifier of relativeImports(readFileSync(path, "utf8"))) {
    const module = suiteModule(specifier, path) as string;
    if (module in redirects) reached.add(module);
    else if (isSuiteFile(join(suiteDist, module))) for (const m of redirectedModules(module, seen)) reached.add(m);
  }
  return reached;
}

/** Whether the tests of `file` are internal: it reaches no redirected module. */
export function isInternalFile(file: string): boolean {
  return redirectedModules(file).size === 0;
}
