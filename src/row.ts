/**
 * What the generated router knows about one wire method: the table row's
 * routing fields plus its validators and a typed call into the handler.
 * Rows are created once by generated code; the connection reads them.
 */
import type { Validator } from "./validation/validator.ts";
import { RpcError } from "./errors.ts";

/** One generated routing row (see method-table.ts): routing fields, validators and the typed handler call. */
export interface Row<Handler = unknown, Context = unknown> {
  readonly wire: string;
  readonly kind: "request" | "notification";
  readonly layer: "app" | "protocol" | "session_control";
  /** Path into the handling side's advertised capabilities; undefined when ungated. */
  readonly capability: readonly string[] | undefined;
  /** Needs a completed `authenticate` when the agent requires authentication. */
  readonly auth: boolean;
  /** Result answered for a cancelled call instead of `-32800`; undefined when none. */
  readonly onCancel: unknown;
  readonly params: Validator;
  /** `$defs` name (or extension type name) of the params, the root for leniency. */
  readonly paramsType: string;
  readonly result: Validator | undefined;
  readonly resultType: string | undefined;
  /** Calls the handler's method for this row; undefined for connection-routed rows. */
  readonly invoke: ((handler: Handler, params: unknown, ctx: Context) => unknown) | undefined;
}

/** Thrown by `invoke` when the handler does not implement an optional method. */
export function notImplemented(wire: string): never {
  throw RpcError.methodNotFound(wire);
}
