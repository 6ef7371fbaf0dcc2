/**
 * Which generated router (method table) validates a connection: chosen by
 * the protocol version the agent's `initialize` answer negotiated. Only the
 * v1 stable table exists today; when v1-unstable or v2 tables are generated,
 * they are added to `TABLES` and nothing else in the tools changes. Until
 * `initialize` is answered, and for a version with no table, the default
 * (v1) is used and the summary says so.
 */
import type { Router } from "../../src/row.ts";
import { protocol as v1 } from "../../src/generated/protocol.ts";

/** A method table the tools can validate against. */
export interface Table {
  /** The protocol version the table describes. */
  readonly version: number;
  /** Name shown in summaries (`v1 stable`). */
  readonly name: string;
  readonly router: Router;
}

const V1: Table = { version: 1, name: "v1 stable", router: v1 };

/** Tables by protocol version. A Map, never a plain object indexed by untrusted input. */
const TABLES: ReadonlyMap<number, Table> = new Map([[1, V1]]);

/** The table used before negotiation and for unknown versions: v1 stable. */
export const DEFAULT_TABLE: Table = V1;

/** The table for a negotiated `protocolVersion`, or undefined when none is generated for it. */
export function tableFor(protocolVersion: unknown): Table | undefined {
  return typeof protocolVersion === "number" ? TABLES.get(protocolVersion) : undefined;
}
