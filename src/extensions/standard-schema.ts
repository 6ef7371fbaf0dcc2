/**
 * The Standard Schema v1 interface (https://standardschema.dev), declared
 * here rather than imported: zod, valibot and arktype implement it, and
 * acp-router keeps no runtime or type dependency on any of them. Only the
 * parts acp-router reads are declared; a vendor's schema object, with its
 * extra members, is assignable to it.
 */

/** A schema in the Standard Schema v1 form: `~standard.validate` plus optional inferred types. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaProps<Input, Output>;
}

/** What a Standard Schema carries under `~standard`. */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
  /** Always 1 for this version of the standard. */
  readonly version: 1;
  /** The library that made the schema (`"zod"`, `"valibot"`, `"arktype"`). */
  readonly vendor: string;
  /** Validates a value: the (possibly transformed) value, or the issues. May be async. */
  readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
  /** Type-level only: the schema's input and output types, for inference. */
  readonly types?: StandardTypes<Input, Output> | undefined;
}

/** The outcome of `validate`: success carries the value, failure the issues. */
export type StandardResult<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: ReadonlyArray<StandardIssue> };

/** One validation problem, located by its path into the value (keys, or `{ key }` segments). */
export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** The phantom types a schema declares under `~standard.types`. */
export interface StandardTypes<Input = unknown, Output = Input> {
  readonly input: Input;
  readonly output: Output;
}

/** The type a Standard Schema accepts (before transforms and defaults). */
export type InferInput<S extends StandardSchemaV1> = NonNullable<S["~standard"]["types"]>["input"];

/** The type a Standard Schema produces (after transforms and defaults). */
export type InferOutput<S extends StandardSchemaV1> = NonNullable<S["~standard"]["types"]>["output"];
