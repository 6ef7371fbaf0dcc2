/**
 * Sharing compiled validator functions between a table's folder and the
 * folder of the table it extends. ajv compiles every params/result type of
 * an extension's delta with all it references: `session/update` of an
 * unstable table brings the content blocks, tool calls and plans its base
 * already compiled. Each `function validateN` of a file gets a name from
 * its content (`v_<hash>`: its body with the error-kind table entries it
 * uses spelled out and its callees replaced by their own names), every
 * file exports its functions under those names, and an extension's file
 * imports the ones its base exports instead of printing them again.
 */
import { createHash } from "node:crypto";

/** One compiled function of a validators file: its local name, where its text is, and the functions it calls. */
interface Compiled {
  readonly name: string;
  readonly start: number;
  readonly end: number;
  readonly body: string;
  readonly calls: readonly string[];
}

const FUNCTION_START = /function (validate\d+)\(data, instancePath=""\)\{/g;

/** The compiled functions of `code`, by local name; throws when one does not end as ajv's do. */
function compiledFunctions(code: string): Map<string, Compiled> {
  const out = new Map<string, Compiled>();
  for (const m of code.matchAll(FUNCTION_START)) {
    const name = m[1] as string;
    // ajv ends a function with its errors and verdict, or (a schema that accepts everything) with none.
    const ends = [`${name}.errors = vErrors;return errors === 0;}`, `${name}.errors = null;return true;}`].map((tail) => ({ tail, at: code.indexOf(tail, m.index) })).filter((e) => e.at >= 0);
    if (ends.length === 0) throw new Error(`codegen: the compiled ${name} does not end as ajv's functions do`);
    const first = ends.reduce((a, b) => (b.at < a.at ? b : a));
    const end = first.at + first.tail.length;
    const body = code.slice(m.index + m[0].length, end);
    const calls = [...new Set([...body.matchAll(/\bvalidate\d+\b/g)].map((c) => c[0]).filter((c) => c !== name))];
    out.set(name, { name, start: m.index, end, body, calls });
  }
  return out;
}

/**
 * The content name of every function `code` compiles or imports: an
 * imported one (`import { v_… as validateN }`) keeps its name; a compiled
 * one is named by its body, with `K[i]` replaced by the entry `kinds[i]`
 * and each callee by its content name (a call back into a function being
 * named is `CYCLE`).
 */
export function contentNames(code: string, kinds: readonly string[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of code.matchAll(/import \{([^}]*)\} from "[^"]*validators[^"]*";/g)) {
    for (const part of (m[1] as string).split(",")) {
      const alias = /^\s*(v_[0-9a-f]+) as (validate\d+)\s*$/.exec(part);
      if (alias) names.set(alias[2] as string, alias[1] as string);
    }
  }
  const compiled = compiledFunctions(code);
  const naming = new Set<string>();
  const nameOf = (fn: string): string => {
    const known = names.get(fn);
    if (known !== undefined) return known;
    const c = compiled.get(fn);
    if (c === undefined || naming.has(fn)) return "CYCLE";
    naming.add(fn);
    const text = c.body
      .replace(/\bK\[(\d+)\]/g, (_m, i: string) => kinds[Number(i)] ?? `K?${i}`)
      .replace(/\bfunc\d+\b/g, "UCS2")
      .replace(/\bvalidate\d+\b/g, (callee) => (callee === fn ? "SELF" : nameOf(callee)));
    naming.delete(fn);
    const name = `v_${createHash("sha256").update(text).digest("hex").slice(0, 16)}`;
    names.set(fn, name);
    return name;
  };
  for (const fn of compiled.keys()) nameOf(fn);
  return names;
}

/** The entries of a file's error-kind table source (`[\n  entry,\n …]`), in order. */
export function tableEntries(table: string): string[] {
  return table
    .split("\n")
    .slice(1, -1)
    .map((l) => l.trim().replace(/,$/, ""));
}

/** The content names a validators file makes importable: those it exports (its own and, through `export *`, none it cannot see). */
export function exportedContentNames(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/export \{([^}]*)\};/g)) for (const n of (m[1] as string).matchAll(/\bas (v_[0-9a-f]+)\b/g)) out.add(n[1] as string);
  for (const m of text.matchAll(/import \{([^}]*)\} from "[^"]*validators[^"]*";/g)) for (const n of (m[1] as string).matchAll(/\b(v_[0-9a-f]+) as\b/g)) out.add(n[1] as string);
  return out;
}

/**
 * Removes from `code` every compiled function whose content name `shared`
 * holds (the base folder exports it) and every one left unreachable from
 * the exported validators; returns the code, the import line's clauses for
 * the removed ones still called, and the export clauses of the functions kept.
 */
export function shareFunctions(code: string, names: ReadonlyMap<string, string>, shared: ReadonlySet<string>): { code: string; imports: string[]; exports: string[] } {
  const compiled = compiledFunctions(code);
  const roots = [...code.matchAll(/export const \w+ = (validate\d+);/g)].map((m) => m[1] as string);
  const isShared = (fn: string) => shared.has(names.get(fn) ?? "");
  const kept = new Set<string>();
  const imported = new Set<string>();
  const visit = (fn: string): void => {
    if (kept.has(fn) || imported.has(fn)) return;
    if (isShared(fn)) return void imported.add(fn);
    kept.add(fn);
    for (const callee of compiled.get(fn)?.calls ?? []) visit(callee);
  };
  for (const root of roots) visit(root);
  let out = "";
  let from = 0;
  for (const c of [...compiled.values()].sort((a, b) => a.start - b.start)) {
    if (kept.has(c.name)) continue;
    out += code.slice(from, c.start);
    from = c.end;
  }
  out += code.slice(from);
  return {
    code: out,
    imports: [...imported].sort().map((fn) => `${names.get(fn)} as ${fn}`),
    // ajv may compile one schema twice in a file: one export per content name.
    exports: [...new Map([...kept].sort().map((fn) => [names.get(fn), fn])).entries()].map(([name, fn]) => `${fn} as ${name}`),
  };
}
