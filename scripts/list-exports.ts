/**
 * `npx tsx scripts/list-exports.ts [DIR]`: every name each public entry of the
 * package in DIR (default: this checkout) exports, one `entry name` line each,
 * sorted — types and values alike, read from the TypeScript sources that the
 * entries' `types` point at (`dist/…d.ts` mapped back to its `.ts` source).
 * Two checkouts' lists, diffed, are the renamed and removed exports a
 * release's CHANGELOG must name (`diff <(… old) <(… new)`).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Project } from "ts-morph";

const dir = resolve(process.argv[2] ?? ".");
const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { exports: Record<string, string | { types?: string }> };

/** The source file behind an entry's `types` (`./dist/src/index.d.ts` → `src/index.ts`). */
function sourceOf(types: string): string | undefined {
  const source = join(dir, types.replace(/^\.\/dist\//, "").replace(/\.d\.ts$/, ".ts"));
  return existsSync(source) ? source : undefined;
}

const project = new Project({ tsConfigFilePath: join(dir, "tsconfig.json"), skipAddingFilesFromTsConfig: true });
const lines: string[] = [];
for (const [entry, target] of Object.entries(pkg.exports)) {
  if (typeof target === "string" || target.types === undefined) continue;
  const source = sourceOf(target.types);
  if (source === undefined) {
    lines.push(`${entry} <no source for ${target.types}>`);
    continue;
  }
  const file = project.addSourceFileAtPath(source);
  for (const name of file.getExportedDeclarations().keys()) lines.push(`${entry} ${name}`);
}
process.stdout.write(`${lines.sort().join("\n")}\n`);
