/**
 * Forward compatibility for results: an enum value this schema does not know
 * (a newer agent's `stopReason`, a tool kind or status, an update kind) is
 * passed through unchanged with a diagnostic instead of failing the call, in
 * `repair` mode. Told from a real error by the validator's errors alone: at
 * that location the value is a string and every error is an enum check
 * (`const`/`enum`), the union summary above them (`oneOf`/`anyOf`), the
 * `null` branch of a nullable field, or a discriminator whose string tag
 * names no known variant.
 */
import type { Repair } from "./leniency.ts";
import { pointerSegments } from "./leniency.ts";
import type { ValidatorError } from "./validator.ts";

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Splits `errors` into the locations that hold an unknown enum value (added to
 * `kept` as `kept_unknown` entries, by path) and the errors left to repair or
 * reject, which it returns. A location the schema marks lenient itself is left
 * to the repair (a config option of an unknown type in a skip-invalid-items
 * list is dropped, as the schema says). Union summaries at locations
 * enclosing a kept one are dropped with it.
 */
export function setAsideUnknownValues(data: unknown, errors: readonly ValidatorError[], kept: Map<string, Repair>, lenientAt: (pointer: string) => boolean): ValidatorError[] {
  const byPath = new Map<string, ValidatorError[]>();
  for (const e of errors) {
    const list = byPath.get(e.instancePath);
    if (list) list.push(e);
    else byPath.set(e.instancePath, [e]);
  }
  for (const [path, list] of byPath) if (isUnknownValue(list, valueAt(data, path)) && !lenientAt(path)) kept.set(path, { path, action: "kept_unknown" });
  if (kept.size === 0) return errors as ValidatorError[];
  const enclosing = new Set<string>();
  for (const path of kept.keys()) for (let at = path.lastIndexOf("/"); at >= 0; at = at === 0 ? -1 : path.lastIndexOf("/", at - 1)) enclosing.add(path.slice(0, at));
  return errors.filter((e) => !kept.has(e.instancePath) && !(enclosing.has(e.instancePath) && isSummary(e)));
}

/** Whether the errors at one location say only "this string is not one of the known values". */
function isUnknownValue(errors: readonly ValidatorError[], value: unknown): boolean {
  let known = false;
  for (const e of errors) {
    if (e.keyword === "const" || e.keyword === "enum") {
      if (typeof value !== "string") return false;
      known = true;
    } else if (e.keyword === "discriminator") {
      const tag = typeof e.params.tag === "string" && typeof value === "object" && value !== null ? (value as Record<string, unknown>)[e.params.tag] : undefined;
      if (e.params.error !== "mapping" || typeof tag !== "string") return false;
      known = true;
    } else if (!isSummary(e)) return false;
  }
  return known;
}

/** A union's summary error, or the failed `null` branch of a nullable field. */
function isSummary(e: ValidatorError): boolean {
  return e.keyword === "oneOf" || e.keyword === "anyOf" || (e.keyword === "type" && e.params.type === "null");
}

function valueAt(data: unknown, pointer: string): unknown {
  let value = data;
  for (const key of pointerSegments(pointer)) {
    if (typeof value !== "object" || value === null || !hasOwn.call(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
