/**
 * What an extension table adds to its base (the proxy table over the
 * unstable one; the unstable tables over the stable ones): its base
 * ({@link ExtensionBase}), the types it defines otherwise or newly
 * ({@link changedTypes}), and the rows the base lacks or has with other
 * columns ({@link tableDelta}). `emit-extension.ts` prints the folder from
 * these.
 */
import type { MethodRow } from "../method-table.ts";
import { other } from "./emit-router.ts";
import { typeDefinitions } from "./emit-types.ts";
import { paramsTypeName, resultTypeName } from "./names.ts";
import { refName, stripDocs, isNode, type AcpSchema } from "./schema.ts";
import { type Printer } from "./symbols.ts";

/**
 * The base table of an extension: its rows, where its generated folder is (an
 * import specifier from the extension's folder), and its schema when that is
 * another file than the extension's (a subset of it: every definition of the
 * base's is in the extension's; default: the extension's own).
 */
export interface ExtensionBase {
  readonly rows: readonly MethodRow[];
  readonly folder: string;
  readonly schema?: AcpSchema;
  /** The base folder's `validators.ts` as it is on disk, whose compiled functions this folder imports rather than prints (none when absent). */
  readonly validators?: string;
}

/**
 * The types of an extension (schema definitions and inline row schemas) that
 * its base folder does not declare as they are here: new ones, ones whose
 * definition differs (compared without the keywords that only document), and,
 * transitively, every one that refers to such a type. Throws, naming them,
 * when the base has definitions the extension's schema lacks.
 */
export function changedTypes(rows: readonly MethodRow[], schema: AcpSchema, base: readonly MethodRow[], baseSchema: AcpSchema): Set<string> {
  const mine = typeDefinitions(rows, schema);
  const theirs = typeDefinitions(base, baseSchema);
  const missing = Object.keys(theirs).filter((n) => !(n in mine));
  if (missing.length > 0) throw new Error(`codegen: the extension's schema is not a superset of its base's: it lacks ${missing.join(", ")}`);
  const changed = new Set(Object.keys(mine).filter((n) => !(n in theirs) || stable(stripDocs(mine[n])) !== stable(stripDocs(theirs[n]))));
  const refs = new Map(Object.entries(mine).map(([n, def]) => [n, referencedDefs(def)]));
  for (let grew = true; grew;) {
    grew = false;
    for (const [n, to] of refs) if (!changed.has(n) && [...to].some((r) => changed.has(r))) (changed.add(n), (grew = true));
  }
  return changed;
}

/** The `$defs` names a schema node refers to (`$ref`), at any depth. */
function referencedDefs(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const v of node) referencedDefs(v, into);
  else if (isNode(node)) {
    for (const [k, v] of Object.entries(node)) {
      const name = k === "$ref" ? refName(v) : undefined;
      if (name !== undefined) into.add(name);
      else referencedDefs(v, into);
    }
  }
  return into;
}

const key = (r: MethodRow) => `${r.side} ${r.kind} ${r.wire}`;
/** `v` as JSON with every object's keys sorted: two definitions compared without their member order. */
export const stable = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (isNode(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x));

/**
 * The rows an extension adds or changes, in table order; throws, naming the
 * row, when it drops a base row or changes what the base's types print.
 * `retyped` are the base rows whose params or result type is in `types` (the
 * extension's schema defines it otherwise): printed again, with the
 * extension's validators and types; they are also in `changed`.
 */
export function tableDelta(rows: readonly MethodRow[], base: readonly MethodRow[], types: ReadonlySet<string> = new Set()): { delta: MethodRow[]; added: MethodRow[]; changed: MethodRow[]; retyped: MethodRow[] } {
  const byKey = new Map(base.map((r) => [key(r), r]));
  const mine = new Set(rows.map(key));
  const problems: string[] = [];
  for (const r of base) if (!mine.has(key(r))) problems.push(`the extension drops the base row ${key(r)}; an extension may add rows and change columns only`);
  const added: MethodRow[] = [];
  const changed: MethodRow[] = [];
  const retyped: MethodRow[] = [];
  const typeChanged = (r: MethodRow) => [paramsTypeName(r), resultTypeName(r)].some((n) => n !== undefined && types.has(n));
  for (const r of rows) {
    const b = byKey.get(key(r));
    if (b === undefined) added.push(r);
    else if (stable(b) !== stable(r) || typeChanged(r)) {
      for (const f of ["callback", "params", "result"] as const) if (stable(b[f]) !== stable(r[f])) problems.push(`the extension changes ${f} of the base row ${key(r)}; only other columns may change`);
      changed.push(r);
      if (typeChanged(r)) retyped.push(r);
    }
    if (b === undefined && (isNode(r.params) || isNode(r.result))) problems.push(`the extension row ${key(r)} has an inline schema; an extension's types are its base's (one schema)`);
  }
  if (problems.length > 0) throw new Error(`codegen: ${problems.join("; ")}`);
  const delta = rows.filter((r) => added.includes(r) || changed.includes(r));
  return { delta, added, changed, retyped };
}

/** An import from the base folder's file `file`. */
export function baseImport(p: Printer, base: ExtensionBase, file: string, what: readonly string[] | string, typeOnly: boolean): string {
  const clause = typeof what === "string" ? what : `{ ${what.join(", ")} }`;
  return `import ${typeOnly ? "type " : ""}${clause} from "${base.folder}/${file}${p.ext}";`;
}
