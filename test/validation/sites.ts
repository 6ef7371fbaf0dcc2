/**
 * The lenient sites of one message, found by walking it with a leniency graph (the same
 * resolution the runtime uses: a node's refs, and the variant its tag selects), and the
 * injection of one invalid item or field at a site with the value the repair must produce.
 */
import type { LeniencyGraph, LeniencyProp } from "../../src/validation/leniency.ts";
import type { Validator } from "../../src/validation/validator.ts";

export interface Site {
  /** Path of the object holding the property. */
  readonly at: readonly (string | number)[];
  readonly key: string;
  /** The graph node that names the property. */
  readonly node: string;
  readonly prop: LeniencyProp;
  readonly kind: "field" | "null" | "item";
}

export interface Injection {
  readonly kind: Site["kind"];
  readonly input: unknown;
  readonly expected: unknown;
  readonly pointer: string;
  readonly action: "default" | "removed" | "dropped_item";
}

const hasOwn = Object.prototype.hasOwnProperty;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export const siteKey = (s: Site): string => `${s.node}.${s.key}:${s.kind}`;

export function sitesOf(graph: LeniencyGraph, root: string, message: unknown): Site[] {
  const out: Site[] = [];
  const walk = (start: readonly string[], value: unknown, at: (string | number)[]): void => {
    if (!isObject(value)) return;
    const nodes = expand(graph, start, value);
    const seen = new Set<string>();
    for (const node of nodes) {
      for (const [key, prop] of Object.entries(graph[node]?.props ?? {})) {
        if (seen.has(key)) continue;
        seen.add(key);
        if (prop.onError) out.push({ at, key, node, prop, kind: "field" });
        if (prop.onNull) out.push({ at, key, node, prop, kind: "null" });
        if (!hasOwn.call(value, key)) continue;
        const child = value[key];
        if (Array.isArray(child)) {
          if (prop.skipItems) out.push({ at, key, node, prop, kind: "item" });
          child.forEach((item, i) => walk(prop.items ?? [], item, [...at, key, i]));
        } else walk(prop.value ?? [], child, [...at, key]);
      }
    }
  };
  walk([root], message, []);
  return out;
}

function expand(graph: LeniencyGraph, start: readonly string[], value: Record<string, unknown>): string[] {
  const out: string[] = [];
  const queue = [...start];
  while (queue.length > 0) {
    const name = queue.shift() as string;
    if (out.includes(name) || !hasOwn.call(graph, name)) continue;
    out.push(name);
    const node = graph[name];
    if (node?.refs) queue.push(...node.refs);
    const tag = node?.tag === undefined ? undefined : value[node.tag];
    if (typeof tag === "string" && node?.variants && hasOwn.call(node.variants, tag)) queue.push(...(node.variants[tag] as readonly string[]));
  }
  return out;
}

/** Values tried in turn as the invalid one; the first the validator rejects is used. */
const BAD: readonly unknown[] = [12345.5, "\u0000not valid", true, [7], { "\u0000": 1 }, null];

/**
 * `message` with one invalid value injected at `site` (chosen with `pick`), and the
 * value the repair must produce; undefined when every candidate is valid there
 * (a field that accepts any value).
 */
export function injections(site: Site, message: unknown, validator: Validator, pick: number): Injection | undefined {
  const pointer = [...site.at, site.key].map((s) => `/${String(s).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
  const candidates = site.kind === "null" ? [null] : BAD;
  for (let i = 0; i < candidates.length; i++) {
    const bad = candidates[(i + pick) % candidates.length];
    if (site.kind === "field" && bad === null && site.prop.onNull) continue;
    // A list holding one invalid item is an item injection, not a field one.
    if (site.kind === "field" && Array.isArray(bad) && site.prop.skipItems) continue;
    const input = structuredClone(message);
    const expected = structuredClone(message);
    const holder = at(input, site.at);
    const want = at(expected, site.at);
    if (site.kind === "item") {
      const list = holder[site.key] as unknown[];
      const index = pick % (list.length + 1);
      list.splice(index, 0, structuredClone(bad));
      if (validator(structuredClone(input))) continue;
      return { kind: site.kind, input, expected, pointer: `${pointer}/${index}`, action: "dropped_item" };
    }
    holder[site.key] = structuredClone(bad);
    if (validator(structuredClone(input))) continue;
    if (site.prop.default === undefined) delete want[site.key];
    else want[site.key] = structuredClone(site.prop.default);
    return { kind: site.kind, input, expected, pointer, action: site.prop.default === undefined ? "removed" : "default" };
  }
  return undefined;
}

function at(root: unknown, path: readonly (string | number)[]): Record<string, unknown> {
  let v = root as Record<string, unknown>;
  for (const s of path) v = v[s as string] as Record<string, unknown>;
  return v;
}
