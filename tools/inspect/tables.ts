/**
 * Which method table judges a connection's traffic, for `inspect`, `check`,
 * `replay` and `report` alike: v1 stable, v1 unstable, v2 or v2 unstable. The only module
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
 * - on a v1 (v2) connection, the first message whose method is in the v1
 *   (v2) unstable table but not in the stable one (`session/fork`,
 *   `providers/list`…) switches to the unstable table, which holds every
 *   stable row too;
 * - for a version with no table, the current one stays and a note says so.
 *
 * `inspect --table <generated folder>` adds a user's own table (ACP rows plus
 * extension rows, as `acp-router codegen` writes it): it takes the place of
 * the built-in table of its version, so its extension methods are validated
 * like ACP's (see {@link loadTables}).
 */
import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Protocol } from "../../src/protocol.ts";
import { TableLoadError } from "./table-error.ts";
import type { Row } from "../../src/row.ts";
import { protocol as v1 } from "../../src/generated/protocol.ts";
import { protocol as v1Unstable } from "../../src/unstable/generated/protocol.ts";
import { protocol as v2 } from "../../src/v2/generated/protocol.ts";
import { protocol as v2Unstable } from "../../src/v2/unstable/generated/protocol.ts";

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
  /** Name shown in summaries (`protocol.name`: `v1`, `v1-unstable`, `v2`, `v2-unstable`). */
  readonly name: string;
  /** The same value as `protocol`, under the name the rules read it by (row lookups and leniency). */
  readonly router: Protocol;
  /** The `initialize` fields carrying each side's capabilities (`protocol.capabilityFields`: v1 `clientCapabilities` / `agentCapabilities`, v2 `capabilities` on both). */
  readonly capabilityFields: Protocol["capabilityFields"];
  /** The error codes the table's schema names (`protocol.errorCodes`), by name. */
  readonly errorCodes: Protocol["errorCodes"];
  /** The `session/prompt` row's turn end: present when the answer only acknowledges and a notification ends the turn (v2). */
  readonly turnEnd: Row<never, never>["turnEnd"];
  /** The table holding this one's rows and more, switched to when a method only it has appears (v1 → v1-unstable, v2 → v2-unstable); undefined when none. */
  readonly wider: Table | undefined;
}

function table(protocol: Protocol, wider: Table | undefined): Table {
  const turnEnd = protocol.inboundRow("agent", "request", "session/prompt")?.turnEnd;
  return { protocol, version: protocol.version, name: protocol.name, router: protocol, capabilityFields: protocol.capabilityFields, errorCodes: protocol.errorCodes, turnEnd, wider };
}

const V1_UNSTABLE = table(v1Unstable as Protocol, undefined);
const V1 = table(v1 as Protocol, V1_UNSTABLE);
const V2_UNSTABLE = table(v2Unstable as Protocol, undefined);
const V2 = table(v2 as Protocol, V2_UNSTABLE);

/**
 * The tables a monitor judges with: the one in force before negotiation,
 * and the one for each negotiated `protocolVersion`.
 */
export interface Tables {
  /** The table used before negotiation and for versions without a table. */
  readonly initial: Table;
  /** The table for a negotiated `protocolVersion`, or undefined when none is known for it. */
  forVersion(protocolVersion: unknown): Table | undefined;
}

function tableSet(byVersion: readonly Table[], initial: Table): Tables {
  // A Map, never a plain object indexed by untrusted input.
  const tables: ReadonlyMap<number, Table> = new Map(byVersion.map((t) => [t.version, t]));
  return { initial, forVersion: (v) => (typeof v === "number" ? tables.get(v) : undefined) };
}

/** The built-in tables: v1 stable before negotiation (the version every agent serves), v1 and v2 by version. */
export const BUILT_IN: Tables = tableSet([V1, V2], V1);

/** Every built-in table, for tests and listings. */
export const ALL_TABLES: readonly Table[] = [V1, V1_UNSTABLE, V2, V2_UNSTABLE];

/**
 * The built-in tables with a user's generated table in place of the one of
 * its version. It keeps that version's wider table (v1 → v1 unstable, v2 → v2 unstable), so an
 * unstable method the user's table lacks is still judged.
 */
export function withTable(protocol: Protocol): Tables {
  const builtIn = BUILT_IN.forVersion(protocol.version);
  const own = table(protocol, builtIn?.wider);
  const others = [V1, V2].filter((t) => t.version !== own.version);
  return tableSet([own, ...others], own.version === V1.version ? own : V1);
}

export { TableLoadError };

/**
 * Loads the `protocol` value of a folder written by `acp-router codegen`
 * (its `protocol.js`, or `protocol.ts`) and returns the tables with it in
 * place ({@link withTable}). A TypeScript folder loads when Node can import
 * TypeScript already (run under `tsx`, or a Node that strips types) or when
 * `tsx` is installed in the folder's project; otherwise the error says to
 * compile it or install `tsx`.
 */
export async function loadTables(folder: string): Promise<Tables> {
  const dir = resolve(folder);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new TableLoadError(`--table ${folder}: not a folder (give the folder acp-router codegen wrote, the one holding protocol.ts)`);
  const file = ["protocol.js", "protocol.ts"].map((f) => join(dir, f)).find((f) => existsSync(f));
  if (file === undefined) throw new TableLoadError(`--table ${folder}: no protocol.js or protocol.ts in it (is it the folder acp-router codegen wrote?)`);
  const module = await importTable(file, folder);
  const value = (module as { protocol?: unknown }).protocol;
  if (!isProtocol(value)) throw new TableLoadError(`--table ${folder}: ${file.endsWith(".ts") ? "protocol.ts" : "protocol.js"} exports no protocol value (regenerate it with this version of acp-router codegen)`);
  return withTable(value);
}

async function importTable(file: string, folder: string): Promise<unknown> {
  const url = pathToFileURL(file).href;
  try {
    return await import(url);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (!file.endsWith(".ts") || code !== "ERR_UNKNOWN_FILE_EXTENSION") throw new TableLoadError(`--table ${folder}: could not load ${file}: ${(error as Error).message}`);
  }
  let api: string;
  try {
    api = createRequire(file).resolve("tsx/esm/api");
  } catch {
    throw new TableLoadError(`--table ${folder}: the table is TypeScript and tsx is not installed beside it; compile the folder (tsc) and pass the output, or npm install -D tsx`);
  }
  try {
    const tsx = (await import(pathToFileURL(api).href)) as { tsImport(specifier: string, parent: string): Promise<unknown> };
    return await tsx.tsImport(url, import.meta.url);
  } catch (error) {
    throw new TableLoadError(`--table ${folder}: could not load ${file}: ${(error as Error).message}`);
  }
}

function isProtocol(value: unknown): value is Protocol {
  const p = value as Partial<Protocol> | null;
  return typeof p === "object" && p !== null && typeof p.version === "number" && typeof p.name === "string" && typeof p.inboundRow === "function";
}

/**
 * The wider table to switch to when `table` has no row for a message that
 * `handler` receives but its wider table has (an unstable method on a v1 or
 * v2 connection), else undefined.
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
