/**
 * Emits `types.ts`: one TypeScript type per schema definition (and per inline
 * extension schema), via json-schema-to-typescript, then tidied with ts-morph:
 * the numbered helper types it invents (`Foo1`, `Foo2`) are inlined so every
 * type has the schema's own name.
 */
import { compile } from "json-schema-to-typescript";
import { Project, SyntaxKind, type SourceFile } from "ts-morph";
import type { MethodRow } from "../method-table.ts";
import { paramsTypeName, resultTypeName } from "./names.ts";
import { DEFAULT_PRINTER, type Printer } from "./symbols.ts";
import { isNode, type AcpSchema, type SchemaNode } from "./schema.ts";

const ENVELOPES = new Set(["ClientRequest", "AgentRequest", "ClientNotification", "AgentNotification", "ClientResponse", "AgentResponse"]);

/** The definitions types are emitted for: schema `$defs` (minus JSON-RPC envelopes) plus inline extension schemas. */
export function typeDefinitions(rows: readonly MethodRow[], schema: AcpSchema): Record<string, SchemaNode> {
  const defs: Record<string, SchemaNode> = {};
  for (const [name, def] of Object.entries(schema.$defs)) if (!ENVELOPES.has(name)) defs[name] = def;
  for (const row of rows) {
    if (isNode(row.params)) defs[paramsTypeName(row)] = row.params as SchemaNode;
    const resultName = resultTypeName(row);
    if (resultName !== undefined && isNode(row.result)) defs[resultName] = row.result as SchemaNode;
  }
  return defs;
}

/**
 * For an extension table over a superset schema: the types this folder
 * declares (`own`, its new and changed types) and the base folder's
 * `types` module, which every other type comes from.
 */
export interface OwnTypes {
  readonly own: ReadonlySet<string>;
  readonly from: string;
}

export async function emitTypes(rows: readonly MethodRow[], schema: AcpSchema, p: Printer = DEFAULT_PRINTER, only?: OwnTypes): Promise<string> {
  const source = typeDefinitions(rows, schema);
  const defs: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(source)) defs[name] = { ...(withoutTitles(def) as SchemaNode), title: name };
  const root = {
    title: "AcpTypeRoot",
    type: "object",
    $defs: defs,
    properties: Object.fromEntries(Object.keys(defs).map((k) => [k, { $ref: `#/$defs/${k}` }])),
    additionalProperties: false,
  };
  const raw = await compile(root as never, "AcpTypeRoot", {
    bannerComment: "",
    additionalProperties: false,
    declareExternallyReferenced: true,
    unreachableDefinitions: true,
    format: false,
    strictIndexSignatures: false,
  });
  return `${p.header}\n/* eslint-disable */\n\n${tidy(raw, new Set(Object.keys(defs)), only)}`;
}

function withoutTitles(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTitles);
  if (!isNode(value)) return value;
  const out: SchemaNode = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === "title" && typeof v === "string") continue;
    out[k] = k === "properties" && isNode(v) ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, withoutTitles(s)])) : withoutTitles(v);
  }
  return out;
}

function tidy(raw: string, names: ReadonlySet<string>, only?: OwnTypes): string {
  const project = new Project({ useInMemoryFileSystem: true });
  const sf = project.createSourceFile(
    "types.ts",
    raw.replace(/\n \*\s*\n \* This interface was referenced by `AcpTypeRoot`'s JSON-Schema\n \* via the `definition` "[^"]+"\./g, "").replace(/ \* This interface was referenced by `AcpTypeRoot`'s JSON-Schema\n \* via the `definition` "[^"]+"\.\n/g, ""),
  );
  sf.getInterface("AcpTypeRoot")?.remove();
  inlineNumbered(sf, names);
  if (only !== undefined) keepOwn(sf, only);
  sf.formatText({ indentSize: 2, convertTabsToSpaces: true });
  return sf.getFullText().replace(/\n{3,}/g, "\n\n");
}

/** Replaces every reference to a json-schema-to-typescript helper type (`Foo1`) by its body and removes it. */
function inlineNumbered(sf: SourceFile, names: ReadonlySet<string>): void {
  const isHelper = (name: string) => !names.has(name) && /\d$/.test(name) && names.has(name.replace(/\d+$/, ""));
  for (let guard = 0; guard < 1000; guard++) {
    const alias = sf.getTypeAliases().find((a) => isHelper(a.getName()));
    const iface = alias ? undefined : sf.getInterfaces().find((i) => isHelper(i.getName()));
    const decl = alias ?? iface;
    if (!decl) return;
    const name = decl.getName();
    const body = alias
      ? alias.getTypeNodeOrThrow().getText()
      : `{\n${iface!
          .getMembers()
          .map((m) => m.getText())
          .join("\n")}\n}`;
    const refs = sf.getDescendantsOfKind(SyntaxKind.TypeReference).filter((r) => r.getTypeName().getText() === name);
    for (const ref of refs.reverse()) ref.replaceWithText(`(${body})`);
    decl.remove();
  }
  throw new Error("codegen: could not inline numbered helper types");
}

/**
 * Removes every declaration `only` does not own, imports from the base folder
 * the removed ones the rest still names, and re-exports the base's types
 * (a local declaration shadows the base's of the same name).
 */
function keepOwn(sf: SourceFile, only: OwnTypes): void {
  const removed = new Set<string>();
  for (const decl of [...sf.getTypeAliases(), ...sf.getInterfaces(), ...sf.getEnums()]) {
    if (only.own.has(decl.getName())) continue;
    removed.add(decl.getName());
    decl.remove();
  }
  const used = new Set(
    sf
      .getDescendantsOfKind(SyntaxKind.TypeReference)
      .map((r) => r.getTypeName().getText())
      .filter((n) => removed.has(n)),
  );
  sf.insertStatements(0, [`export type * from ${JSON.stringify(only.from)};`, ...(used.size > 0 ? [`import type { ${[...used].sort().join(", ")} } from ${JSON.stringify(only.from)};`] : [])]);
}
