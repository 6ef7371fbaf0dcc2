/**
 * What names a table's protocol (its version and short name) and where its
 * `initialize` carries the capabilities: read by the emitters of the
 * protocol values (`emit-protocol.ts`, `emit-router.ts`,
 * `emit-extension.ts`), so none of them imports another for it.
 */
import type { MethodRow } from "../method-table.ts";

/** What names the table's protocol: its version and a short name. */
export interface ProtocolInfo {
  readonly version: number;
  readonly name: string;
}

/** A table whose schema file says nothing else: ACP version 1. */
export const DEFAULT_PROTOCOL_INFO: ProtocolInfo = { version: 1, name: "v1" };

/**
 * The version and name of a table from its schema file (`schema/v2/schema.json` → 2, `"v2"`;
 * `schema.unstable.json` → `"v1-unstable"`), unless the table names itself (`name`, as the proxy
 * table does: `"v1-proxy"`).
 */
export function protocolInfoOf(schemaFile: string, name?: string): ProtocolInfo {
  const version = Number(/(?:^|\/)v(\d+)\//.exec(schemaFile)?.[1] ?? 1);
  return { version, name: name ?? `v${version}${/unstable/.test(schemaFile) ? "-unstable" : ""}` };
}

/** Where `initialize` carries the capabilities (method-table.ts defaults when the row says nothing). */
export function capabilityFields(rows: readonly MethodRow[]): { params: string; result: string } {
  const row = rows.find((r) => r.lifecycle === "initialize" && r.side === "agent" && r.kind === "request");
  return { params: row?.capabilityFields?.params ?? "clientCapabilities", result: row?.capabilityFields?.result ?? "agentCapabilities" };
}
