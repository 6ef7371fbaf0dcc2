/**
 * Figure 7 — size of the generated validators, and of the whole package
 * bundled, against the SDK's zod schema module (`dist/v1/schema/zod.gen.js`)
 * and its bundled entry (zod included). Source, esbuild-minified, and
 * minified + gzip bytes. Deterministic: one "round".
 *
 *   node --import tsx bench/size.ts
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { transformSync } from "esbuild";
import { bundle, ROOT } from "./lib/build.ts";
import { emit, Recorder } from "./lib/harness.ts";

const require = createRequire(`${ROOT}package.json`);
// The package exports neither its package.json nor the zod module: find it next to the main entry (dist/v1/stable/acp.js).
const ZOD_SCHEMA = join(dirname(require.resolve("@agentclientprotocol/sdk")), "../schema/zod.gen.js");

const rec = new Recorder();
const gzip = (text: string | Uint8Array) => gzipSync(text, { level: 9 }).length;

function module(peer: string, file: string, loader: "ts" | "js"): void {
  const source = readFileSync(file, "utf8");
  const minified = transformSync(source, { loader, minify: true, format: "esm", target: "node20" }).code;
  rec.add("validators: source", peer, Buffer.byteLength(source));
  rec.add("validators: minified", peer, Buffer.byteLength(minified));
  rec.add("validators: minified + gzip", peer, gzip(minified));
}

module("ours", `${ROOT}src/generated/validators.ts`, "ts");
module("sdk", ZOD_SCHEMA, "js");
rec.verify("sdk zod schema module found", readFileSync(ZOD_SCHEMA, "utf8").includes("z.object"));

for (const peer of ["ours", "sdk"] as const) {
  const b = await bundle(`${peer}-min`, peer, true);
  rec.add("whole package bundle: minified", peer, b.bytes);
  rec.add("whole package bundle: minified + gzip", peer, gzip(readFileSync(b.file)));
}
rec.notes.push("validators: ours = src/generated/validators.ts (ajv standalone code); sdk = @agentclientprotocol/sdk dist/v1/schema/zod.gen.js (zod schemas; the zod runtime is extra)");
rec.notes.push("whole package: esbuild bundle of the public entry (ours: src/index.ts; sdk: its main entry with zod), minified");
emit(rec.result({ figure: "size", title: "Code size (bytes)", unit: "bytes", better: "lower", rounds: 1 }));
