/**
 * The whole generator as one pure function: table + schema in, file
 * contents out. `main.ts` does the I/O; tests call this with tiny tables.
 */
import type { MethodRow } from "../method-table.ts";
import { checkTable } from "./check.ts";
import { emitLeniency } from "./emit-leniency.ts";
import { emitConnect, emitHandlers, emitIndex, emitPeers, emitRouter } from "./emit-router.ts";
import { emitTypes } from "./emit-types.ts";
import { emitValidators } from "./emit-validators.ts";
import type { AcpSchema } from "./schema.ts";

export interface GenerateOptions {
  /** Import prefix of the hand-written runtime (`src/`) as seen from the output folder. Default `"../"`. */
  readonly runtimeImport?: string;
}

/** Checks the table, then returns every generated file by name. */
export async function generate(rows: readonly MethodRow[], schema: AcpSchema, options: GenerateOptions = {}): Promise<Map<string, string>> {
  checkTable(rows, schema);
  const files = new Map<string, string>([
    ["types.ts", await emitTypes(rows, schema)],
    ["validators.ts", emitValidators(rows, schema)],
    ["leniency.ts", emitLeniency(rows, schema)],
    ["router.ts", emitRouter(rows)],
    ["handlers.ts", emitHandlers(rows)],
    ["peers.ts", emitPeers(rows)],
    ["connect.ts", emitConnect()],
    ["index.ts", emitIndex()],
  ]);
  const prefix = options.runtimeImport ?? "../";
  if (prefix !== "../") for (const [name, text] of files) files.set(name, text.replaceAll('from "../', `from "${prefix}`));
  return files;
}
