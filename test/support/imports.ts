/**
 * The module graph of the repository's own TypeScript, read as text: every
 * relative import and re-export (type-only ones included, since an import
 * cycle is a cycle whatever is imported). Used by the structure tests.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export const root = resolve(import.meta.dirname, "../..");

/** Every `.ts` file below `folder` (repository-relative), declaration files left out. */
export function filesIn(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => join(folder, f));
}

/** The repository-relative targets of a file's relative imports and re-exports, from its text. */
export function importsIn(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)"/gm)) out.push(relative(root, resolve(dirname(join(root, file)), m[1] as string)));
  for (const m of text.matchAll(/\bimport\(\s*"(\.[^"]+)"\s*\)/g)) out.push(relative(root, resolve(dirname(join(root, file)), m[1] as string)));
  return out;
}

/** The imports of a file on disk. */
export function importsOf(file: string): string[] {
  return importsIn(file, readFileSync(join(root, file), "utf8"));
}

/** The strongly connected components with more than one file (the import cycles) of `graph`, each sorted. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}
