// acp-router's public entries (its package.json `exports`) and the source file of each, so the
// compatibility sources, which import acp-router by its public names only, run from this checkout
// without a build: the resolve hook (child processes), the vitest configs (in-process imports) and
// tsconfig.json's `paths` (checked against this by test/compat/public-imports.test.ts) use it.
import { readFileSync } from "node:fs";

const root = new URL("../../../", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));

/** The source file (relative to the repository root) a built entry file (`./dist/src/index.js`) was compiled from. */
function sourceOf(built) {
  return built.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts");
}

/** `acp-router[/subpath]` → the entry's source file, relative to the repository root. */
export const acpRouterEntries = Object.fromEntries(
  Object.entries(manifest.exports)
    .filter(([, target]) => typeof target === "object" && target !== null && typeof target.default === "string" && target.default.endsWith(".js"))
    .map(([subpath, target]) => [subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`, sourceOf(target.default)]),
);

/** The source URL of `specifier` when it names one of acp-router's entries, else undefined. */
export function acpRouterUrl(specifier) {
  const file = acpRouterEntries[specifier];
  return file === undefined ? undefined : new URL(file, root).href;
}
