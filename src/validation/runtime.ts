/** Runtime helpers that generated validators call, so they need nothing from ajv. */
import type { ValidatorError } from "./validator.ts";

/**
 * Length of a string in Unicode code points, as JSON Schema's
 * `minLength`/`maxLength` count it (a surrogate pair counts once).
 */
export function ucs2length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    length++;
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if ((next & 0xfc00) === 0xdc00) i++;
    }
  }
  return length;
}

/** True when `value` is a JSON object: not null, not an array (ajv's `type: "object"`). */
export function isObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * What an error site of a generated validator reports, besides where: one
 * frozen object per distinct kind in each validators file.
 * @internal
 */
export interface ErrorKind {
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message: string;
}

/**
 * One entry of a validators file's table: keyword and params, plus the
 * message when {@link errorMessage} does not derive ajv's own from them.
 * @internal
 */
export type ErrorEntry = readonly [keyword: string, params: Record<string, unknown>, message?: string];

/**
 * The message ajv reports for `keyword` with `params`, for the keywords the
 * ACP schemas use; undefined for others (their table entries carry the
 * message). Codegen emits an entry without its message only when this
 * returns ajv's message for it, so the two never disagree.
 */
export function errorMessage(keyword: string, params: Readonly<Record<string, unknown>>): string | undefined {
  switch (keyword) {
    case "type":
      return `must be ${String(params.type)}`;
    case "required":
      return `must have required property '${String(params.missingProperty)}'`;
    case "const":
      return "must be equal to constant";
    case "enum":
      return "must be equal to one of the allowed values";
    case "anyOf":
      return "must match a schema in anyOf";
    case "oneOf":
      return "must match exactly one schema in oneOf";
    case "not":
      return "must NOT be valid";
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `must be ${String(params.comparison)} ${String(params.limit)}`;
    case "minLength":
    case "maxLength":
      return `must NOT have ${keyword === "minLength" ? "fewer" : "more"} than ${String(params.limit)} characters`;
    case "minItems":
    case "maxItems":
      return `must NOT have ${keyword === "minItems" ? "fewer" : "more"} than ${String(params.limit)} items`;
    case "discriminator":
      return params.error === "tag" ? `tag "${String(params.tag)}" must be string` : `value of tag "${String(params.tag)}" must be in oneOf`;
    default:
      return undefined;
  }
}

/**
 * Builds a validators file's table of error kinds once, at load: each entry
 * frozen with its params and its message (derived when the entry has none);
 * the errors of every call share them.
 */
export function errorKinds(entries: readonly ErrorEntry[]): readonly ErrorKind[] {
  return Object.freeze(entries.map(([keyword, params, message]) => Object.freeze({ keyword, params: Object.freeze(params), message: message ?? errorMessage(keyword, params) ?? keyword })));
}

/**
 * Appends the error `kind` at `instancePath` to `errors` (a new list when
 * null) and returns the list: the one error site of generated validators.
 */
export function addError(errors: ValidatorError[] | null, instancePath: string, kind: ErrorKind): ValidatorError[] {
  const error: ValidatorError = { instancePath, keyword: kind.keyword, params: kind.params, message: kind.message };
  if (errors === null) return [error];
  errors.push(error);
  return errors;
}

/**
 * Appends the errors of a nested validator to `errors` (a copy when null) and
 * returns the list; pushes in place, as a `concat` per call would be
 * quadratic in the number of errors.
 */
export function addErrors(errors: ValidatorError[] | null, from: readonly ValidatorError[]): ValidatorError[] {
  if (errors === null) return from.slice();
  for (const e of from) errors.push(e);
  return errors;
}

/**
 * Appends the empty placeholder error ajv counts inside a `not` subschema
 * (always discarded by the `not` keyword) and returns the list.
 */
export function addPlaceholder(errors: ValidatorError[] | null): ValidatorError[] {
  const error = {} as ValidatorError;
  if (errors === null) return [error];
  errors.push(error);
  return errors;
}
