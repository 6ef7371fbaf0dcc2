/**
 * `npx tsx scripts/spec-quotes.ts GIT_DIR`: writes docs/conformance-quotes.json, the spec's own words for every
 * catalogue entry (v1, v1 unstable, v2, v2 unstable), so a fail on a scorecard can quote the sentence it breaks
 * with its source and date instead of the catalogue's paraphrase.
 *
 * - A `docs/protocol/…mdx:LINE` citation is read from GIT_DIR (a clone of agentclientprotocol/agent-client-protocol)
 *   at the pinned commit the catalogue was written from (tools/inspect/requirements.ts, DOCS_COMMIT): the
 *   sentence(s) the cited line is part of, within its paragraph or list item (pages wrap sentences over lines).
 * - A `schema.json#/…` pointer is resolved in the schema this project builds from (`@agentclientprotocol/sdk`'s
 *   `schema/v{1,2}/schema.json`, or `schema.unstable.json` for the unstable catalogues): the sentence of that
 *   description closest to the entry's statement, a normative one first.
 *
 * Dates: the commit's date for the docs, the SDK version's publication date for the schema
 * (`npm view @agentclientprotocol/sdk@VERSION time`, given as SCHEMA_DATE below). Markdown emphasis and link
 * targets are dropped; the words are the spec's.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { citationUrl } from "../tools/inspect/requirements.ts";

/** When `@agentclientprotocol/sdk` 2.4.0 (the schema's source) was published: `npm view @agentclientprotocol/sdk@2.4.0 time`. */
const SCHEMA_DATE = "2026-11-02";

const repo = fileURLToPath(new URL("../", import.meta.url));
/** The spec commit the catalogue cites, as its citation links name it. */
const DOCS_COMMIT = /\/blob\/([0-9a-f]{40})\//.exec(citationUrl("docs/protocol/v1/overview.mdx:1") ?? "")?.[1] ?? "";
const require = createRequire(import.meta.url);
const gitDir = process.argv[2];
if (gitDir === undefined) {
  process.stderr.write("usage: npx tsx scripts/spec-quotes.ts GIT_DIR (a clone of agentclientprotocol/agent-client-protocol holding the pinned commit)\n");
  process.exit(2);
}

const git = (...args: string[]) => execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8", maxBuffer: 64 << 20 });
const docsDate = git("show", "-s", "--format=%cs", DOCS_COMMIT).trim();
const sdkVersion = (JSON.parse(readFileSync(`${repo}node_modules/@agentclientprotocol/sdk/package.json`, "utf8")) as { version: string }).version;

interface Entry {
  readonly id: string;
  readonly statement: string;
  readonly citation: string;
}
const catalogues: readonly { readonly file: string; readonly schema: string }[] = [
  { file: "docs/conformance-catalogue.json", schema: "v1/schema.json" },
  { file: "docs/conformance-catalogue-unstable.json", schema: "v1/schema.unstable.json" },
  { file: "docs/conformance-catalogue-v2.json", schema: "v2/schema.json" },
  { file: "docs/conformance-catalogue-v2-unstable.json", schema: "v2/schema.unstable.json" },
];

const KEYWORD = /\b(MUST|SHOULD|REQUIRED|SHALL|MAY|RECOMMENDED|OPTIONAL)\b/;
/** Markdown as plain words: emphasis and code marks kept as the words they mark, links as their text. */
const plain = (s: string) =>
  s
    .replace(/\\([[\]()*_`\\])/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\*\*|__/g, "")
    .replace(/<[^>]+>/g, "")
    .replace(/\s+/g, " ")
    .trim();
/** Sentences of a plain text, with where each starts and ends. */
function sentences(text: string): { text: string; start: number; end: number }[] {
  const out: { text: string; start: number; end: number }[] = [];
  let start = 0;
  // Split after ". " (or "! ", "? ") followed by a capital, a quote, a backtick or a parenthesis; keep "e.g." and "i.e." whole.
  const cut = /(?<!\b(?:e\.g|i\.e|etc|vs))([.!?])\s+(?=[A-Z`"(*_])/g;
  for (const m of text.matchAll(cut)) {
    const end = m.index + 1;
    out.push({ text: text.slice(start, end).trim(), start, end });
    start = m.index + m[0].length;
  }
  if (start < text.length) out.push({ text: text.slice(start).trim(), start, end: text.length });
  return out.filter((s) => s.text !== "");
}

/** Words shared with the statement, for picking the sentence of a description that the entry is about. */
const words = (s: string) => new Set(s.toLowerCase().match(/[a-z_/]{3,}/g) ?? []);
const overlap = (a: Set<string>, b: Set<string>) => [...a].filter((w) => b.has(w)).length;

const pages = new Map<string, string[]>();
/** The sentence(s) the cited line of a docs page belongs to, within its paragraph or list item. */
function docsQuote(path: string, line: number): string {
  let lines = pages.get(path);
  if (lines === undefined) {
    lines = git("show", `${DOCS_COMMIT}:${path}`).split("\n");
    pages.set(path, lines);
  }
  const starts = (l: string) => /^\s*(?:[-*+]|\d+\.)\s/.test(l) || /^\s*#/.test(l) || /^\s*\|/.test(l) || /^\s*</.test(l);
  let from = line - 1;
  while (from > 0 && lines[from - 1]!.trim() !== "" && !starts(lines[from]!) && !/^\s*#/.test(lines[from - 1]!)) from--;
  let to = line - 1;
  while (to + 1 < lines.length && lines[to + 1]!.trim() !== "" && !starts(lines[to + 1]!)) to++;
  // Where the cited line sits in the joined block: the sentences that touch it are the quote.
  const parts = lines.slice(from, to + 1).map((l) => plain(l.replace(/^\s*(?:[-*+]|\d+\.)\s+/, "")));
  const block = parts.join(" ");
  const at = parts.slice(0, line - 1 - from).join(" ").length + (line - 1 - from > 0 ? 1 : 0);
  const span = { start: at, end: at + parts[line - 1 - from]!.length };
  const hit = sentences(block).filter((s) => s.end > span.start && s.start < span.end);
  return (hit.length > 0 ? hit.map((s) => s.text).join(" ") : block).slice(0, 1200);
}

const schemas = new Map<string, unknown>();
/** The sentence of the description at `pointer` closest to `statement` (normative sentences first). */
function schemaQuote(file: string, pointer: string, statement: string): string | undefined {
  let schema = schemas.get(file);
  if (schema === undefined) {
    schema = JSON.parse(readFileSync(require.resolve(`@agentclientprotocol/sdk/schema/${file}`), "utf8")) as unknown;
    schemas.set(file, schema);
  }
  let node: unknown = schema;
  for (const key of pointer
    .replace(/^\//, "")
    .split("/")
    .map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"))) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  // The sentence may sit in the node's description or deeper (a variant's, a property's): every description under it.
  const texts: string[] = [];
  const collect = (n: unknown) => {
    if (n === null || typeof n !== "object") return;
    const d = (n as { description?: unknown }).description;
    if (typeof d === "string") texts.push(d);
    // `_meta`'s own boilerplate ("Implementations MUST NOT make assumptions about values at these keys") is no type's rule.
    for (const [k, v] of Object.entries(n as Record<string, unknown>)) if (k !== "description" && k !== "_meta") collect(v);
  };
  collect(node);
  const target = words(statement);
  const all = texts.flatMap((t) => sentences(plain(t)).map((s) => s.text));
  const ranked = all.map((text) => ({ text, normative: KEYWORD.test(text), score: overlap(words(text), target) })).sort((a, b) => Number(b.normative) - Number(a.normative) || b.score - a.score);
  return ranked[0]?.text.slice(0, 1200);
}

/** One quote: the citation it comes from, the spec's words, and the source's date. */
interface Quote {
  readonly citation: string;
  readonly text: string;
  readonly date: string;
}
const quotes: Record<string, Quote[]> = {};
const missing: string[] = [];
for (const { file, schema } of catalogues) {
  for (const e of JSON.parse(readFileSync(`${repo}${file}`, "utf8")) as Entry[]) {
    const out: Quote[] = [];
    for (const citation of e.citation.split("; ")) {
      const docs = /^(docs\/protocol\/[\w/.-]+\.mdx):(\d+)$/.exec(citation);
      const pointer = /^schema\.json#(.*)$/.exec(citation);
      const text = docs !== null ? docsQuote(docs[1]!, Number(docs[2])) : pointer !== null ? schemaQuote(schema, pointer[1]!, e.statement) : undefined;
      if (text === undefined || text === "") missing.push(`${e.id} ${citation}`);
      else if (!out.some((q) => q.text === text)) out.push({ citation: docs !== null ? citation : `${citation} (@agentclientprotocol/sdk ${sdkVersion}, schema/${schema})`, text, date: docs !== null ? docsDate : SCHEMA_DATE });
    }
    quotes[e.id] = out;
  }
}
const data = {
  about: `The spec's own words for each catalogue entry (scripts/spec-quotes.ts): docs lines at agentclientprotocol/agent-client-protocol commit ${DOCS_COMMIT} (${docsDate}); schema pointers in @agentclientprotocol/sdk ${sdkVersion} (published ${SCHEMA_DATE}).`,
  quotes,
};
writeFileSync(`${repo}docs/conformance-quotes.json`, `${JSON.stringify(data, null, 1)}\n`);
process.stderr.write(`spec-quotes: ${Object.keys(quotes).length} entries${missing.length > 0 ? `; no quote for ${missing.length}: ${missing.join(", ")}` : ""}\n`);
