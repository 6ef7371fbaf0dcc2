/**
 * Emits `leniency.ts`: where the schema asks receivers to repair instead of
 * reject (`x-deserialize-default-on-error`, `x-deserialize-default-on-null`,
 * `x-deserialize-skip-invalid-items`), as a small graph the runtime walks
 * along an error's instance path. Nodes are schema definitions (or inline
 * subschemas, named `Def/path`); only nodes that can reach a lenient location
 * are kept.
 */
import type { MethodRow } from "../method-table.ts";
import { DEFAULT_PRINTER, runtimeImport, type Printer } from "./symbols.ts";
import { branches, isNode, refName, type AcpSchema, type SchemaNode } from "./schema.ts";
import { typeDefinitions } from "./emit-types.ts";
import { validatedTypes } from "./emit-validators.ts";
import { decodedBy } from "./emit-router.ts";

interface Prop {
  onError?: true;
  onNull?: true;
  default?: unknown;
  skipItems?: true;
  value?: string[];
  items?: string[];
}
interface GraphNode {
  props?: Record<string, Prop>;
  refs?: string[];
  tag?: string;
  variants?: Record<string, string[]>;
}

export function buildLeniencyGraph(rows: readonly MethodRow[], schema: AcpSchema): Record<string, GraphNode> {
  const defs = typeDefinitions(rows, schema);
  const graph: Record<string, GraphNode> = {};

  const targets = (sub: unknown, name: string): string[] => {
    if (!isNode(sub)) return [];
    const ref = refName(sub.$ref);
    if (ref) return [ref];
    if (isNode(sub.properties) || isNode(sub.discriminator)) {
      build(name, sub);
      return [name];
    }
    const out: string[] = [];
    for (const kw of ["allOf", "anyOf", "oneOf"] as const) branches(sub, kw).forEach((b, i) => out.push(...targets(b, `${name}/${kw}${i}`)));
    return out;
  };

  const build = (name: string, node: SchemaNode): void => {
    if (graph[name]) return;
    const g: GraphNode = {};
    graph[name] = g;
    if (isNode(node.properties)) {
      for (const [key, sub] of Object.entries(node.properties)) {
        if (!isNode(sub)) continue;
        const p: Prop = {};
        if (sub["x-deserialize-default-on-error"] === true) p.onError = true;
        if (sub["x-deserialize-default-on-null"] === true) p.onNull = true;
        if ((p.onError || p.onNull) && "default" in sub) p.default = sub.default;
        // A null list or map without a stated default becomes empty (the type's
        // default in the reference SDKs: `defaultOnNull(z.array(...), () => [])`),
        // rather than removed, which would fail a required property.
        else if (p.onNull && !p.onError) p.default = typeDefault(sub.type);
        // A required property repaired on error takes its type's default (`[]`, `{}`),
        // as the reference SDKs do (`requiredDefaultOnError(..., () => [])`); an
        // optional one without a stated default is removed.
        else if (p.onError && Array.isArray(node.required) && node.required.includes(key)) p.default = typeDefault(sub.type);
        // So does an optional list that is not nullable (`"type": "array"`: a Rust `Vec`, not an
        // `Option<Vec>`): the reference SDK falls back to `[]` (v2's `authMethods`, `configOptions`).
        else if (p.onError && sub.type === "array") p.default = [];
        if (sub["x-deserialize-skip-invalid-items"] === true) p.skipItems = true;
        const value = targets(sub, `${name}/${key}`);
        if (value.length) p.value = value;
        const items = itemSchemas(sub).flatMap((it, i) => targets(it, `${name}/${key}[]${i || ""}`));
        if (items.length) p.items = items;
        (g.props ??= {})[key] = p;
      }
    }
    const ref = refName(node.$ref);
    if (ref) (g.refs ??= []).push(ref);
    const disc = isNode(node.discriminator) ? node.discriminator.propertyName : inferredTag(node);
    for (const kw of ["allOf", "anyOf", "oneOf"] as const) {
      branches(node, kw).forEach((b, i) => {
        const tagConst = typeof disc === "string" && isNode(b.properties) && isNode(b.properties[disc]) ? b.properties[disc].const : undefined;
        const t = targets(b, `${name}/${kw}${i}`);
        if (typeof tagConst === "string") {
          g.tag = disc as string;
          (g.variants ??= {})[tagConst] = t;
        } else (g.refs ??= []).push(...t);
      });
    }
  };

  for (const [name, def] of Object.entries(defs)) build(name, def);
  return prune(graph, validatedTypes(rows));
}

/**
 * The tag of a union without a `discriminator` whose branches each fix one
 * property to a constant string (v2's `SessionUpdate`: `sessionUpdate`), so
 * the runtime follows the branch the value names instead of every branch.
 */
function inferredTag(node: SchemaNode): string | undefined {
  for (const kw of ["anyOf", "oneOf"] as const) {
    const list = branches(node, kw);
    const first = list[0];
    if (list.length < 2 || !first || !isNode(first.properties)) continue;
    for (const [key, sub] of Object.entries(first.properties)) {
      if (!isNode(sub) || typeof sub.const !== "string") continue;
      const tagged = list.filter((b) => isNode(b.properties) && isNode(b.properties[key]) && typeof b.properties[key].const === "string");
      if (tagged.length >= list.length - 1) return key;
    }
  }
  return undefined;
}

/** The empty value of a JSON Schema `type` that has one (`[]`, `{}`), else undefined (the property is removed). */
function typeDefault(type: unknown): unknown {
  const types = Array.isArray(type) ? type : [type];
  if (types.includes("array")) return [];
  if (types.includes("object")) return {};
  return undefined;
}

function itemSchemas(sub: SchemaNode): SchemaNode[] {
  const out: SchemaNode[] = [];
  if (isNode(sub.items)) out.push(sub.items);
  for (const kw of ["allOf", "anyOf", "oneOf"] as const) for (const b of branches(sub, kw)) if (isNode(b.items)) out.push(b.items);
  return out;
}

/** Keeps only nodes reachable from the roots that can reach a lenient location. */
function prune(graph: Record<string, GraphNode>, roots: readonly string[]): Record<string, GraphNode> {
  const edges = (n: GraphNode): string[] => [...(n.refs ?? []), ...Object.values(n.variants ?? {}).flat(), ...Object.values(n.props ?? {}).flatMap((p) => [...(p.value ?? []), ...(p.items ?? [])])];
  const useful = new Set<string>();
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, n] of Object.entries(graph)) {
      if (useful.has(name)) continue;
      const own = Object.values(n.props ?? {}).some((p) => p.onError || p.onNull || p.skipItems);
      if (own || edges(n).some((e) => useful.has(e))) {
        useful.add(name);
        changed = true;
      }
    }
  }
  const keep = (list: string[] | undefined) => list?.filter((e) => useful.has(e));
  const out: Record<string, GraphNode> = {};
  const queue = roots.filter((r) => useful.has(r));
  while (queue.length) {
    const name = queue.shift() as string;
    if (out[name]) continue;
    const n = graph[name] as GraphNode;
    const slim: GraphNode = {};
    if (n.refs && keep(n.refs)?.length) slim.refs = keep(n.refs) as string[];
    if (n.tag && n.variants) {
      const variants: Record<string, string[]> = {};
      for (const [tag, list] of Object.entries(n.variants)) if (keep(list)?.length) variants[tag] = keep(list) as string[];
      if (Object.keys(variants).length) Object.assign(slim, { tag: n.tag, variants });
    }
    for (const [key, p] of Object.entries(n.props ?? {})) {
      const q: Prop = { ...p };
      if (keep(p.value)?.length) q.value = keep(p.value) as string[];
      else delete q.value;
      if (keep(p.items)?.length) q.items = keep(p.items) as string[];
      else delete q.items;
      if (q.onError || q.onNull || q.skipItems || q.value || q.items) (slim.props ??= {})[key] = q;
    }
    out[name] = slim;
    queue.push(...edges(slim));
  }
  return out;
}

/** The nodes of `graph` reachable from `roots` (a side's decoded types): what that side's half walks. */
export function reachable(graph: Readonly<Record<string, GraphNode>>, roots: readonly string[]): string[] {
  const seen = new Set<string>();
  const queue = roots.filter((r) => graph[r] !== undefined);
  while (queue.length) {
    const name = queue.shift() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    const n = graph[name] as GraphNode;
    queue.push(...(n.refs ?? []), ...Object.values(n.variants ?? {}).flat(), ...Object.values(n.props ?? {}).flatMap((p) => [...(p.value ?? []), ...(p.items ?? [])]));
  }
  return [...seen].sort();
}

/**
 * `leniency.ts`: the graph's nodes in three groups, each printed once — the
 * nodes both sides reach, those only the agent's decoded types reach, those
 * only the client's — and three graphs over them: each half's
 * (`agentLeniency`, `clientLeniency`: shared + its own) and the whole table's
 * (`leniency`: all three). The merges are calls annotated pure, so a bundle
 * of one side drops the other side's group.
 */
export function emitLeniency(rows: readonly MethodRow[], schema: AcpSchema, p: Printer = DEFAULT_PRINTER): string {
  const graph = buildLeniencyGraph(rows, schema);
  const agent = new Set(reachable(graph, decodedBy(rows, "agent")));
  const client = new Set(reachable(graph, decodedBy(rows, "client")));
  const names = Object.keys(graph).sort();
  const group = (name: string, doc: string, keep: (n: string) => boolean) => [`/** ${doc} */`, `const ${name}: LeniencyGraph = {`, ...names.filter(keep).map((n) => `  ${JSON.stringify(n)}: ${JSON.stringify(graph[n])},`), "};"];
  return [
    p.header,
    runtimeImport(p, ["LeniencyGraph"]),
    "",
    ...group("both", "Nodes the types of both sides reach.", (n) => agent.has(n) && client.has(n)),
    ...group("agentOnly", "Nodes only the types the agent decodes reach (the params it receives, the results it gets).", (n) => agent.has(n) && !client.has(n)),
    ...group("clientOnly", "Nodes only the types the client decodes reach.", (n) => !agent.has(n) && client.has(n)),
    "",
    "/**",
    " * Lenient locations of every params/result type, keyed by definition.",
    " * @internal",
    " */",
    "export const leniency: LeniencyGraph = /* @__PURE__ */ Object.assign({}, both, agentOnly, clientOnly);",
    "",
    "/**",
    " * Lenient locations of the types the agent decodes (the agent half's graph).",
    " * @internal",
    " */",
    "export const agentLeniency: LeniencyGraph = /* @__PURE__ */ Object.assign({}, both, agentOnly);",
    "",
    "/**",
    " * Lenient locations of the types the client decodes (the client half's graph).",
    " * @internal",
    " */",
    "export const clientLeniency: LeniencyGraph = /* @__PURE__ */ Object.assign({}, both, clientOnly);",
    "",
  ].join("\n");
}
