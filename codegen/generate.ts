/**
 * The whole generator as one pure function: table + schema in, file
 * contents out. `main.ts` does the I/O; tests call this with tiny tables.
 */
import type { MethodRow } from "../method-table.ts";
import { checkTable } from "./check.ts";
import { emitErrors } from "./emit-errors.ts";
import { emitLeniency } from "./emit-leniency.ts";
import { emitConnect, emitHandlers, emitIndex, emitPeers, emitRouter } from "./emit-router.ts";
import { emitTypes } from "./emit-types.ts";
import { emitValidators } from "./emit-validators.ts";
import type { AcpSchema } from "./schema.ts";
import { HEADER, RUNTIME, headerFor } from "./names.ts";

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
}

/** Checks the table, then returns every generated file by name. */
export async function generate(rows: readonly MethodRow[], schema: AcpSchema, options: GenerateOptions = {}): Promise<Map<string, string>> {
  checkTable(rows, schema);
  const files = new Map<string, string>([
    ["types.ts", await emitTypes(rows, schema)],
    ["validators.ts", emitValidators(rows, schema)],
    ["leniency.ts", emitLeniency(rows, schema)],
    ["errors.ts", emitErrors(schema)],
    ["router.ts", emitRouter(rows)],
    ["handlers.ts", emitHandlers(rows)],
    ["peers.ts", emitPeers(rows)],
    ["connect.ts", emitConnect()],
    ["index.ts", emitIndex()],
  ]);
  const runtime = options.runtimeModule ?? RUNTIME;
  const ext = options.importExtension ?? ".js";
  const header = options.header === undefined ? HEADER : headerFor(options.header.table, options.header.command);
  for (const [name, text] of files) {
    let out = text.replaceAll(`from "${RUNTIME}"`, `from "${runtime}"`);
    if (ext !== ".ts") out = out.replace(/from "\.\/([\w-]+)\.ts"/g, `from "./$1${ext}"`);
    if (header !== HEADER) out = header + out.slice(HEADER.length);
    files.set(name, out);
  }
  return files;
}
