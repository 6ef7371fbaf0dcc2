/**
 * Emits `validators.ts`: ajv standalone validators (draft 2020-12,
 * `discriminator: true`, all errors) for every params and result type of the
 * table. The output imports nothing from ajv: its one runtime helper is
 * rewired to `src/validation/runtime.ts`. Rewrites keep the valid path free
 * of per-call allocations: no context object per nested call, no
 * evaluated-property tracking the schema never reads.
 */
import Ajv2020Module from "ajv/dist/2020.js";
import standaloneModule from "ajv/dist/standalone/index.js";
import type { MethodRow } from "../method-table.ts";
import { paramsTypeName, resultTypeName } from "./names.ts";
import { DEFAULT_PRINTER, runtimeImport, type Printer } from "./symbols.ts";
import { stripDocs, type AcpSchema } from "./schema.ts";
import { typeDefinitions } from "./emit-types.ts";
import { inlineSchemaReads, objectTests, sharedErrorSites } from "./validator-size.ts";
import { contentNames, exportedContentNames, shareFunctions, tableEntries } from "./validator-share.ts";

const Ajv2020 = Ajv2020Module.default;
const standaloneCode = standaloneModule.default;

/**
 * A discriminated union (`discriminator` keyword) only constrains objects in
 * ajv: `null` or `1` would pass. Every variant is an object, so say so.
 */
function objectUnions(defs: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
  for (const def of Object.values(defs)) if (def.discriminator !== undefined && def.type === undefined) def.type = "object";
  return defs;
}

/** Export name of the validator for a type. */
export function validatorName(typeName: string): string {
  return `validate${typeName}`;
}

/** Every distinct params/result type of the table, in table order. */
export function validatedTypes(rows: readonly MethodRow[]): string[] {
  const names: string[] = [];
  for (const row of rows) {
    for (const n of [paramsTypeName(row), resultTypeName(row)]) if (n !== undefined && !names.includes(n)) names.push(n);
  }
  return names;
}

/**
 * Removes `unevaluatedProperties: true` and `unevaluatedItems: true`, which
 * allow everything (no-ops). Returns whether any other `unevaluated*`
 * keyword is left: only then must the validators track evaluated properties.
 */
function dropTrivialUnevaluated(node: unknown, isMap = false): boolean {
  if (typeof node !== "object" || node === null) return false;
  let needed = false;
  for (const [key, value] of Object.entries(node)) {
    // In a map of schemas (`properties`, `$defs`, …) keys are names, not keywords; data keywords hold no schemas.
    if (!isMap && DATA_KEYWORDS.has(key)) continue;
    if (!isMap && (key === "unevaluatedProperties" || key === "unevaluatedItems")) {
      if (value === true) delete (node as Record<string, unknown>)[key];
      else needed = true;
    }
    if (dropTrivialUnevaluated(value, !isMap && SCHEMA_MAPS.has(key))) needed = true;
  }
  return needed;
}

const SCHEMA_MAPS = new Set(["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"]);
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);

/**
 * ajv passes each nested validator a context object (`{instancePath,
 * parentData, parentDataProperty, rootData}`, allocated per call). The schema
 * uses no `$data` reference, so only `instancePath` is read: pass it as a
 * plain second argument. Throws when the output has a form this does not rewrite.
 */
function positionalContext(code: string): string {
  let out = code.replace(/function (validate\d+)\(data, \{instancePath="", parentData, parentDataProperty, rootData=data\}=\{\}\)\{/g, 'function $1(data, instancePath=""){');
  out = out.replaceAll(", {instancePath,parentData,parentDataProperty,rootData})", ", instancePath)");
  out = out.replace(/, \{instancePath:((?:[^,{}()]|\([^()]*\))+),parentData:[\w[\].]+,parentDataProperty:(?:"[^"]*"|\w+),rootData\}\)/g, ", $1)");
  const left = /parentData|rootData/.exec(out);
  if (left) throw new Error(`codegen: ajv output passes validator context in a form codegen does not rewrite: ${out.slice(left.index - 80, left.index + 80)}`);
  return out;
}

/**
 * The ajv instance the validators of a table are compiled with (draft 2020-12,
 * `discriminator`, all errors, messages), holding the table's definitions as
 * schema `acp`, and the export name → schema reference map. Tests compile the
 * same instance at run time to check the emitted code against it.
 */
export function validatorAjv(rows: readonly MethodRow[], schema: AcpSchema, inlineRefs = true, names: readonly string[] = validatedTypes(rows)): { ajv: InstanceType<typeof Ajv2020>; exports: Record<string, string> } {
  const defs = objectUnions(stripDocs(typeDefinitions(rows, schema)) as Record<string, Record<string, unknown>>);
  const tracksEvaluated = dropTrivialUnevaluated(defs);
  const ajv = new Ajv2020({
    code: { source: true, esm: true, optimize: true, lines: false },
    discriminator: true,
    allErrors: true,
    strict: false,
    validateFormats: false,
    messages: true,
    inlineRefs,
  });
  // Ajv2020 always tracks which properties each validator evaluated (an object per union
  // branch, per call), which only `unevaluated*` keywords read: off when none is left.
  if (!tracksEvaluated) (ajv.opts as { unevaluated: boolean }).unevaluated = false;
  ajv.addSchema({ $id: "acp", $defs: defs as Record<string, object> });
  const exports = Object.fromEntries(names.map((n) => [validatorName(n), `acp#/$defs/${n}`]));
  return { ajv, exports };
}

/**
 * The base folder's validators an extension's file may import compiled
 * functions from: that file's text (undefined when it cannot be read: then
 * nothing is shared) and its import specifier, quoted.
 */
export interface SharedValidators {
  readonly text: string | undefined;
  readonly from: string;
}

/**
 * `names` (default: every params/result type of `rows`) are the validators
 * compiled here; `reexports` are lines printed after the imports (an
 * extension table's folder re-exports its base folder's validators);
 * `share` names the base folder's file whose compiled functions this one
 * imports instead of printing them again (codegen/validator-share.ts).
 */
export function emitValidators(rows: readonly MethodRow[], schema: AcpSchema, p: Printer = DEFAULT_PRINTER, names: readonly string[] = validatedTypes(rows), reexports: readonly string[] = [], share?: SharedValidators): string {
  if (names.length === 0) return `${p.header}\n${reexports.join("\n")}\n`;
  const { ajv, exports } = validatorAjv(rows, schema, true, names);
  let code = standaloneCode(ajv, exports);
  code = code.replace(/^"use strict";/, "");
  let needsLength = false;
  code = code.replace(/const (\w+) = require\("ajv\/dist\/runtime\/ucs2length"\)\.default;/g, (_m, v: string) => {
    needsLength = true;
    return `const ${v} = ucs2length;`;
  });
  // The schema has no $dynamicRef: drop the dynamicAnchors object ajv allocates on every call.
  if (!code.includes("dynamicAnchors[")) code = code.replaceAll(", dynamicAnchors={}}={}", "}={}").replaceAll(",rootData,dynamicAnchors}", ",rootData}");
  // ajv merges sub-validator errors with concat, quadratic in the number of errors: push in place.
  code = code.replace(/vErrors = vErrors === null \? (validate\d+)\.errors : vErrors\.concat\(\1\.errors\);/g, "vErrors = addErrors(vErrors, $1.errors);");
  if (code.includes("vErrors.concat(")) throw new Error("codegen: ajv output merges errors in a form codegen does not rewrite");
  code = positionalContext(code);
  const leftover = /require\("([^"]+)"\)/.exec(code);
  if (leftover) throw new Error(`codegen: ajv standalone code needs "${leftover[1]}", which has no runtime replacement`);
  code = objectTests(inlineSchemaReads(code));
  const sites = sharedErrorSites(code);
  const byContent = contentNames(sites.code, tableEntries(sites.table));
  const shared = shareFunctions(sites.code, byContent, share?.text === undefined ? new Set() : exportedContentNames(share.text));
  code = shared.code.replace(/export const (\w+) = (validate\d+);/g, "export const $1: Validator = $2 as Validator;");
  if (shared.exports.length > 0) code += `\n/** The compiled functions by content name, for the folders of tables that extend this one (codegen/validator-share.ts). @internal */\nexport { ${shared.exports.join(", ")} };`;
  if (shared.imports.length > 0) reexports = [...reexports, `import { ${shared.imports.join(", ")} } from ${(share as SharedValidators).from};`];
  const imports = runtimeImport(p, ["addError", "addErrors", "addPlaceholder", "errorKinds", "isObject", "Validator", ...(needsLength ? (["ucs2length"] as const) : [])]);
  const table = `/** The distinct errors this file's validators report (keyword, params, message), shared by every call. */\nconst K = errorKinds(${sites.table});`;
  return `${p.header}\n// @ts-nocheck -- ajv standalone output, typed through its exports\n${imports}\n${reexports.map((l) => `${l}\n`).join("")}\n${table}\n\n${code.replace(/;(?=(const|function|export) )/g, ";\n")}\n`;
}
