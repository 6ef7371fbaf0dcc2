/**
 * The redirect map of the SDK suite (redirects.json): which of SDK 1.9.0's modules a test file
 * reaches through a public entry, and the SDK 2.4.0 entry that module became. Here the map is
 * applied: `redirectPlugin(target)` is a vite plugin that sends a test file's (or a test-support
 * file's) relative import of a mapped module to `target`'s entry; everything else, the SDK's own
 * internal modules included, resolves as it always does.
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";

/** The mapped 1.9.0 modules (paths relative to its `dist/`) and the 2.4.0 entry subpath each became. */
export const redirects: Readonly<Record<string, string>> = JSON.parse(readFileSync(fileURLToPath(new URL("./redirects.json", import.meta.url)), "utf8")) as Record<string, string>;

/** The suite's package: SDK 1.9.0, the last release whose tarball ships its compiled tests. */
export const suitePackage = fileURLToPath(new URL("../../node_modules/acp-sdk-1.9.0/", import.meta.url));

/** The suite package's `dist/`, where the test files and their modules are. */
export const suiteDist = join(suitePackage, "dist");

/** Whether `file` is one of the suite's own files (a test file or a test-support module), whose imports are redirected. */
export function isSuiteFile(file: string): boolean {
  const path = relative(suiteDist, file);
  if (path.startsWith("..")) return false;
  return /\.test\.js$/.test(path) || path.startsWith(`test-support${sep}`);
}

/** The module of `dist/` (a redirects.json key) that `specifier`, imported from `importer`, names; undefined if it is not relative. */
export function suiteModule(specifier: string, importer: string): string | undefined {
  if (!specifier.startsWith("./") && !specifier.startsWith("../")) return undefined;
  return relative(suiteDist, resolve(dirname(importer), specifier))
    .split(sep)
    .join("/");
}

/** The file an entry subpath (`.`, `./unstable`, …) of the package in `packageDir` loads under the `import` condition. */
export function entryFile(packageDir: string, subpath: string): string {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { exports?: Record<string, unknown> };
  const target = manifest.exports?.[subpath];
  const file = typeof target === "string" ? target : ((target as Record<string, unknown> | undefined)?.["import"] ?? (target as Record<string, unknown> | undefined)?.["default"]);
  if (typeof file !== "string") throw new Error(`${packageDir} has no "${subpath}" entry in its exports`);
  return join(packageDir, file);
}

/** A vite plugin that redirects the suite files' imports of mapped modules to the entries of the package in `packageDir`. */
export function redirectPlugin(packageDir: string): Plugin {
  const files = new Map<string, string>();
  const fileOf = (subpath: string): string => {
    let file = files.get(subpath);
    if (file === undefined) files.set(subpath, (file = entryFile(packageDir, subpath)));
    return file;
  };
  return {
    name: "sdk-suite-redirect",
    enforce: "pre",
    resolveId(specifier, importer) {
      if (importer === undefined || !isSuiteFile(importer)) return null;
      const module = suiteModule(specifier, importer);
      const subpath = module === undefined ? undefined : redirects[module];
      return subpath === undefined ? null : fileOf(subpath);
    },
  };
}
