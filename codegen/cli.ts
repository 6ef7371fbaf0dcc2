/**
 * `acp-router codegen --table FILE --out DIR [--check]` — the generator as
 * users run it from an installed package (see bin/acp-router.ts).
 *
 * The output imports the runtime from the public entry `acp-router/runtime`
 * and its sibling files with `.js` extensions, so it compiles with plain `tsc`
 * (NodeNext) and runs under Node, tsx and bundlers. `--runtime SPECIFIER`
 * names another runtime module (for a re-export of your own).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { TableError } from "./check.ts";
import { CODEGEN_HELP } from "./help.ts";
import { runCodegen, type TableModule } from "./run.ts";

const USAGE = "usage: acp-router codegen --table FILE --out DIR [--check] [--runtime SPECIFIER] [--base DIR]";

interface Args {
  check: boolean;
  table: string | undefined;
  out: string | undefined;
  runtime: string;
  base: string | undefined;
}

function parseArgs(argv: readonly string[]): Args | string {
  const args: Args = { check: false, table: undefined, out: undefined, runtime: "acp-router/runtime", base: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = argv[i + 1];
    if (a === "--check") args.check = true;
    else if (a === "--table" && next !== undefined) ((args.table = next), i++);
    else if (a === "--out" && next !== undefined) ((args.out = next), i++);
    else if (a === "--runtime" && next !== undefined) ((args.runtime = next), i++);
    else if (a === "--base" && next !== undefined) ((args.base = next), i++);
    else return `unknown or incomplete argument "${a}"`;
  }
  if (args.table === undefined || args.out === undefined) return "--table and --out are required";
  return args;
}

/** Runs the `codegen` subcommand; resolves to the exit code. Messages go to stderr. */
export async function codegenMain(argv: readonly string[]): Promise<number> {
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stderr.write(CODEGEN_HELP);
    return 0;
  }
  const args = parseArgs(argv);
  if (typeof args === "string") {
    log(`acp-router codegen: ${args}\n${USAGE}\n(acp-router codegen --help for what each option does)`);
    return 2;
  }
  const tablePath = resolve(args.table as string);
  if (!existsSync(tablePath)) {
    log(`acp-router codegen: no table file ${args.table}`);
    return 2;
  }
  try {
    const table = await importTable(tablePath);
    if ((table.base === undefined) !== (args.base === undefined)) {
      log(`acp-router codegen: ${args.base === undefined ? `${args.table} extends another table (it exports "base"): name that table's generated folder with --base DIR` : `--base names the folder of the table ${args.table} extends, but it exports no "base"`}`);
      return 2;
    }
    const tableName = relative(process.cwd(), tablePath) || basename(tablePath);
    const outName = args.out as string;
    return await runCodegen({
      table,
      tableName,
      out: resolve(outName),
      outName,
      check: args.check,
      regenerate: `acp-router codegen --table ${tableName} --out ${outName}`,
      runtimeModule: args.runtime,
      importExtension: ".js",
      header: { table: tableName, command: "acp-router codegen" },
      log,
      ...(args.base === undefined ? {} : { baseFolder: importPath(resolve(outName), resolve(args.base)) }),
    });
  } catch (error) {
    log(error instanceof TableError ? `acp-router codegen: ${error.message}` : `acp-router codegen: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 2;
  }
}

/**
 * Imports a table module. JavaScript tables are imported as they are. A
 * TypeScript table is loaded with `tsx` when the user's project has it (then
 * the table may import other TypeScript files); otherwise it is transpiled
 * (types erased, by the TypeScript compiler that ts-morph bundles) into a
 * temporary `.mjs` file beside it, so its imports (`acp-router/table`, `./x.js`)
 * resolve exactly as the original's would, and that file is removed again.
 */
async function importTable(path: string): Promise<TableModule> {
  const url = pathToFileURL(path).href;
  if (!/\.(c|m)?tsx?$/.test(path)) return (await import(url)) as TableModule;
  const tsx = esmEntry(path, "tsx", "./esm/api");
  if (tsx !== undefined) {
    const api = (await import(tsx)) as { tsImport: (specifier: string, parent: string) => Promise<unknown> };
    return (await api.tsImport(url, import.meta.url)) as TableModule;
  }
  const { ts } = await import("ts-morph");
  const output = ts.transpileModule(readFileSync(path, "utf8"), {
    fileName: path,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, rewriteRelativeImportExtensions: true },
  }).outputText;
  const file = join(dirname(path), `.${basename(path)}.acp-codegen-${process.pid}.mjs`);
  try {
    writeFileSync(file, output);
    return (await import(pathToFileURL(file).href)) as TableModule;
  } finally {
    rmSync(file, { force: true });
  }
}

/**
 * The URL of `pkg`'s ESM entry `subpath` as seen from the file at `path`, or
 * undefined when the package is not installed there. Reads the package's
 * `exports` map, since `require.resolve` would pick its CommonJS entry.
 */
function esmEntry(path: string, pkg: string, subpath: string): string | undefined {
  try {
    const manifestPath = createRequire(path).resolve(`${pkg}/package.json`);
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { exports?: Record<string, { import?: string | { default?: string } }> };
    const entry = manifest.exports?.[subpath]?.import;
    const file = typeof entry === "string" ? entry : entry?.default;
    return file === undefined ? undefined : pathToFileURL(join(dirname(manifestPath), file)).href;
  } catch {
    return undefined;
  }
}

/** The import specifier of folder `to` from folder `from` (POSIX separators, `./` in front when it does not climb). */
function importPath(from: string, to: string): string {
  const path = relative(from, to).split(sep).join("/");
  return path.startsWith(".") ? path : `./${path}`;
}
