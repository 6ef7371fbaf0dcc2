/**
 * The names a module exports, types and values alike, read with the TypeScript checker: for the
 * exports test, which holds the drop-in's entries to SDK 2.4.0's, name by name.
 */
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { acpRouterEntries } from "../../compat/sdk/dev/acp-router-entries.mjs";

/** acp-router's public names → this checkout's sources, as tsconfig.json maps them (the drop-in's sources import acp-router by them). */
const paths = Object.fromEntries(Object.entries(acpRouterEntries as Record<string, string>).map(([name, file]) => [name, [fileURLToPath(new URL(`../../${file}`, import.meta.url))]]));

/** Each file's exported names (sorted), in one program so shared declarations are read once. */
export function exportedNames(files: readonly string[]): Map<string, string[]> {
  const program = ts.createProgram([...files], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, allowImportingTsExtensions: true, noEmit: true, skipLibCheck: true, strict: true, types: ["node"], paths });
  const checker = program.getTypeChecker();
  const names = new Map<string, string[]>();
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (source === undefined) throw new Error(`${file} is not in the program`);
    const module = checker.getSymbolAtLocation(source);
    names.set(
      file,
      module === undefined
        ? []
        : checker
            .getExportsOfModule(module)
            .map((s) => s.getName())
            .sort(),
    );
  }
  return names;
}
