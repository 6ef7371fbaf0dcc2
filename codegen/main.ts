/**
 * `npm run codegen [-- --check] [--table FILE] [--out DIR]` — the repository's
 * own codegen script.
 *
 * Without arguments it regenerates `src/generated/` from `method-table.ts`,
 * importing the runtime as `../runtime.ts`. `--check` regenerates in memory
 * and exits 1, naming the files, when anything on disk differs. `--table` /
 * `--out` generate another table into another folder inside the repository
 * (tests use it); such folders import the runtime by relative path to `src/`.
 * Users run the package's bin instead: `acp-router codegen` (see cli.ts).
 */
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { TableError } from "./check.ts";
import { runCodegen, type TableModule } from "./run.ts";

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
  const table = (await import(pathToFileURL(args.table).href)) as TableModule;
  const runtime = relative(args.out, join(repoRoot, "src", "runtime.ts")).split(sep).join("/");
  return runCodegen({
    table,
    tableName: relative(repoRoot, args.table),
    out: args.out,
    outName: relative(repoRoot, args.out) || ".",
    check: args.check,
    regenerate: "npm run codegen",
    runtimeModule: runtime.startsWith(".") ? runtime : `./${runtime}`,
    importExtension: ".ts",
    log: (line) => process.stderr.write(`${line}\n`),
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(error instanceof TableError ? `codegen: ${error.message}\n` : `codegen: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
