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
 * Freezes a validators file's table of error kinds (and their params), once
 * at load: the errors of every call share them.
 */
export function errorKinds(kinds: ErrorKind[]): readonly ErrorKind[] {
  for (const kind of kinds) Object.freeze(Object.freeze(kind).params);
  return Object.freeze(kinds);
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
