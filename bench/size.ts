/**
 * Figure 7 — size of the generated validators, and of the whole package
 * bundled, against the SDK's zod schema module (`dist/v1/schema/zod.gen.js`)
 * and its bundled entry (zod included); and of a minimal v1 agent
 * (`serveStdio` from the `acp-router` entry with three handlers) bundled by
 * esbuild against the same agent on the SDK (issues 24 and 28), plus a v2
 * agent on `acp-router/v2`'s `agentProtocol` + `acp-router/stdio`. Source,
 * esbuild-minified, and minified + gzip bytes. Deterministic: one "round".
 *
 *   node --import tsx bench/size.ts
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { build, transformSync } from "esbuild";
import { emitValidators, validatedTypes } from "../codegen/emit-validators.ts";
import { loadSchema } from "../codegen/schema.ts";
import { methods, schemaSource, type MethodRow } from "../method-table.ts";
import { BUILD_DIR, bundle, ROOT } from "./lib/build.ts";
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
/** The minimal agents: initialize, session/new and session/prompt, on stdin/stdout. */
const AGENTS = {
  ours: `import { serveStdio } from "./src/index.ts";
serveStdio({ initialize: () => ({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] }), newSession: () => ({ sessionId: "s" }), prompt: () => ({ stopReason: "end_turn" }) });`,
  sdk: `import * as acp from "@agentclientprotocol/sdk"; import { Readable, Writable } from "node:stream";
const stream = acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin));
acp.agent({ name: "a" }).onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {}, authMethods: [] })).onRequest(acp.methods.agent.session.new, () => ({ sessionId: "s" })).onRequest(acp.methods.agent.session.prompt, () => ({ stopReason: "end_turn" })).connect(stream);`,
  v2: `import { serveStdio } from "./src/v2/index.ts";
serveStdio({ initialize: () => ({ protocolVersion: 2, info: { name: "a", version: "1" } }) });`,
  v2whole: `import { protocol } from "./src/v2/index.ts"; import { serveProtocolStdio } from "./src/transport/stdio.ts";
serveProtocolStdio(protocol, { initialize: () => ({ protocolVersion: 2, info: { name: "a", version: "1" } }) });`,
} as const;

/** esbuild bundle of an agent's source (minify, ESM, platform node): its text. */
async function agentBundle(contents: string): Promise<Uint8Array> {
  const result = await build({ stdin: { contents, resolveDir: ROOT, loader: "ts" }, bundle: true, format: "esm", platform: "node", target: "node20", minify: true, write: false, logLevel: "silent" });
  return (result.outputFiles[0] as { contents: Uint8Array }).contents;
}

for (const peer of ["ours", "sdk"] as const) {
  const b = await agentBundle(AGENTS[peer]);
  rec.add("minimal v1 agent bundle: minified", peer, b.length);
  rec.add("minimal v1 agent bundle: minified + gzip", peer, gzip(b));
}
const v2 = await agentBundle(AGENTS.v2);
rec.add("v2 agent (acp-router/v2 + acp-router/stdio) bundle: minified", "ours", v2.length);
rec.add("v2 agent (acp-router/v2 + acp-router/stdio) bundle: minified + gzip", "ours", gzip(v2));
const v2whole = await agentBundle(AGENTS.v2whole);
rec.add("v2 agent on the whole v2 protocol bundle: minified", "ours", v2whole.length);
rec.add("v2 agent on the whole v2 protocol bundle: minified + gzip", "ours", gzip(v2whole));
// Where the floor is: an agent calls only the params validators of the rows it handles and the
// result validators of the requests it sends; the agent's half of a table references only those
// (src/protocol.ts). Emitted alone and bundled alone, they are what the half's validators weigh.
const noResult = (r: MethodRow): MethodRow => Object.fromEntries(Object.entries(r).filter(([k]) => k !== "result")) as unknown as MethodRow;
const agentRows = methods.flatMap((r) => [...(r.side !== "client" && typeof r.params === "string" ? [noResult(r)] : []), ...(r.side !== "agent" && typeof r.result === "string" ? [noResult({ ...r, params: r.result })] : [])]);
mkdirSync(BUILD_DIR, { recursive: true });
const agentValidators = `${BUILD_DIR}agent-side-validators.ts`;
writeFileSync(agentValidators, emitValidators(agentRows, loadSchema(schemaSource).schema, { header: "", runtime: `${ROOT}src/runtime.ts`, ext: ".ts" }));
const sided = await agentBundle(`export * from ${JSON.stringify(agentValidators)};`);
rec.add("v1 validators an agent calls, bundled alone: minified", "ours", sided.length);
rec.add("v1 validators an agent calls, bundled alone: minified + gzip", "ours", gzip(sided));
rec.notes.push(
  `v1 validators an agent calls: params of the rows an agent handles and results of the requests it sends (${validatedTypes(agentRows).length} of the table's ${validatedTypes(methods).length}), emitted by the same codegen and bundled alone with their runtime helpers; the agent's half of the table (agentProtocol, which serveStdio(handler) uses) references only these, the whole table's protocol all ${validatedTypes(methods).length}`,
);
rec.notes.push(
  "minimal v1 agent: serveStdio from the acp-router entry with initialize, newSession and prompt (on the v1 table's agent half); sdk: the SDK's agent() app with the same three handlers over ndJsonStream on stdin/stdout; esbuild bundle, minify, ESM, platform node (issue 24: ours ≤ 150 KB minified, ≤ 40 KB gzip; issue 28: ours ≤ 110 KB minified)",
);
rec.notes.push("v2 agent: serveStdio(agentProtocol, handler) from acp-router/stdio and acp-router/v2 (the v2 table's agent half); on the whole v2 protocol: serveStdio(protocol, handler), which bundles both sides' validators");
rec.notes.push("validators: ours = src/generated/validators.ts (ajv standalone code); sdk = @agentclientprotocol/sdk dist/v1/schema/zod.gen.js (zod schemas; the zod runtime is extra)");
rec.notes.push("whole package: esbuild bundle of the public entry (ours: src/index.ts; sdk: its main entry with zod), minified");
emit(rec.result({ figure: "size", title: "Code size (bytes)", unit: "bytes", better: "lower", rounds: 1 }));
