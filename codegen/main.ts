/**
 * `npm run codegen [-- --check] [--table FILE] [--out DIR]`
 *
 * Reads the method table and the pinned schema, checks the table, and writes
 * `src/generated/`. `--check` regenerates in memory and exits 1, naming the
 * files, when anything on disk differs. `--table`/`--out` generate from
 * another table into another folder (for tables with extension rows).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { MethodRow, SchemaSource } from "../method-table.ts";
import { TableError } from "./check.ts";
import { generate } from "./generate.ts";
import { loadSchema } from "./schema.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

interface Args {
  check: boolean;
  table: string;
  out: string;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { check: false, table: join(repoRoot, "method-table.ts"), out: join(repoRoot, "src", "generated") };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--check") args.check = true;
    else if (a === "--table" && argv[i + 1]) args.table = resolve(argv[++i] as string);
    else if (a === "--out" && argv[i + 1]) args.out = resolve(argv[++i] as string);
    else throw new Error(`codegen: unknown argument "${a}" (usage: codegen [--check] [--table FILE] [--out DIR])`);
  }
  return args;
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const table = (await import(pathToFileURL(args.table).href)) as { methods?: readonly MethodRow[]; schemaSource?: SchemaSource };
  if (!Array.isArray(table.methods) || !table.schemaSource) {
    process.stderr.write(`codegen: ${args.table} must export "methods" and "schemaSource"\n`);
    return 2;
  }
  const { schema, sha256 } = loadSchema(repoRoot, table.schemaSource);
  if (sha256 !== table.schemaSource.sha256) {
    process.stderr.write(
      `codegen: the schema ${table.schemaSource.package}/${table.schemaSource.file} has SHA-256 ${sha256}, but the table pins ${table.schemaSource.sha256}.\n` +
        `Bumping the schema is deliberate: review the change, then update schemaSource in the table.\n`,
    );
    return 2;
  }
  let runtime = relative(args.out, join(repoRoot, "src")).split(sep).join("/");
  runtime = runtime === "" ? "./" : `${runtime.startsWith(".") ? "" : "./"}${runtime}/`;
  const files = await generate(table.methods, schema, { runtimeImport: runtime });

  if (args.check) {
    const stale: string[] = [];
    for (const [name, text] of files) {
      const path = join(args.out, name);
      if (!existsSync(path) || readFileSync(path, "utf8") !== text) stale.push(name);
    }
    const extra = existsSync(args.out) ? readdirSync(args.out).filter((f) => !files.has(f)) : [];
    for (const f of extra) stale.push(`${f} (not generated)`);
    if (stale.length > 0) {
      process.stderr.write(`codegen --check: ${relative(repoRoot, args.out) || "."} is stale; run \`npm run codegen\`. Differing files:\n${stale.map((s) => `  ${s}\n`).join("")}`);
      return 1;
    }
    process.stderr.write(`codegen --check: ${files.size} files up to date\n`);
    return 0;
  }
  rmSync(args.out, { recursive: true, force: true });
  mkdirSync(args.out, { recursive: true });
  for (const [name, text] of files) writeFileSync(join(args.out, name), text);
  process.stderr.write(`codegen: wrote ${files.size} files to ${relative(repoRoot, args.out) || "."}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(error instanceof TableError ? `codegen: ${error.message}\n` : `codegen: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
