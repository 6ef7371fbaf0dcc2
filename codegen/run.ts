/**
 * One codegen run: load a table module, check its schema pin, generate, then
 * write the folder or (`check`) compare it with what is on disk. Shared by the
 * repository's `npm run codegen` and the package's `acp-router codegen`.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { MethodRow, SchemaSource } from "../method-table.ts";
import { protocolInfoOf } from "./protocol-info.ts";
import { generate, type GenerateOptions } from "./generate.ts";
import { loadSchema, type AcpSchema } from "./schema.ts";
import type { ExtensionBase } from "./extension-delta.ts";

/** A loaded table module: what `--table FILE` must export. */
export interface TableModule {
  readonly methods?: readonly MethodRow[];
  readonly schemaSource?: SchemaSource;
  /** The table this one extends (another table module, whose schema is this one's or a subset of it); its folder is `RunOptions.baseFolder`. */
  readonly base?: TableModule;
  /** The protocol's short name, when the schema file's does not fit (`"v1-proxy"`). */
  readonly name?: string;
}

/** What to generate from where, and how to report it. */
export interface RunOptions extends GenerateOptions {
  readonly table: TableModule;
  /** The table file as the user named it, for messages. */
  readonly tableName: string;
  readonly out: string;
  /** The output folder as the user should see it, for messages. */
  readonly outName: string;
  readonly check: boolean;
  /** The command that regenerates, named in the `--check` message. */
  readonly regenerate: string;
  /** Where messages go (stderr; stdout is left alone). */
  readonly log: (line: string) => void;
  /** For a table with a `base`: the base table's generated folder, as an import specifier from `out` (`../../unstable/generated`). */
  readonly baseFolder?: string;
}

/** Runs codegen once; returns the exit code (0 done or up to date, 1 stale, 2 bad table or schema). */
export async function runCodegen(o: RunOptions): Promise<number> {
  const { methods, schemaSource } = o.table;
  if (!Array.isArray(methods) || !schemaSource) {
    o.log(`codegen: ${o.tableName} must export "methods" (the rows) and "schemaSource" (the schema pin)`);
    return 2;
  }
  const { schema, sha256 } = loadSchema(schemaSource);
  if (sha256 !== schemaSource.sha256) {
    o.log(`codegen: the schema ${schemaSource.package}/${schemaSource.file} has SHA-256 ${sha256}, but the table pins ${schemaSource.sha256}.\n` + `Bumping the schema is deliberate: review the change, then update schemaSource in the table.`);
    return 2;
  }
  const { base } = o.table;
  let extension: { base?: ExtensionBase } = {};
  if (base !== undefined) {
    if (!Array.isArray(base.methods) || base.schemaSource === undefined || o.baseFolder === undefined) {
      o.log(`codegen: ${o.tableName} extends another table ("base"), which must export "methods" and "schemaSource", and whose generated folder must be named${o.baseFolder === undefined ? " (none was)" : ""}`);
      return 2;
    }
    // A base over another schema file: its pin must hold too; emit-extension checks that it is a subset of this one.
    let baseSchema: AcpSchema | undefined;
    if (base.schemaSource.sha256 !== schemaSource.sha256) {
      const theirs = loadSchema(base.schemaSource);
      if (theirs.sha256 !== base.schemaSource.sha256) {
        o.log(`codegen: the base table's schema ${base.schemaSource.package}/${base.schemaSource.file} has SHA-256 ${theirs.sha256}, but that table pins ${base.schemaSource.sha256}`);
        return 2;
      }
      baseSchema = theirs.schema;
    }
    // The base folder's validators as written (regenerated first: bases come first in codegen/tables.json), whose compiled functions this folder imports.
    const validators = resolve(o.out, o.baseFolder, "validators.ts");
    extension = { base: { rows: base.methods, folder: o.baseFolder, ...(baseSchema === undefined ? {} : { schema: baseSchema }), ...(existsSync(validators) ? { validators: readFileSync(validators, "utf8") } : {}) } };
  }
  const files = await generate(methods, schema, { protocol: protocolInfoOf(schemaSource.file, o.table.name), ...o, ...extension });
  if (o.check) {
    const stale: string[] = [];
    for (const [name, text] of files) {
      const path = join(o.out, name);
      if (!existsSync(path) || readFileSync(path, "utf8") !== text) stale.push(name);
    }
    const extra = existsSync(o.out) ? readdirSync(o.out).filter((f) => !files.has(f)) : [];
    for (const f of extra) stale.push(`${f} (not generated)`);
    if (stale.length > 0) {
      o.log(`codegen --check: ${o.outName} is stale; run \`${o.regenerate}\`. Differing files:\n${stale.map((s) => `  ${s}`).join("\n")}`);
      return 1;
    }
    o.log(`codegen --check: ${files.size} files up to date`);
    return 0;
  }
  rmSync(o.out, { recursive: true, force: true });
  mkdirSync(o.out, { recursive: true });
  for (const [name, text] of files) writeFileSync(join(o.out, name), text);
  o.log(`codegen: wrote ${files.size} files to ${o.outName}`);
  return 0;
}
