/**
 * Size rewrites of ajv's standalone output, applied by `emit-validators.ts`
 * after its speed rewrites. Each one replaces a pattern ajv repeats at every
 * site with a call of a runtime helper (`src/validation/runtime.ts`), keeping
 * every error a validator reports, with the same `instancePath`, `keyword`,
 * `params` and `message`; each throws when the output has a form it does not
 * rewrite, so an ajv upgrade fails codegen instead of growing the bundle.
 */
import { errorMessage } from "../src/validation/runtime.ts";

/** An error site ajv writes: `const errN = {…};if(vErrors === null){vErrors = [errN];}else {vErrors.push(errN);}errors++;`. */
const ERROR_SITE = /const (err\d+) = \{instancePath(?::((?:[^,{}()]|\([^()]*\))+))?,schemaPath:"(?:[^"\\]|\\.)*",keyword:"(\w+)",params:(\{[^{}]*\}),message:((?:"(?:[^"\\]|\\.)*"|\+)+)\};if\(vErrors === null\)\{vErrors = \[\1\];\}else \{vErrors\.push\(\1\);\}errors\+\+;/g;

/** A `not` subschema's placeholder error (ajv discards it): `const errN = {};…push(errN);}errors++;`. */
const PLACEHOLDER_SITE = /const (err\d+) = \{\};if\(vErrors === null\)\{vErrors = \[\1\];\}else \{vErrors\.push\(\1\);\}errors\+\+;/g;

/** The start of a schema constant ajv emits for `params` it reads off the schema: `const schemaN = {…};` (JSON). */
const SCHEMA_CONST = /const (schema\d+) = (?=[{[])/g;

/** The end of the JSON value starting at `start` (just past its closing bracket). */
function jsonEnd(code: string, start: number): number {
  let depth = 0;
  for (let i = start; i < code.length; i++) {
    const c = code[i];
    if (c === '"') {
      for (i++; code[i] !== '"'; i++) if (code[i] === "\\") i++;
    } else if (c === "{" || c === "[") depth++;
    else if ((c === "}" || c === "]") && --depth === 0) return i + 1;
  }
  throw new Error("codegen: ajv output has an unterminated schema constant");
}

/** A read of a schema constant: `schema12.properties.title.type`, `schema3.properties["a-b"].type`. */
const SCHEMA_READ = /\b(schema\d+)((?:\.[A-Za-z_$][\w$]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])+)/g;

/**
 * Replaces each read of a schema constant by the JSON literal it reads, and
 * drops the constants: ajv keeps whole schemas (tens of KB) alive only to
 * read a `type` array off them when an error is reported.
 */
export function inlineSchemaReads(code: string): string {
  const schemas = new Map<string, unknown>();
  let out = "";
  let from = 0;
  for (const m of code.matchAll(SCHEMA_CONST)) {
    const start = m.index + m[0].length;
    const end = jsonEnd(code, start);
    if (code[end] !== ";") throw new Error(`codegen: ajv output has a schema constant codegen does not read: ${code.slice(m.index, m.index + 120)}`);
    schemas.set(m[1] as string, JSON.parse(code.slice(start, end)));
    out += code.slice(from, m.index);
    from = end + 1;
  }
  out += code.slice(from);
  out = out.replace(SCHEMA_READ, (_m, name: string, path: string) => {
    let value = schemas.get(name);
    if (value === undefined) throw new Error(`codegen: ajv output reads ${name}, which it does not define`);
    for (const [, key, quoted] of path.matchAll(/\.([A-Za-z_$][\w$]*)|\[(\d+|"(?:[^"\\]|\\.)*")\]/g)) {
      const segment = key ?? (JSON.parse(quoted as string) as string | number);
      value = (value as Record<string, unknown>)[segment];
      if (value === undefined) throw new Error(`codegen: ajv output reads ${name}${path}, which is undefined`);
    }
    return JSON.stringify(value);
  });
  const left = /\bschema\d+\b/.exec(out);
  if (left) throw new Error(`codegen: ajv output uses a schema constant in a form codegen does not inline: ${out.slice(left.index - 80, left.index + 80)}`);
  return out;
}

/** Whether a JavaScript expression printed by ajv is a literal (strings, numbers, arrays and objects of them). */
function isLiteral(expression: string): boolean {
  // Strip strings, then object keys; whatever identifier is left is a run-time value (`passing0`, `tag0`, `missing0`).
  const bare = expression.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/([{,]\s*)[A-Za-z_$][\w$]*\s*:/g, "$1:");
  return !/[A-Za-z_$]/.test(bare.replace(/\b(?:true|false|null)\b/g, ""));
}

/** The value of a literal printed by ajv (`{type: "string"}`): its bare keys quoted, then JSON. */
function literalValue(expression: string): unknown {
  const parts = expression.split(/("(?:[^"\\]|\\.)*")/);
  return JSON.parse(parts.map((part, i) => (i % 2 === 1 ? part : part.replace(/([{,]\s*)([A-Za-z_$][\w$]*)\s*:/g, '$1"$2":'))).join(""));
}

/**
 * Rewrites every error site to `vErrors = addError(vErrors, instancePath, K[i]);errors++;`
 * where `K` is one table per file of the distinct (keyword, params, message)
 * triples, built once at load (`errorKinds`), each entry `[keyword, params]`
 * when the runtime's `errorMessage` derives ajv's message from them, else
 * `[keyword, params, message]`: the error object the helper builds has
 * the same fields ajv's had, minus `schemaPath`, which nothing reads (it was a
 * seventh of the file). Sites whose params hold run-time values pass their
 * triple inline. Returns the code and the table's source (`[]` when empty).
 */
export function sharedErrorSites(code: string): { code: string; table: string } {
  const kinds = new Map<string, number>();
  let out = code.replace(ERROR_SITE, (_m, _err: string, path: string | undefined, keyword: string, params: string, message: string) => {
    const text = (JSON.parse(`[${message.replace(/"\+"/g, "")}]`) as string[])[0] as string;
    const kind = `{keyword: "${keyword}", params: ${params}, message: ${JSON.stringify(text)}}`;
    const where = path ?? "instancePath";
    if (!isLiteral(params)) return `vErrors = addError(vErrors, ${where}, ${kind});errors++;`;
    const entry = errorMessage(keyword, literalValue(params) as Record<string, unknown>) === text ? `["${keyword}", ${params}]` : `["${keyword}", ${params}, ${JSON.stringify(text)}]`;
    let index = kinds.get(entry);
    if (index === undefined) kinds.set(entry, (index = kinds.size));
    return `vErrors = addError(vErrors, ${where}, K[${index}]);errors++;`;
  });
  out = out.replace(PLACEHOLDER_SITE, "vErrors = addPlaceholder(vErrors);errors++;");
  const left = /const err\d+ = /.exec(out);
  if (left) throw new Error(`codegen: ajv output reports an error in a form codegen does not rewrite: ${out.slice(left.index, left.index + 240)}`);
  return { code: out, table: `[\n${[...kinds.keys()].map((k) => `  ${k},`).join("\n")}\n]` };
}

/**
 * Replaces ajv's object test `x && typeof x == "object" && !Array.isArray(x)`
 * (every object schema, 40 bytes minified each) by the runtime's
 * `isObject(x)`, which V8 inlines. Every such test stands in a condition.
 */
export function objectTests(code: string): string {
  return code.replace(/\b(\w+) && typeof \1 == "object" && !Array\.isArray\(\1\)/g, "isObject($1)");
}
