/**
 * Registered extensions as routing rows: the connection's router is wrapped
 * so that an unknown `_` method it handles yields a `Row` built from the
 * registration, and from there the one inbound pipeline runs unchanged —
 * initialization, capability and auth gates, dispatch with the usual
 * context, answer and error mapping, cancellation, per-session lanes. Only
 * params validation differs: it runs in the row's `invoke` (a Standard
 * Schema may be async and may transform the value), right before the
 * handler, answering `-32602` with `data.errors` per location as table rows do.
 */
import type { Side } from "../connection/core.ts";
import type { Diagnostic } from "../connection/options.ts";
import { RpcError } from "../errors.ts";
import type { Protocol } from "../protocol.ts";
import { isExtensionWire, type Row } from "../row.ts";
import type { Validator } from "../validation/validator.ts";
import type { ExtensionHandler } from "./define.ts";
import { afterCheck, runCheck } from "./validate.ts";

type Report = (kind: Diagnostic["kind"], message: string, data?: unknown) => void;
type Invoke = (handler: unknown, params: unknown, ctx: unknown) => unknown;

/**
 * `router` with `handlers` looked up for the `_` methods `side` handles and
 * the table does not route. Returns `router` itself when there are none, so
 * connections without extensions pay nothing; with some, only `_` wires the
 * table does not know reach the lookup. Throws on a wire registered twice
 * for the same kind, or one the table already routes.
 */
export function withExtensions<R extends Protocol>(router: R, side: Side, handlers: readonly ExtensionHandler[] | undefined, report: Report): R {
  if (handlers === undefined || handlers.length === 0) return router;
  const registered = { request: new Map<string, Row<never, never>>(), notification: new Map<string, Row<never, never>>() };
  for (const registration of handlers) {
    const { kind, wire } = registration.extension;
    if (registered[kind].has(wire)) throw new TypeError(`extension ${kind} "${wire}" is registered twice`);
    if (router.inboundRow(side, kind, wire) !== undefined) throw new TypeError(`extension ${kind} "${wire}" is already a row of the method table`);
    registered[kind].set(wire, extensionRow(registration, report));
  }
  // Everything else (result markers, leniency, the table's own rows) stays the table's.
  return {
    ...router,
    inboundRow(s, kind, wire) {
      const row = router.inboundRow(s, kind, wire);
      if (row !== undefined || s !== side || !isExtensionWire(wire)) return row;
      return registered[kind].get(wire);
    },
  };
}

/** Passes everything: the row's real validation runs in `invoke`, so the connection's synchronous check costs one call. */
const acceptAll: Validator = () => true;

/** The routing row of one registration. */
function extensionRow(registration: ExtensionHandler, report: Report): Row<never, never> {
  const ext = registration.extension;
  const handler = registration.handler as (params: unknown, ctx: unknown) => unknown;
  const invoke: Invoke =
    ext.kind === "request"
      ? (_, params, ctx) =>
          afterCheck(runCheck(ext.params, params), (checked) => {
            if (!checked.ok) throw RpcError.invalidParams({ errors: checked.errors });
            return handler(checked.value, ctx);
          })
      : (_, params, ctx) =>
          afterCheck(runCheck(ext.params, params), (checked) => {
            if (checked.ok) return handler(checked.value, ctx);
            report("invalid_notification", `dropped "${ext.wire}" with invalid params`, { errors: checked.errors });
            return undefined;
          });
  return {
    wire: ext.wire,
    kind: ext.kind,
    layer: "app",
    capability: ext.capability,
    auth: ext.kind === "request" && ext.auth,
    onCancel: undefined,
    cancelsSession: false,
    lifecycle: undefined,
    params: acceptAll,
    paramsType: ext.wire,
    result: undefined,
    resultType: undefined,
    invoke,
  };
}
