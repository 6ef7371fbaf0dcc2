/**
 * "Advertised ⇒ handled", checked at `initialize`: a side that advertises a
 * capability promises its peer the gated methods, so a handler without one
 * of them would answer `-32601` to a call the peer was told it could make.
 */
import type { Protocol } from "../protocol.ts";
import type { Row } from "../row.ts";
import { capabilityName, hasCapability } from "./gate.ts";

/** One capability-gated row whose capability was advertised but whose handler method is missing. */
export interface UnhandledRow {
  readonly wire: string;
  readonly callback: string;
  /** `agentCapabilities.loadSession`, `clientCapabilities.fs.readTextFile`, … */
  readonly capability: string;
}

/**
 * The rows `side` handles whose capability `capabilities` advertises (the
 * inbound gate would let the call through) while `handler` has no function
 * under the row's callback name, in table order.
 */
export function unhandledRows(protocol: Protocol, side: "agent" | "client", handler: object, capabilities: unknown): UnhandledRow[] {
  const out: UnhandledRow[] = [];
  for (const row of protocol.rows[side] as readonly Row<never, never>[]) {
    if (row.capability === undefined || row.callback === undefined || !hasCapability(capabilities, row.capability)) continue;
    if (typeof (handler as Record<string, unknown>)[row.callback] === "function") continue;
    out.push({ wire: row.wire, callback: row.callback, capability: capabilityName(protocol, side, row.capability) });
  }
  return out;
}

/** Reports one `missing_handler` diagnostic per row of {@link unhandledRows}. */
export function reportUnhandled(host: { readonly protocol: Protocol; report(kind: "missing_handler", message: string, data?: unknown): void }, handler: object, side: "agent" | "client", capabilities: unknown): void {
  for (const row of unhandledRows(host.protocol, side, handler, capabilities)) {
    host.report("missing_handler", `${row.capability} is advertised but the ${side} handler has no ${row.callback}: "${row.wire}" will answer -32601`, row);
  }
}
