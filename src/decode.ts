/** The outcome of decoding an inbound message with the generated router. */
import type { Row } from "./row.ts";
import type { FieldError } from "./validation/check.ts";
import type { Repair } from "./validation/leniency.ts";

/**
 * Result of `decode`: the row and params, an unregistered extension method, an unknown method, or invalid params.
 * @internal
 */
export type Decoded<Handler = unknown, Context = unknown> =
  | { readonly tag: "ok"; readonly row: Row<Handler, Context>; readonly params: unknown; readonly repairs: readonly Repair[] | undefined }
  | { readonly tag: "ext"; readonly wire: string; readonly params: unknown }
  | { readonly tag: "method_not_found"; readonly wire: string }
  | { readonly tag: "invalid_params"; readonly row: Row<Handler, Context>; readonly errors: readonly FieldError[] };
