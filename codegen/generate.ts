/**
 * The whole generator as one pure function: table + schema in, file
 * contents out. `main.ts` does the I/O; tests call this with tiny tables.
 */
import type { MethodRow } from "../method-table.ts";
import { checkTable } from "./check.ts";
import { emitErrors } from "./emit-errors.ts";
import { emitLeniency } from "./emit-leniency.ts";
import { emitHandlers, emitPeers } from "./emit-handlers.ts";
import { emitIndex, emitProtocol } from "./emit-protocol.ts";
import { emitExtension } from "./emit-extension.ts";
import type { ExtensionBase } from "./extension-delta.ts";
import { DEFAULT_PROTOCOL_INFO, type ProtocolInfo } from "./protocol-info.ts";
import { emitHalf, emitRouter, emitRoutes } from "./emit-router.ts";
import { emitTypes } from "./emit-types.ts";
import { emitValidators } from "./emit-validators.ts";
import type { AcpSchema } from "./schema.ts";
import { HEADER, headerFor } from "./names.ts";
import { RUNTIME, type Printer } from "./symbols.ts";

export interface GenerateOptions {
  /**
   * Module specifier generated files import the runtime from. Default
   * `"acp-router/runtime"`, the public entry made for generated code; the
   * repository's own `src/generated/` uses `"../runtime.ts"`.
   */
  readonly runtimeModule?: string;
  /**
   * Extension of the imports between generated files. Default `".js"`, which
   * plain `tsc` (NodeNext), `tsx`, esbuild and Node all resolve; the repository
   * itself uses `".ts"` (`allowImportingTsExtensions`).
   */
  readonly importExtension?: ".js" | ".ts";
  /** The table file and the command named in each file's header. Default `method-table.ts` and `npm run codegen`. */
  readonly header?: { readonly table: string; readonly command: string };
  /** The table's protocol version and short name. Default version 1, `"v1"` (run.ts reads them off the schema file). */
  readonly protocol?: ProtocolInfo;
  /**
   * The table this one extends (its rows, and its generated folder as an
   * import specifier from this one's): only the rows this table adds or
   * changes are printed, and the rest is imported from that folder
   * (`emit-extension.ts`). The base's schema (`base.schema`, default this
   * table's) must be a subset of this table's: types it defines alike are
   * the base folder's, the others are printed here.
   */
  readonly base?: ExtensionBase;
}

/** Checks the table, then returns every generated file by name. */
export async function generate(rows: readonly MethodRow[], schema: AcpSchema, options: GenerateOptions = {}): Promise<Map<string, string>> {
  checkTable(rows, schema);
  const p: Printer = {
    header: options.header === undefined ? HEADER : headerFor(options.header.table, options.header.command),
    runtime: options.runtimeModule ?? RUNTIME,
    ext: options.importExtension ?? ".js",
  };
  const info = options.protocol ?? DEFAULT_PROTOCOL_INFO;
  if (options.base !== undefined) {
    checkTable(options.base.rows, options.base.schema ?? schema);
    const files = await emitExtension(rows, schema, options.base, info, p);
    files.set("index.ts", emitIndex(p));
    return files;
  }
  return new Map<string, string>([
    ["types.ts", await emitTypes(rows, schema, p)],
    ["validators.ts", emitValidators(rows, schema, p)],
    ["leniency.ts", emitLeniency(rows, schema, p)],
    ["errors.ts", emitErrors(schema, p)],
    ["routes.ts", emitRoutes(rows, p)],
    ["agent.ts", emitHalf(rows, "agent", info, p)],
    ["client.ts", emitHalf(rows, "client", info, p)],
    ["router.ts", emitRouter(rows, p)],
    ["handlers.ts", emitHandlers(rows, p)],
    ["peers.ts", emitPeers(rows, p)],
    ["protocol.ts", emitProtocol(rows, schema, info, p)],
    ["index.ts", emitIndex(p)],
  ]);
}
