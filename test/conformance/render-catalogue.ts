/**
 * Renders the conformance pages from their catalogues and the names of the
 * tests under test/ (see PAGES): docs/conformance.md (ACP v1) from
 * docs/conformance-catalogue.json, docs/conformance-v2.md from
 * docs/conformance-catalogue-v2.json, docs/conformance-unstable.md from
 * docs/conformance-catalogue-unstable.json, docs/conformance-v2-unstable.md from
 * docs/conformance-catalogue-v2-unstable.json. A test is bound to a catalogue
 * entry when its `it(...)` / `test(...)` name carries the entry's id in
 * brackets, e.g. `it("[ACP-INIT-101] answers -32600 ...")`; ids are unique
 * across the catalogues.
 *
 *   npx tsx test/conformance/render-catalogue.ts     writes every page
 *
 * test/conformance/catalogue.test.ts compares the committed page with
 * `renderFromDisk()` and checks the bindings.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** One normative statement of the spec (docs/conformance-catalogue.json). */
export interface CatalogueEntry {
  readonly id: string;
  readonly tier: "MUST" | "MUST NOT" | "SHOULD" | "SHOULD NOT" | "MAY" | "none";
  readonly statement: string;
  /** `docs/protocol/<v1|v2>/<file>.mdx:<line>` (the page's spec version) or `schema.json#/<pointer>` (the page's schema), several joined by "; ". */
  readonly citation: string;
  readonly side: "agent" | "client" | "both";
  readonly applies: boolean;
  readonly reason: string;
}

/** One test name found in a test file. */
export interface TestName {
  readonly name: string;
  /** Declared with `it.fails` / `test.fails`: it documents a known bug. */
  readonly fails: boolean;
  /** Declared with `.skip` or `.todo`: it proves nothing. */
  readonly skipped: boolean;
}

/** A test name that carries catalogue ids. */
export interface Binding extends TestName {
  /** Repository-relative path with forward slashes. */
  readonly file: string;
  readonly ids: readonly string[];
}

export const SPEC_REPO = "agentclientprotocol/agent-client-protocol";
export const SPEC_COMMIT = "b7f0005493b98de32fabee3e9540e2b64da68535";
/** The RFC 2119 tiers, and "none" for an entry whose cited text has no keyword (declarative, inferred, a diagram): a note, never a violation. */
export const TIERS = ["MUST", "MUST NOT", "SHOULD", "SHOULD NOT", "MAY", "none"] as const;

/** A section of a page: the entries whose id area is one of `areas`, in catalogue order. */
export interface Section {
  readonly title: string;
  readonly areas: readonly string[];
}

/** One conformance page: its catalogue, the spec pages and schema it cites, its sections. */
export interface Page {
  readonly name: "v1" | "v2" | "unstable" | "v2-unstable";
  /** Repository-relative paths of the catalogue and of the rendered page. */
  readonly catalogue: string;
  readonly page: string;
  /** The spec folder its `docs/` citations point into. */
  readonly specVersion: "v1" | "v2";
  /** Repository-relative path of the schema its `schema.json#/…` citations resolve in. */
  readonly schema: string;
  readonly title: string;
  /** The page's first paragraph: what it lists and from which sources. */
  readonly intro: string;
  readonly sections: readonly Section[];
}

/** The sections of the v1 page: each lists the entries whose id area is one of `areas`, in catalogue order. */
export const SECTIONS: readonly { readonly title: string; readonly areas: readonly string[] }[] = [
  { title: "Transports", areas: ["TRANSPORT", "SHUTDOWN"] },
  { title: "JSON-RPC messages and errors", areas: ["JSONRPC", "INFO", "ERROR"] },
  { title: "Initialization", areas: ["INIT"] },
  { title: "Capabilities, file system and terminals", areas: ["AGENTCAP", "CLIENTCAP", "FS", "TERM", "PATH"] },
  { title: "Sessions", areas: ["SESSION", "ADDDIRS", "MCP", "LOAD", "RESUME", "CLOSE", "LIST", "DELETE"] },
  { title: "Prompt turns, plans, tool calls and config options", areas: ["PROMPT", "PLAN", "TOOL", "CONFIG"] },
  { title: "Cancellation and permissions", areas: ["CANCEL", "PERM"] },
  { title: "Authentication", areas: ["AUTH"] },
  { title: "Elicitation", areas: ["ELICIT", "ENUM"] },
  { title: "Extensibility", areas: ["META", "SCHEMA", "EXT"] },
];

const specLink = (version: string) => `[\`${SPEC_COMMIT.slice(0, 7)}\`](https://github.com/${SPEC_REPO}/tree/${SPEC_COMMIT}/docs/protocol/${version})`;

/** The pages, v1 first. Ids are unique across their catalogues: v1 numbers new ids from 101, v2 from 301, unstable from 401, v2 unstable from 501. */
export const PAGES: readonly Page[] = [
  {
    name: "v1",
    catalogue: "docs/conformance-catalogue.json",
    page: "docs/conformance.md",
    specVersion: "v1",
    schema: "node_modules/@agentclientprotocol/sdk/schema/v1/schema.json",
    title: "ACP v1 conformance",
    intro: `This page lists the normative statements of the Agent Client Protocol v1, as written at commit ${specLink("v1")} of \`${SPEC_REPO}\` and in the schema acp-router is generated from (\`@agentclientprotocol/sdk\` 2.4.0, \`schema/v1/schema.json\`). For each one it says whether acp-router honours it and which test proves it, or why it is not the library's to honour. The entries live in [\`conformance-catalogue.json\`](conformance-catalogue.json); how they were collected is in [\`conformance-sources.md\`](conformance-sources.md).`,
    sections: SECTIONS,
  },
  {
    name: "v2",
    catalogue: "docs/conformance-catalogue-v2.json",
    page: "docs/conformance-v2.md",
    specVersion: "v2",
    schema: "node_modules/@agentclientprotocol/sdk/schema/v2/schema.json",
    title: "ACP v2 conformance (`acp-router/v2`, `acp-router/versions`)",
    intro: `This page lists every normative statement (MUST, MUST NOT, SHOULD, SHOULD NOT, and the MAY and declarative rules a library acts on) of the Agent Client Protocol v2: transports, request ids, JSON-RPC batches, initialization and version negotiation, authentication, sessions, the prompt turn that outlives its answer, cancellation and permissions, tool calls, terminals, diffs and plans, config options, elicitation and extensibility. They are taken from the v2 pages at commit ${specLink("v2")} of \`${SPEC_REPO}\` and from the v2 schema \`acp-router/v2\` is generated from (\`@agentclientprotocol/sdk\` 2.4.0, \`schema/v2/schema.json\`, which is newer than the spec repository's copy at that commit: it forbids \`null\` ids and lets \`initialize\` repeat). For each one it says whether acp-router (the v2 connection and the version router \`routeAgent\` / connector \`negotiateClient\`) honours it and which test proves it, or why it is not the library's to honour. The entries live in [\`conformance-catalogue-v2.json\`](conformance-catalogue-v2.json); how they were collected is in [\`conformance-sources.md\`](conformance-sources.md). The v1 page is [\`conformance.md\`](conformance.md).`,
    sections: [
      { title: "Transports", areas: ["TRANSPORT"] },
      { title: "Request ids and batches", areas: ["JSONRPC"] },
      { title: "Initialization and version negotiation", areas: ["INIT"] },
      { title: "Authentication", areas: ["AUTH"] },
      { title: "Sessions", areas: ["SESSION", "LIST", "DELETE"] },
      { title: "Prompt turns, content and state", areas: ["PROMPT"] },
      { title: "Cancellation and permissions", areas: ["CANCEL", "PERM"] },
      { title: "Tool calls, terminals, diffs and plans", areas: ["TOOL", "TERM", "DIFF", "PLAN"] },
      { title: "Config options", areas: ["CONFIG"] },
      { title: "Elicitation", areas: ["ELICIT"] },
      { title: "Extensibility, _meta and paths", areas: ["EXT", "META", "PATH"] },
    ],
  },
  {
    name: "unstable",
    catalogue: "docs/conformance-catalogue-unstable.json",
    page: "docs/conformance-unstable.md",
    specVersion: "v1",
    schema: "node_modules/@agentclientprotocol/sdk/schema/v1/schema.unstable.json",
    title: "ACP v1 unstable conformance (`acp-router/unstable`)",
    intro:
      "This page lists the normative statements that the unstable ACP v1 schema (`@agentclientprotocol/sdk` 2.4.0, `schema/v1/schema.unstable.json`, the schema `acp-router/unstable` is generated from) adds for its methods: `session/fork`, `session/archive` / `unarchive`, `session/status`, `session/set_title`, `auth/status` and `auth/status_update`, `providers/*` and `mcp/message`. The unstable methods have no spec pages yet, so every citation points into that schema. Every statement of the stable v1 page ([`conformance.md`](conformance.md)) holds for this table too: its rows are the stable rows plus these. The entries live in [`conformance-catalogue-unstable.json`](conformance-catalogue-unstable.json); how they were collected is in [`conformance-sources.md`](conformance-sources.md).",
    sections: [
      { title: "Sessions", areas: ["SESSION"] },
      { title: "Authentication status", areas: ["AUTH"] },
      { title: "Providers", areas: ["PROVIDERS"] },
      { title: "MCP over ACP", areas: ["MCP"] },
    ],
  },
  {
    name: "v2-unstable",
    catalogue: "docs/conformance-catalogue-v2-unstable.json",
    page: "docs/conformance-v2-unstable.md",
    specVersion: "v2",
    schema: "node_modules/@agentclientprotocol/sdk/schema/v2/schema.unstable.json",
    title: "ACP v2 unstable conformance (`acp-router/v2/unstable`)",
    intro:
      "This page lists the normative statements (MUST, MUST NOT and the methods' declarative availability rules) that the unstable ACP v2 schema (`@agentclientprotocol/sdk` 2.4.0, `schema/v2/schema.unstable.json`, the schema `acp-router/v2/unstable` is generated from) adds to the stable v2 schema: its methods `session/fork`, `session/archive` / `unarchive`, `session/status`, `session/set_title`, `auth/status` and `providers/*` under v2's capability paths (`capabilities.session.fork`, …), and its new types: the archive filter and `archived` field of `session/list`, system prompts, the unknown session state, subagent updates, auth accounts, LLM protocol identifiers, ACP-transport MCP server ids and the proxy chain's `proxy/initialize` and `proxy/successor`. Agent, client and proxy obligations are listed; a proxy's side is `agent` (it answers its predecessor as an agent does). The unstable methods have no spec pages yet, so every citation points into that schema. Every statement of the v2 page ([`conformance-v2.md`](conformance-v2.md)) holds for this table too: its rows are the v2 rows plus these. `acp-router check --protocol 2` judges the agent-side rows for an agent that advertises the features (the reasons say how); the rows no traffic reaching check can decide are listed as not observable. The entries live in [`conformance-catalogue-v2-unstable.json`](conformance-catalogue-v2-unstable.json); how they were collected is in [`conformance-sources.md`](conformance-sources.md).",
    sections: [
      { title: "Sessions", areas: ["SESSION"] },
      { title: "Session state", areas: ["PROMPT"] },
      { title: "Authentication status", areas: ["AUTH"] },
      { title: "Providers", areas: ["PROVIDERS"] },
      { title: "MCP over ACP", areas: ["MCP"] },
      { title: "Proxy chains", areas: ["PROXY"] },
    ],
  },
];

/** Matches one catalogue id in brackets, as test names carry it. */
export const BRACKETED_ID = /\[(ACP-[A-Z]+(?:-[A-Z]+)*-\d{3})\]/g;

/** The area of an id: `ACP-INFO-PARSE-001` → `INFO`, `ACP-INIT-101` → `INIT`. */
export function areaOf(id: string): string {
  return id.split("-")[1] ?? "";
}

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** The entries of `page`'s catalogue (default: the v1 page). */
export function readCatalogue(root = repoRoot, page: Page = PAGES[0] as Page): CatalogueEntry[] {
  return JSON.parse(readFileSync(join(root, page.catalogue), "utf8")) as CatalogueEntry[];
}

/**
 * The names of the tests declared in `source`: the first argument of every
 * `it(`, `test(`, `it.fails(`, `it.skip(`, `it.each(...)(` and the like,
 * when it is a string literal.
 */
export function scanTestNames(source: string): TestName[] {
  const out: TestName[] = [];
  const call = /(?<![\w$.])(it|test)((?:\.[A-Za-z]+)*)\s*\(/g;
  for (let m = call.exec(source); m !== null; m = call.exec(source)) {
    const modifiers = (m[2] ?? "").split(".").filter(Boolean);
    let at = m.index + m[0].length;
    if (modifiers.includes("each")) {
      const close = matchingParen(source, at - 1);
      if (close === -1) continue;
      const open = skipSpace(source, close + 1);
      if (source[open] !== "(") continue;
      at = open + 1;
    }
    const literal = readString(source, skipSpace(source, at));
    if (literal === undefined) continue;
    out.push({ name: literal, fails: modifiers.includes("fails"), skipped: modifiers.includes("skip") || modifiers.includes("todo") });
  }
  return out;
}

function skipSpace(source: string, at: number): number {
  while (at < source.length && /\s/.test(source[at] as string)) at++;
  return at;
}

/** The string literal starting at `at` ('...', "..." or `...`), unescaped; undefined when there is none. */
function readString(source: string, at: number): string | undefined {
  const quote = source[at];
  if (quote !== '"' && quote !== "'" && quote !== "`") return undefined;
  const end = stringEnd(source, at);
  if (end === -1) return undefined;
  return source.slice(at + 1, end).replace(/\\(.)/g, "$1");
}

/** Index of the closing quote of the string literal opening at `at`, or -1. */
function stringEnd(source: string, at: number): number {
  const quote = source[at];
  for (let i = at + 1; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (c === quote) return i;
  }
  return -1;
}

/** Index of the ")" closing the "(" at `open`, skipping string literals; -1 when unbalanced. */
function matchingParen(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (c === '"' || c === "'" || c === "`") {
      i = stringEnd(source, i);
      if (i === -1) return -1;
    } else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return -1;
}

/** Every `*.test.ts` file under `dir`, repository-relative with forward slashes, sorted. */
export function testFiles(root = repoRoot, dir = "test"): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
      const path = `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") walk(path);
      } else if (entry.name.endsWith(".test.ts")) out.push(path);
    }
  };
  walk(dir);
  return out.sort();
}

/** The test names under test/ that carry catalogue ids, in file order then source order. */
export function collectBindings(root = repoRoot): Binding[] {
  const out: Binding[] = [];
  for (const file of testFiles(root)) {
    for (const test of scanTestNames(readFileSync(join(root, file), "utf8"))) {
      const ids = [...test.name.matchAll(BRACKETED_ID)].map((m) => m[1] as string);
      if (ids.length > 0) out.push({ ...test, file, ids });
    }
  }
  return out;
}

/** A binding's name without its bracketed ids. */
export function bareName(name: string): string {
  return name.replace(BRACKETED_ID, "").trim();
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

function citationCell(citation: string): string {
  return citation
    .split("; ")
    .map((c) => {
      const doc = /^docs\/protocol\/v[12]\/([a-z-]+\.mdx):(\d+)$/.exec(c);
      if (doc) return `[${doc[1]}:${doc[2]}](https://github.com/${SPEC_REPO}/blob/${SPEC_COMMIT}/${c.replace(/:\d+$/, "")}#L${doc[2]})`;
      return `\`${c}\``;
    })
    .join("<br>");
}

function bindingCell(entry: CatalogueEntry, bindings: readonly Binding[]): string {
  if (!entry.applies) {
    const prefix = "application responsibility: ";
    return entry.reason.startsWith(prefix) ? `**Application responsibility:** ${cell(entry.reason.slice(prefix.length))}` : `**Does not apply:** ${cell(entry.reason)}`;
  }
  const mine = bindings.filter((b) => b.ids.includes(entry.id) && !b.skipped);
  if (mine.length === 0) return "**No test yet.**";
  return mine.map((b) => `${b.fails ? "**Known bug (`it.fails`):** " : ""}\`${b.file}\`: ${cell(bareName(b.name))}`).join("<br>");
}

/** The whole page (default: the v1 page). */
export function render(catalogue: readonly CatalogueEntry[], bindings: readonly Binding[], page: Page = PAGES[0] as Page): string {
  const applicable = catalogue.filter((e) => e.applies);
  const passing = (e: CatalogueEntry) => bindings.some((b) => b.ids.includes(e.id) && !b.fails && !b.skipped);
  const lines: string[] = [
    `# ${page.title}`,
    "",
    "<!-- Generated by test/conformance/render-catalogue.ts from docs/conformance-catalogue.json and the test names under test/. Do not edit by hand: run `npx tsx test/conformance/render-catalogue.ts`. -->".replace("docs/conformance-catalogue.json", page.catalogue),
    "",
    page.intro,
    "",
    '**Applicable** means the acp-router library itself honours or enforces the requirement: routing, the JSON-RPC envelope, the initialization, capability and authentication gates, cancellation, ordering, framing, the transports and stdio helpers, validation against the schema (with the schema\'s leniency), extension handling and error codes. "Enforced on receipt" means the receiving connection rejects (or, where the schema allows, repairs) a message that breaks the rule; acp-router does not validate at run time what its own handlers return. A requirement that only an application can satisfy (agent logic, editor UI, model behaviour, storage, security policy) is listed as not applicable, with the reason.',
    "",
    '**Tiers** are the RFC 2119 keyword of the cited sentence (MUST, MUST NOT, SHOULD, SHOULD NOT, MAY). A few entries have no keyword in the text: they say "(Declarative.)" or "(Inferred.)" in their statement.',
    "",
    page.name === "v1"
      ? "**Ids** follow the acp-tck conformance kit: `ACP-<AREA>-<NNN>`. Where an acp-tck requirement corresponds, its id is reused (v1 ids numbered 0xx, v2 ids 2xx, and the probes `ACP-INFO-PARSE-001` and `ACP-INFO-INVALIDREQ-001`); ids new to this catalogue are numbered from 101 within their area, so they cannot collide with either."
      : `**Ids** follow the acp-tck conformance kit's form, \`ACP-<AREA>-<NNN>\`, numbered from ${{ v2: 301, unstable: 401, "v2-unstable": 501 }[page.name]} within their area on this page, so that they never collide with the other pages' ids (a test name binds to exactly one page) nor with acp-tck's v1 (0xx) and v2 (2xx) numbers.`,
    "",
    "**Citations** are `file.mdx:line` at the commit above (linked), or a JSON pointer into the schema. Several are separated by line breaks; the first is the main source.",
    "",
    '**Tests** bind to an entry by carrying its id in brackets in the test name, e.g. `it("[ACP-INIT-101] answers -32600 ...")`; the last column is generated from those names. `test/conformance/catalogue.test.ts` fails when this page, the catalogue and the tests drift apart: every applicable entry has a test, every applicable MUST and MUST NOT has a passing one, and no test claims an entry that does not apply. A test marked `it.fails` demonstrates a known bug; it passes while the bug is there.',
    "",
    "## Summary",
    "",
    "| Tier | Entries | Applicable | Applicable with a passing test |",
    "|---|---:|---:|---:|",
  ];
  for (const tier of TIERS) {
    const all = catalogue.filter((e) => e.tier === tier);
    const app = all.filter((e) => e.applies);
    lines.push(`| ${tier} | ${all.length} | ${app.length} | ${app.filter(passing).length} |`);
  }
  lines.push(`| **All** | **${catalogue.length}** | **${applicable.length}** | **${applicable.filter(passing).length}** |`, "");

  const bugs = applicable.filter((e) => bindings.some((b) => b.ids.includes(e.id) && b.fails && !b.skipped));
  lines.push("Known bugs (an `it.fails` test bound to an applicable entry):", "");
  if (bugs.length === 0) lines.push("- none", "");
  else {
    for (const e of bugs) {
      for (const b of bindings.filter((x) => x.ids.includes(e.id) && x.fails)) lines.push(`- ${e.id} (${e.tier}): ${cell(bareName(b.name))}, in \`${b.file}\``);
    }
    lines.push("");
  }

  for (const section of page.sections) {
    const entries = catalogue.filter((e) => section.areas.includes(areaOf(e.id)));
    if (entries.length === 0) continue;
    const count = entries.filter((e) => e.applies).length;
    lines.push(`## ${section.title}`, "", `${entries.length} entries, ${count} applicable.`, "", "| ID | Tier | Statement | Citation | Test, or why it does not apply |", "|---|---|---|---|---|");
    for (const e of entries) lines.push(`| ${e.id} | ${e.tier} | ${cell(e.statement)} | ${citationCell(e.citation)} | ${bindingCell(e, bindings)} |`);
    lines.push("");
  }
  return lines.join("\n");
}

/** `page` as its catalogue and the test files on disk say it should be now (default: the v1 page). */
export function renderFromDisk(root = repoRoot, page: Page = PAGES[0] as Page): string {
  return render(readCatalogue(root, page), collectBindings(root), page);
}

/** Absolute path of `page`'s rendered file (default: the v1 page). */
export const pagePath = (root = repoRoot, page: Page = PAGES[0] as Page) => join(root, page.page);

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const page of PAGES) {
    writeFileSync(pagePath(repoRoot, page), renderFromDisk(repoRoot, page));
    process.stdout.write(`wrote ${relative(process.cwd(), pagePath(repoRoot, page)).split(sep).join("/")}\n`);
  }
}
