/**
 * Schema leniency: the ACP schema marks locations that a receiver repairs
 * instead of rejecting (`x-deserialize-default-on-error`, `-default-on-null`,
 * `-skip-invalid-items`), as the reference SDKs do. Codegen turns those marks
 * into a {@link LeniencyGraph}; {@link repair} walks it along each error's
 * instance path and fixes the deepest lenient location it finds.
 */
import type { ValidatorError } from "./validator.ts";

/**
 * What the schema says about one property.
 * @internal
 */
export interface LeniencyProp {
  readonly onError?: true;
  readonly onNull?: true;
  readonly default?: unknown;
  readonly skipItems?: true;
  /** Graph nodes describing the property's value. */
  readonly value?: readonly string[];
  /** Graph nodes describing the property's array items. */
  readonly items?: readonly string[];
}

/**
 * One schema definition (or inline subschema) that can reach a lenient location.
 * @internal
 */
export interface LeniencyNode {
  readonly props?: Readonly<Record<string, LeniencyProp>>;
  readonly refs?: readonly string[];
  readonly tag?: string;
  readonly variants?: Readonly<Record<string, readonly string[]>>;
}

/**
 * All lenient locations of the schema, keyed by definition name; generated into `src/generated/leniency.ts`.
 * @internal
 */
export type LeniencyGraph = Readonly<Record<string, LeniencyNode>>;

/** One repair made to a decoded value, reported through `onDiagnostic`. */
export interface Repair {
  /** JSON Pointer of the repaired location. */
  readonly path: string;
  /**
   * `default`: replaced by the schema's default; `removed`: an optional field
   * deleted; `dropped_item`: one array item deleted; `kept_unknown`: an enum
   * value (or union tag) this schema does not know, passed through unchanged
   * (results only, see `UnknownValues`).
   */
  readonly action: "default" | "removed" | "dropped_item" | "kept_unknown";
}

interface Candidate {
  readonly parent: Record<string, unknown> | unknown[];
  readonly key: string | number;
  readonly path: string;
  readonly action: Repair["action"];
  readonly value?: unknown;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Repairs `data` in place at exactly the invalid locations: for each error,
 * the deepest lenient location on its path that was not already tried (a
 * dropped item, else the nearest enclosing field defaulted or removed). A
 * repair that encloses another repair of the same round is deferred: the
 * caller re-validates, and the enclosing location is repaired in a later
 * round only if it is still invalid, so an object the inner repair made
 * valid is kept (an `annotations` whose one unknown `audience` item was
 * dropped stays). An error with no lenient location of its own is tolerated
 * when it encloses a repair of this round (a union's summary error above a
 * repaired field). Returns the repairs made, or undefined when nothing can be
 * repaired (the value must then be rejected).
 */
export function repairOnce(graph: LeniencyGraph, root: string, data: unknown, errors: readonly ValidatorError[], done: Set<string>): Repair[] | undefined {
  const chosen = new Map<string, Candidate>();
  const uncovered: string[] = [];
  for (const error of errors) {
    const found = locate(graph, root, data, pointerSegments(error.instancePath), done);
    if (found) chosen.set(found.path, found);
    else uncovered.push(error.instancePath);
  }
  if (chosen.size === 0) return undefined;
  const outer = enclosingPaths(chosen.keys());
  for (const at of uncovered) if (!outer.has(at) && !chosen.has(at)) return undefined;
  const innermost: Candidate[] = [];
  for (const c of chosen.values()) if (!outer.has(c.path)) innermost.push(c);
  const repairs: Repair[] = [];
  // Items to drop are collected per array and removed in one pass (no splice per item).
  const drops = new Map<unknown[], Set<number>>();
  for (const c of innermost) {
    // A dropped item always shrinks its array, so it may recur at the same index;
    // a default or a removal that did not help must not be tried again.
    if (c.action !== "dropped_item") done.add(c.path);
    if (c.action === "dropped_item") {
      const array = c.parent as unknown[];
      const set = drops.get(array);
      if (set) set.add(c.key as number);
      else drops.set(array, new Set([c.key as number]));
    } else if (c.action === "removed") delete (c.parent as Record<string, unknown>)[c.key as string];
    else (c.parent as Record<string, unknown>)[c.key as string] = cloneJson(c.value);
    repairs.push({ path: c.path, action: c.action });
  }
  for (const [array, indices] of drops) {
    let write = 0;
    for (let read = 0; read < array.length; read++) if (!indices.has(read)) array[write++] = array[read];
    array.length = write;
  }
  return repairs;
}

/** Whether the schema marks the location `pointer` itself lenient (a field defaulted or removed on error, an item dropped). */
export function isLenientAt(graph: LeniencyGraph, root: string, data: unknown, pointer: string): boolean {
  return locate(graph, root, data, pointerSegments(pointer), noneDone)?.path === pointer;
}

const noneDone: ReadonlySet<string> = new Set();

/** Every proper ancestor of the given JSON Pointers (`""`, `/a` and `/a/b` for `/a/b/c`), in one set: linear in their total length. */
function enclosingPaths(paths: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const path of paths) {
    for (let at = path.lastIndexOf("/"); at >= 0; at = path.lastIndexOf("/", at - 1)) {
      const prefix = path.slice(0, at);
      if (out.has(prefix)) break;
      out.add(prefix);
      if (at === 0) break;
    }
  }
  return out;
}

/** The deepest lenient location on the path `segments` that is not in `done`. */
function locate(graph: LeniencyGraph, root: string, data: unknown, segments: readonly string[], done: ReadonlySet<string>): Candidate | undefined {
  let nodes = expand(graph, [root], data);
  let value = data;
  let best: Candidate | undefined;
  let path = "";
  for (let i = 0; i < segments.length && nodes.length > 0; i++) {
    const key = segments[i] as string;
    if (!isObject(value) || !hasOwn.call(value, key)) break;
    const prop = findProp(graph, nodes, key);
    if (!prop) break;
    const parent = value;
    const child = parent[key];
    const here = `${path}/${escapePointer(key)}`;
    if (!done.has(here)) {
      if (prop.onError) best = prop.default === undefined ? { parent, key, path: here, action: "removed" } : { parent, key, path: here, action: "default", value: prop.default };
      else if (prop.onNull && child === null) best = { parent, key, path: here, action: prop.default === undefined ? "removed" : "default", value: prop.default };
    }
    path = here;
    const index = Array.isArray(child) && i + 1 < segments.length ? Number(segments[i + 1]) : NaN;
    if (Array.isArray(child) && Number.isInteger(index) && index >= 0 && index < child.length) {
      i++;
      path = `${path}/${index}`;
      if (prop.skipItems) best = { parent: child, key: index, path, action: "dropped_item" };
      value = child[index];
      nodes = expand(graph, prop.items ?? [], value);
    } else {
      value = child;
      nodes = expand(graph, prop.value ?? [], value);
    }
  }
  return best;
}

function findProp(graph: LeniencyGraph, nodes: readonly string[], key: string): LeniencyProp | undefined {
  for (const name of nodes) {
    const node = hasOwn.call(graph, name) ? graph[name] : undefined;
    const props = node?.props;
    if (props && hasOwn.call(props, key)) return props[key];
  }
  return undefined;
}

/** The node names that describe `value`: the given ones, their refs, and the variant its tag selects. */
function expand(graph: LeniencyGraph, start: readonly string[], value: unknown): string[] {
  const out: string[] = [];
  const queue = [...start];
  while (queue.length > 0 && out.length < 256) {
    const name = queue.shift() as string;
    if (out.includes(name) || !hasOwn.call(graph, name)) continue;
    out.push(name);
    const node = graph[name] as LeniencyNode;
    if (node.refs) queue.push(...node.refs);
    if (node.tag !== undefined && node.variants && isObject(value)) {
      const tag = value[node.tag];
      if (typeof tag === "string" && hasOwn.call(node.variants, tag)) queue.push(...(node.variants[tag] as readonly string[]));
    }
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** Splits a JSON Pointer into unescaped segments. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

function cloneJson(value: unknown): unknown {
  return value === undefined || value === null || typeof value !== "object" ? value : JSON.parse(JSON.stringify(value));
}
