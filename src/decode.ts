/**
 * The table-driven decode and dispatch, one implementation for every table:
 * the connection's inbound pipeline runs `decodeParams` after its gates and
 * `dispatch` to call the handler, and `decode` (lookup + `decodeParams`) is
 * the same step for tools and tests that start from a wire name.
 */
import type { Protocol } from "./protocol.ts";
import { isExtensionWire, notImplemented, type Row } from "./row.ts";
import { decodeParams, type FieldError, type Leniency } from "./validation/check.ts";

export { decodeParams };
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

/**
 * Decodes inbound params for `wire`: the row and (possibly repaired) params,
 * `ext` for an unregistered `_` method, `method_not_found` (also for
 * connection-routed rows, which no handler decodes), or `invalid_params`
 * with one error per location.
 * @internal
 */
export function decode(router: Pick<Protocol, "inboundRow" | "leniency">, side: "agent" | "client", kind: "request" | "notification", wire: string, params: unknown, mode: Leniency = "repair"): Decoded<never, never> {
  const row = router.inboundRow(side, kind, wire);
  if (row === undefined || row.invoke === undefined) {
    if (row === undefined && isExtensionWire(wire)) return { tag: "ext", wire, params };
    return { tag: "method_not_found", wire };
  }
  const value = params === undefined ? {} : params;
  const outcome = decodeParams(router, row, value, mode);
  if (outcome === undefined) return { tag: "ok", row, params: value, repairs: undefined };
  if (outcome.ok) return { tag: "ok", row, params: value, repairs: outcome.repairs };
  return { tag: "invalid_params", row, errors: outcome.errors };
}

/** The optional methods a handler of any table may have for unregistered `_` methods. */
interface ExtensionMethods {
  extMethod?: (method: string, params: unknown, ctx: unknown) => unknown;
  extNotification?: (method: string, params: unknown, ctx: unknown) => unknown;
}

/**
 * Calls the handler for one inbound message: the row's `invoke`, or, for an
 * unregistered `_` method (`row` undefined), `extMethod` (requests; absent:
 * `-32601`) / `extNotification` (notifications; absent: ignored). The one
 * call into handlers the connection makes.
 * @internal
 */
export function dispatch(row: Row<never, never> | Row<unknown, unknown> | undefined, handler: object, wire: string, params: unknown, ctx: { readonly requestId: unknown }): unknown {
  if (row !== undefined) {
    const invoke = row.invoke as ((h: unknown, p: unknown, c: unknown) => unknown) | undefined;
    return invoke === undefined ? notImplemented(wire) : invoke(handler, params, ctx);
  }
  const h = handler as ExtensionMethods;
  if (ctx.requestId === undefined) return h.extNotification?.(wire, params, ctx);
  return h.extMethod ? h.extMethod(wire, params, ctx) : notImplemented(wire);
}

/**
 * Dispatches a `decode` result (tools and tests): `ok` and `ext` call the
 * handler; the failures throw `-32601`.
 * @internal
 */
export function dispatchDecoded(handler: object, decoded: Decoded<never, never>, ctx: { readonly requestId: unknown }): unknown {
  switch (decoded.tag) {
    case "ok":
      return dispatch(decoded.row, handler, decoded.row.wire, decoded.params, ctx);
    case "ext":
      return dispatch(undefined, handler, decoded.wire, decoded.params, ctx);
    default:
      return notImplemented(decoded.tag === "method_not_found" ? decoded.wire : decoded.row.wire);
  }
}
