/**
 * `npm run build`'s last step: shrinks what tsc emitted for the repository's
 * generated folders (`codegen/tables.json`) and the conformance catalogues.
 *
 * tsc re-indents the validators' nested checks four spaces a level: that
 * whitespace was a sixth of the package. Their source (`validators.ts`, in
 * the repository) is the readable form. A generated `.js` file without a
 * `@__PURE__` annotation is rewritten by esbuild's whitespace and syntax
 * minification (names are kept; the syntax rewrites are esbuild's
 * equivalences, such as `if (a) b;` to `a && b;`). A file with one (the
 * protocol values, the halves, the leniency graphs) is left as tsc wrote it,
 * since minifying would drop the annotation bundlers tree-shake by. The
 * catalogues (`dist/docs/*.json`) lose their indentation. Reports the bytes
 * on stderr.
 */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { transform } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");
const { tables } = JSON.parse(readFileSync(join(root, "codegen", "tables.json"), "utf8")) as { tables: { out: string }[] };

let before = 0;
let after = 0;
const rewrite = (file: string, text: string, compact: string) => {
  writeFileSync(file, compact);
  before += text.length;
  after += compact.length;
};
for (const { out } of tables) {
  const folder = join(dist, out);
  for (const name of readdirSync(folder).filter((f) => f.endsWith(".js"))) {
    const file = join(folder, name);
    const code = readFileSync(file, "utf8");
    if (code.includes("@__PURE__")) continue;
    rewrite(file, code, (await transform(code, { loader: "js", minifyWhitespace: true, minifySyntax: true, legalComments: "none" })).code);
  }
}
for (const name of readdirSync(join(dist, "docs")).filter((f) => f.endsWith(".json"))) {
  const file = join(dist, "docs", name);
  const text = readFileSync(file, "utf8");
  rewrite(file, text, JSON.stringify(JSON.parse(text)));
}
process.stderr.write(`compact-generated: generated JavaScript and catalogues in dist/, ${before} → ${after} bytes\n`);
