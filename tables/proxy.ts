/**
 * The ACP v1 **proxy** method table: the connection between a conductor and
 * one of its proxies (the Proxy Chains RFD, `proxy/*` in
 * `schema/v1/schema.unstable.json`). `npm run codegen` turns it into
 * `src/proxy/generated/`, served by the opt-in entry `acp-router/proxy`.
 *
 * A proxy is the agent side of this connection and the conductor its client
 * side: the rows are every row of the unstable table (the proxy answers what
 * its predecessor asks, the conductor carries what the proxy says back to
 * the predecessor) plus the proxy's own:
 * - `proxy/initialize`, the proxy's initialize (same params and answer as
 *   `initialize`; it opens the connection, so `initialize` itself is not a
 *   lifecycle row here and a proxy never has to answer it);
 * - `proxy/successor`, a request and a notification each way: the proxy
 *   sends one to reach its successor, the conductor sends one to deliver what
 *   the successor sent. The envelope's `_meta` belongs to this hop.
 *
 * The table extends the unstable table ({@link base}): codegen prints only
 * the rows this table adds or changes into `src/proxy/generated/` and
 * imports the rest (types, validators, leniency, rows) from
 * `src/unstable/generated/`.
 */
import * as unstableTable from "./v1-unstable.ts";
import type { MethodRow } from "./v1-unstable.ts";

export type { MethodRow, SchemaSource } from "./v1-unstable.ts";

/** The table this one extends: the unstable v1 table (same schema pin). */
export const base = unstableTable;

/** The pinned ACP schema: the unstable table's. */
export const schemaSource = unstableTable.schemaSource;

/** The protocol's name, so tools tell a proxy hop from an unstable v1 connection. */
export const name = "v1-proxy";

const unstable = unstableTable.methods;

/** The rows the proxy connection adds to the unstable table. */
export const proxyMethods: readonly MethodRow[] = [
  // ── handled by the proxy ──────────────────────────────────────────────
  // The conductor's first request to a component with a successor: the proxy forwards an initialize to its successor before answering.
  { wire: "proxy/initialize", side: "agent", kind: "request", callback: "initializeProxy", params: "InitializeProxyRequest", result: "InitializeProxyResponse", layer: "app", lifecycle: "initialize" },
  // A request or notification from the proxy's successor, delivered by the conductor; the wrapped answer goes back unchanged.
  { wire: "proxy/successor", side: "agent", kind: "request", callback: "fromSuccessor", params: "ProxySuccessorRequest", result: "ProxySuccessorResponse", layer: "app", envelope: true },
  { wire: "proxy/successor", side: "agent", kind: "notification", callback: "fromSuccessorNotification", params: "ProxySuccessorNotification", layer: "app", envelope: true },

  // ── handled by the conductor ──────────────────────────────────────────
  // A request or notification the proxy sends on to its successor.
  { wire: "proxy/successor", side: "client", kind: "request", callback: "toSuccessor", params: "ProxySuccessorRequest", result: "ProxySuccessorResponse", layer: "app", envelope: true },
  { wire: "proxy/successor", side: "client", kind: "notification", callback: "toSuccessorNotification", params: "ProxySuccessorNotification", layer: "app", envelope: true },
];

/**
 * Every row of the proxy connection: the unstable table's, with `initialize`
 * answered only if the proxy chooses to (it opens nothing here), then
 * {@link proxyMethods}.
 */
export const methods: readonly MethodRow[] = [...unstable.map((row): MethodRow => (row.lifecycle === "initialize" ? { ...withoutLifecycle(row), optional: true } : row)), ...proxyMethods];

function withoutLifecycle(row: MethodRow): MethodRow {
  const { lifecycle: _lifecycle, ...rest } = row;
  return rest;
}
