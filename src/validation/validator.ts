/** The shape of a generated (ajv standalone) validator and its errors. */

/**
 * One error as a generated validator reports it.
 * @internal
 */
export interface ValidatorError {
  /** JSON Pointer into the validated value (`/prompt/0/type`). */
  readonly instancePath: string;
  /**
   * Pointer into the schema, for diagnostics. Generated validators leave it
   * out: nothing reads it, and its strings were a seventh of their code.
   */
  readonly schemaPath?: string;
  /** The failing keyword (`required`, `type`, `discriminator`, …). */
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message?: string;
}

/**
 * A compiled validator: returns true when valid, else leaves `errors` set.
 * @internal
 */
export interface Validator {
  (data: unknown): boolean;
  errors?: readonly ValidatorError[] | null;
}
