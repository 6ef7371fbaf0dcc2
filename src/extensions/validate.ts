/**
 * Validation of runtime-registered extension params and results: a Standard
 * Schema (sync or async) or a plain type guard, reporting failures in the
 * same per-location `FieldError` shape as the generated validators.
 */
import { isThenable } from "../connection/lanes.ts";
import { fieldErrors, type FieldError } from "../validation/check.ts";
import type { ValidatorError } from "../validation/validator.ts";
import type { InferInput, InferOutput, StandardIssue, StandardResult, StandardSchemaV1 } from "./standard-schema.ts";

/**
 * What validates an extension's params or result: a Standard Schema (zod,
 * valibot, arktype; its output is what the handler or caller receives) or a
 * type guard `(value: unknown) => value is T` (the value passes unchanged).
 */
export type Check<Output = unknown, Input = Output> = StandardSchemaV1<Input, Output> | ((value: unknown) => value is Output);

/** The type a check produces: a guard's `T`, a schema's output. */
export type OutputOf<C> = C extends (value: unknown) => value is infer T ? T : C extends StandardSchemaV1 ? InferOutput<C> : never;

/** The type a check accepts: a guard's `T`, a schema's input. */
export type InputOf<C> = C extends (value: unknown) => value is infer T ? T : C extends StandardSchemaV1 ? InferInput<C> : never;

/** The outcome of a check: the value to use, or the errors per location. */
export type Checked = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly errors: readonly FieldError[] };

/** True when `value` is a Standard Schema v1 (has `~standard` with a `validate` function). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  const props = (value as { "~standard"?: { validate?: unknown } })["~standard"];
  return typeof props === "object" && props !== null && typeof props.validate === "function";
}

/** Runs a check on `value`; a promise only when the schema's `validate` is async. */
export function runCheck(check: Check, value: unknown): Checked | Promise<Checked> {
  if (isStandardSchema(check)) {
    const result = check["~standard"].validate(value);
    return isThenable(result) ? Promise.resolve(result).then(toChecked) : toChecked(result);
  }
  if (check(value)) return { ok: true, value };
  return { ok: false, errors: [{ path: "", message: `does not satisfy the type guard ${check.name || "(anonymous)"}` }] };
}

/** Calls `next` with the check's outcome, at once when the check was synchronous. */
export function afterCheck(checked: Checked | Promise<Checked>, next: (checked: Checked) => unknown): unknown {
  return isThenable(checked) ? checked.then(next) : next(checked);
}

/** Throws a clear error when `check` is neither a Standard Schema nor a function (a type guard). */
export function assertCheck(check: unknown, what: string): void {
  if (!isStandardSchema(check) && typeof check !== "function") throw new TypeError(`${what} must be a Standard Schema (zod, valibot, arktype, …) or a type guard`);
}

function toChecked(result: StandardResult<unknown>): Checked {
  if (result.issues === undefined) return { ok: true, value: result.value };
  return { ok: false, errors: fieldErrors(result.issues.map(asValidatorError)) };
}

/** An issue as a generated validator would report it, so both group into the same `FieldError` entries. */
function asValidatorError(issue: StandardIssue): ValidatorError {
  let pointer = "";
  for (const segment of issue.path ?? []) {
    const key = typeof segment === "object" && segment !== null ? segment.key : segment;
    pointer += `/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;
  }
  return { instancePath: pointer, schemaPath: "", keyword: "standard", params: {}, message: issue.message };
}
