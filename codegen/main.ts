/**
 * `npm run codegen [-- --check] [--table FILE] [--out DIR]` — the repository's
 * own codegen script.
 *
 * Without `--table`/`--out` it regenerates every table of the repository
 * ({@link TABLES}, from `codegen/tables.json`: v1 stable into `src/generated/`,
 * v1 unstable, v2 and the proxy table into their own folders), importing the runtime by relative path (`../runtime.ts`).
 * `--check` regenerates in memory and exits 1, naming the files, when anything
 * on disk differs (all tables unless `--table`/`--out` name one). `--table` /
 * `--out` generate one table into another folder inside the repository
 * (tests use it); such folders import the runtime by relative path to `src/`.
 * Users run the package's bin instead: `acp-router codegen` (see cli.ts).
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { TableError } from "./check.ts";
import { runCodegen, type TableModule } from "./run.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The repository's tables and their output folders, regenerated together
 * (`codegen/tables.json`, the one declaration of which folders are
 * generated). Each version's folder sits beside its hand-written entry, so
 * one entry never loads another table (DESIGN §10).
 */
const TABLES: readonly { readonly table: string; readonly out: string }[] = (JSON.parse(readFileSync(join(repoRoot, "codegen", "tables.json"), "utf8")) as { tables: { table: string; out: string }[] }).tables;

interface Args {
  check: boolean;
  table: string | undefined;
  out: string | undefined;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { check: false, table: undefined, out: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--check") args.check = true;
    else if (a === "--table" && argv[i + 1]) args.table = resolve(argv[++i] as string);
    else if (a === "--out" && argv[i + 1]) args.out = resolve(argv[++i] as string);
    else throw new Error(`codegen: unknown argument "${a}" (usage: codegen [--check] [--table FILE] [--out DIR])`);
  }
  return args;
}

/** The generated folder of the repository table `base` (a module of {@link TABLES}), as an import specifier from `out`. */
async function baseFolderOf(base: TableModule | undefined, out: string): Promise<string | undefined> {
  if (base === undefined) return undefined;
  for (const t of TABLES) {
    const module = (await import(pathToFileURL(join(repoRoot, t.table)).href)) as TableModule;
    if (module.methods === base.methods) {
      const path = relative(out, join(repoRoot, t.out)).split(sep).join("/");
      return path.startsWith(".") ? path : `./${path}`;
    }
  }
  return undefined;
}

async function runOne(tablePath: string, out: string, check: boolean): Promise<number> {
  const table = (await import(pathToFileURL(tablePath).href)) as TableModule;
  const baseFolder = await baseFolderOf(table.base, out);
  const runtime = relative(out, join(repoRoot, "src", "runtime.ts"))
    .split(sep)
    .join("/");
  const tableName = relative(repoRoot, tablePath).split(sep).join("/");
  return runCodegen({
    table,
    tableName,
    out,
    outName: relative(repoRoot, out).split(sep).join("/") || ".",
    check,
    regenerate: "npm run codegen",
    runtimeModule: runtime.startsWith(".") ? runtime : `./${runtime}`,
    importExtension: ".ts",
    ...(tableName === "method-table.ts" ? {} : { header: { table: tableName, command: "npm run codegen" } }),
    log: (line) => process.stderr.write(`${line}\n`),
    ...(baseFolder === undefined ? {} : { baseFolder }),
  });
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (args.table !== undefined || args.out !== undefined) {
    return runOne(args.table ?? join(repoRoot, "method-table.ts"), args.out ?? join(repoRoot, "src", "generated"), args.check);
  }
  let worst = 0;
  for (const t of TABLES) worst = Math.max(worst, await runOne(join(repoRoot, t.table), join(repoRoot, t.out), args.check));
  return worst;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(error instanceof TableError ? `codegen: ${error.message}\n` : `codegen: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
