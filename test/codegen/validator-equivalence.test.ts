// The committed validators (ajv standalone code after codegen's speed and size rewrites) accept
// and reject exactly what ajv itself does, compiled at test time from the same ajv instance, with
// the same errors (instancePath, keyword, params, message; schemaPath is left out on purpose):
// random valid values of every validated type of the four tables, each also with one location
// replaced by a wrong value or one property removed, and non-object roots.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validatorAjv } from "../../codegen/emit-validators.ts";
import { loadSchema } from "../../codegen/schema.ts";
import * as stable from "../../method-table.ts";
import * as v1Validators from "../../src/generated/validators.ts";
import * as unstableValidators from "../../src/unstable/generated/validators.ts";
import * as v2Validators from "../../src/v2/generated/validators.ts";
import * as v2UnstableValidators from "../../src/v2/unstable/generated/validators.ts";
import type { Validator, ValidatorError } from "../../src/validation/validator.ts";
import * as unstable from "../../tables/v1-unstable.ts";
import * as v2 from "../../tables/v2.ts";
import * as v2Unstable from "../../tables/v2-unstable.ts";
import { arbitraryFor, type Schema } from "../validation/schema-arbitrary.ts";

const tables = [
  { name: "v1", table: stable, validators: v1Validators as Record<string, unknown> },
  { name: "v1 unstable", table: unstable, validators: unstableValidators as Record<string, unknown> },
  { name: "v2", table: v2, validators: v2Validators as Record<string, unknown> },
  { name: "v2 unstable", table: v2Unstable, validators: v2UnstableValidators as Record<string, unknown> },
];

/** Runs per validated type: valid values, then each with one location broken. */
const RUNS = 15;
const SEED = 24;

/** Values put in place of a location: every JSON type, and strings that look like enum members. */
const JUNK: unknown[] = [null, 0, -1, 1.5, 70000, "", "x", "end_turn", true, [], [1], {}, { type: "text" }];

/** The paths of every location inside `value` (the root included). */
function locations(value: unknown, path: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(path);
  if (Array.isArray(value)) value.forEach((v, i) => locations(v, [...path, i], out));
  else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) locations(v, [...path, k], out);
  return out;
}

/** A copy of `value` with the location `path` replaced by `junk`, or removed when `junk` is undefined. */
function broken(value: unknown, path: readonly (string | number)[], junk: unknown): unknown {
  if (path.length === 0) return junk === undefined ? {} : junk;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (junk !== undefined) parent[last] = junk;
  else if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete parent[last];
  return copy;
}

/** What a caller can read off an error; schemaPath is not emitted. */
const seen = (errors: readonly ValidatorError[] | null | undefined) => (errors ?? []).map((e) => ({ instancePath: e.instancePath, keyword: e.keyword, params: e.params, message: e.message }));

describe.each(tables)("the emitted validators of $name", ({ table, validators }) => {
  const { schema } = loadSchema(table.schemaSource);
  const { ajv, exports } = validatorAjv(table.methods, schema);
  const names = Object.keys(exports);

  it("export one validator per validated type", () => {
    expect(
      Object.keys(validators)
        .filter((k) => k.startsWith("validate"))
        .sort(),
    ).toEqual([...names].sort());
  });

  it.each(names)("%s agrees with ajv on valid, broken and non-object values", (name) => {
    const emitted = validators[name] as Validator;
    const reference = ajv.getSchema(exports[name] as string);
    if (!reference) throw new Error(`ajv has no ${exports[name]}`);
    const agree = (value: unknown) => {
      const ok = emitted(value);
      const refOk = reference(value);
      expect(ok).toBe(refOk);
      if (!ok) expect(seen(emitted.errors)).toEqual(seen(reference.errors as ValidatorError[]));
      return ok;
    };
    for (const root of [null, 1, "x", [], true]) expect(agree(root)).toBe(false);
    const typeName = name.slice("validate".length);
    // Candidates: most are valid; the few the arbitrary gets wrong (a pattern it does not know) are compared too.
    const values = arbitraryFor(schema as Schema, typeName, false);
    let rejected = 0;
    fc.assert(
      fc.property(values, fc.nat(), fc.nat(JUNK.length), (value, at, which) => {
        agree(value);
        const spots = locations(value);
        if (!agree(broken(value, spots[at % spots.length] as (string | number)[], JUNK[which]))) rejected++;
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // The broken values must exercise the error paths, or the comparison above proves little.
    expect(rejected).toBeGreaterThan(0);
  });
});
