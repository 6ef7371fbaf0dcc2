/**
 * The shape of each row, checked before any invariant: every key is a column
 * of {@link MethodRow}, every enumerated column holds one of its values, and
 * every inline schema uses only JSON Schema keywords. A misspelt key or value
 * would otherwise be ignored (a row with `side: "agnet"` lands in no generated
 * file) or break the generated code much later, so codegen stops here and
 * names the closest known spelling.
 */
import type { MethodRow } from "../method-table.ts";
import { isNode } from "./schema.ts";

type Report = (row: MethodRow, field: string, what: string) => void;

/** Every column of a row; `satisfies` makes tsc fail when MethodRow gains one that is not listed here. */
const columns = {
  wire: true,
  side: true,
  kind: true,
  callback: true,
  params: true,
  result: true,
  capability: true,
  optional: true,
  layer: true,
  auth: true,
  onCancel: true,
  cancelsSession: true,
  lifecycle: true,
  extension: true,
  counterpart: true,
  callerCapability: true,
  objectCapability: true,
  turnEnd: true,
  capabilityFields: true,
  repeatable: true,
  unbatched: true,
  envelope: true,
} as const satisfies Record<keyof MethodRow, true>;

/** The columns whose value is one of a few strings, with those strings. */
const enumerated: Readonly<Record<string, readonly string[]>> = {
  side: ["agent", "client", "both"],
  kind: ["request", "notification"],
  layer: ["app", "protocol", "session_control"],
  lifecycle: ["initialize", "authenticate", "logout", "opens_session", "closes_session"],
  counterpart: ["request", "notification"],
  repeatable: ["until_first_request"],
};

/** JSON Schema (draft 2020-12 and draft-07) keywords an inline schema may use; `x-` keys are annotations and pass too. */
const keywords = [
  "$schema",
  "$id",
  "$ref",
  "$defs",
  "$comment",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "definitions",
  "type",
  "enum",
  "const",
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "format",
  "properties",
  "required",
  "additionalProperties",
  "patternProperties",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "unevaluatedProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "contains",
  "minContains",
  "maxContains",
  "minItems",
  "maxItems",
  "uniqueItems",
  "unevaluatedItems",
  "minLength",
  "maxLength",
  "pattern",
  "contentEncoding",
  "contentMediaType",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "discriminator",
];

/** Keywords whose value is a schema, a list of schemas, or a map of names to schemas. */
const oneSchema = ["additionalProperties", "propertyNames", "contains", "not", "if", "then", "else", "additionalItems", "unevaluatedItems", "unevaluatedProperties", "items"];
const schemaLists = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
const schemaMaps = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/** Reports unknown keys, unknown enumerated values and unknown inline-schema keywords; returns true when the rows are well formed. */
export function checkShape(rows: readonly MethodRow[], report: Report): boolean {
  let ok = true;
  const fail: Report = (row, field, what) => {
    ok = false;
    report(row, field, what);
  };
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (!(key in columns)) fail(row, key, `unknown key${suggest(key, Object.keys(columns))}`);
    }
    for (const [column, values] of Object.entries(enumerated)) {
      const value: unknown = (row as unknown as Record<string, unknown>)[column];
      if (value === undefined && column !== "side" && column !== "kind" && column !== "layer") continue;
      const allowed = `one of ${values.map((v) => `"${v}"`).join(", ")}`;
      if (value === undefined) fail(row, column, `missing (${allowed})`);
      else if (typeof value !== "string" || !values.includes(value)) fail(row, column, `unknown value ${JSON.stringify(value)}${suggest(String(value), values)} (${allowed})`);
    }
    for (const field of ["params", "result"] as const) {
      const inline = row[field];
      if (inline !== undefined && typeof inline !== "string") checkKeywords(inline, "", (where, what) => fail(row, field, where === "" ? what : `at ${where}: ${what}`));
    }
  }
  return ok;
}

/** Walks an inline schema and reports every key that is not a JSON Schema keyword, with its JSON-pointer-like location. */
function checkKeywords(node: unknown, where: string, report: (where: string, what: string) => void): void {
  if (typeof node === "boolean") return;
  if (!isNode(node)) return report(where, "a schema must be an object or a boolean");
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith("x-")) continue;
    if (!keywords.includes(key)) {
      report(where, `unknown JSON Schema keyword "${key}"${suggest(key, keywords)}`);
      continue;
    }
    if (schemaMaps.includes(key) && isNode(value)) {
      for (const [name, sub] of Object.entries(value)) checkKeywords(sub, `${where}/${key}/${name}`, report);
    } else if (schemaLists.includes(key) && Array.isArray(value)) {
      value.forEach((sub, i) => checkKeywords(sub, `${where}/${key}/${i}`, report));
    } else if (oneSchema.includes(key) && !Array.isArray(value)) {
      checkKeywords(value, `${where}/${key}`, report);
    }
  }
}

/** ` — did you mean "x"?` for the closest known word within a third of its length in edits, else the empty string. */
export function suggest(word: string, known: readonly string[]): string {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.ceil(best.length / 3)) ? ` — did you mean "${best}"?` : "";
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
    }
    previous = current;
  }
  return previous[b.length] as number;
}
