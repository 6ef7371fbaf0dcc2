/**
 * Which method table judges a connection's traffic, for `inspect`, `check`,
 * `replay` and `report` alike: v1 stable, v1 unstable or v2. The only module
 * of the tools that imports generated code: it takes each generated folder's
 * `protocol` value and reads what it carries, rebuilding nothing.
 *
 * How the monitor chooses (monitor.ts, answers.ts, requests.ts):
 * - until `initialize` is answered, v1 stable judges everything except the
 *   `initialize` request itself, which is judged by the table of the
 *   version it asks for (`tableFor(params.protocolVersion)`);
 * - each successful `initialize` answer selects the table of the
 *   `protocolVersion` it names; a later answer (a negotiating client that
 *   offered 2, was answered 1, and initializes again) replaces an earlier
 *   one, since the latest successful `initialize` is the one in force;
 * - on a v1 connection, the first message whose method is in the v1
 *   unstable table but not in v1 stable (`session/fork`, `providers/list`…)
 *   switches to the unstable table, which holds every stable row too;
 * - for a version with no table, the current one stays and a note says so.
 */
import type { Protocol } from "../../src/protocol.ts";
import type { Row } from "../../src/row.ts";
import { protocol as v1 } from "../../src/generated/protocol.ts";
import { protocol as v1Unstable } from "../../src/unstable/generated/protocol.ts";
import { protocol as v2 } from "../../src/v2/generated/protocol.ts";

/**
 * A method table the tools can validate against: a generated `protocol`
 * value, read as it is (its `version`, `name`, row lookups, `capabilityFields`
 * and `errorCodes`), plus what the tools derive once from its rows.
 */
export interface Table {
  /** The table's protocol value: row lookups (`inboundRow`), validators, leniency, error codes. */
  readonly protocol: Protocol;
  /** The protocol version the table describes (`protocol.version`). */
  readonly version: number;
  /** Name shown in summaries (`protocol.name`: `v1`, `v1-unstable`, `v2`). */
  readonly name: string;
  /** The same value as `protocol`, under the name the rules read it by (row lookups and leniency). */
  readonly router: Protocol;
  /** The `initialize` fields carrying each side's capabilities (`protocol.capabilityFields`: v1 `clientCapabilities` / `agentCapabilities`, v2 `capabilities` on both). */
  readonly capabilityFields: Protocol["capabilityFields"];
  /** The error codes the table's schema names (`protocol.errorCodes`), by name. */
  readonly errorCodes: Protocol["errorCodes"];
  /** The `session/prompt` row's turn end: present when the answer only acknowledges and a notification ends the turn (v2). */
  readonly turnEnd: Row<never, never>["turnEnd"];
  /** The table holding this one's rows and more, switched to when a method only it has appears (v1 → v1-unstable); undefined when none. */
  readonly wider: Table | undefined;
}

function table(protocol: Protocol, wider: Table | undefined): Table {
  const turnEnd = protocol.inboundRow("agent", "request", "session/prompt")?.turnEnd;
  return { protocol, version: protocol.version, name: protocol.name, router: protocol, capabilityFields: protocol.capabilityFields, errorCodes: protocol.errorCodes, turnEnd, wider };
}

const V1_UNSTABLE = table(v1Unstable as Protocol, undefined);
const V1 = table(v1 as Protocol, V1_UNSTABLE);
const V2 = table(v2 as Protocol, undefined);

/** Tables by negotiated protocol version (each stable table's own `version`). A Map, never a plain object indexed by untrusted input. */
const TABLES: ReadonlyMap<number, Table> = new Map([V1, V2].map((t) => [t.version, t]));

/** The table used before negotiation and for versions without a table: v1 stable (the version every agent serves). */
export const DEFAULT_TABLE: Table = V1;

/** Every table, for tests and listings. */
export const ALL_TABLES: readonly Table[] = [V1, V1_UNSTABLE, V2];

/** The table for a negotiated `protocolVersion`, or undefined when none is generated for it. */
export function tableFor(protocolVersion: unknown): Table | undefined {
  return typeof protocolVersion === "number" ? TABLES.get(protocolVersion) : undefined;
}

/**
 * The wider table to switch to when `table` has no row for a message that
 * `handler` receives but its wider table has (an unstable method on a v1
 * connection), else undefined.
 */
export function widerTableFor(table: Table, handler: "agent" | "client", kind: "request" | "notification", wire: string): Table | undefined {
  const wider = table.wider;
  if (wider === undefined || table.router.inboundRow(handler, kind, wire) !== undefined) return undefined;
  return wider.router.inboundRow(handler, kind, wire) !== undefined ? wider : undefined;
}

/** What a summary or report says about the table: `table v2, protocol version 2` or `…, initialize not answered`. */
export function describeTable(state: { readonly table: Table; readonly negotiated: number | undefined }): string {
  return `table ${state.table.name}${state.negotiated !== undefined ? `, protocol version ${state.negotiated}` : ", initialize not answered"}`;
}
