/**
 * fast-check arbitraries for JSON Schema definitions of the pinned ACP schemas: enough of
 * JSON Schema for them ($ref, allOf/anyOf/oneOf, const, enum, type lists, properties,
 * required, items, minimum/maximum). Values are candidates: the caller keeps those its
 * validator accepts. Optional properties are included at random (or always, `full`), up to a
 * depth past which only required ones are generated, so every lenient site is reachable.
 */
import fc from "fast-check";

type Node = Record<string, unknown>;
export interface Schema {
  readonly $defs: Record<string, Node>;
}

const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

/** Depth past which optional properties and array items are no longer generated. */
const MAX_DEPTH = 7;

export function arbitraryFor(schema: Schema, name: string, full: boolean): fc.Arbitrary<unknown> {
  const memo = new Map<string, fc.Arbitrary<unknown>>();
  const gen = (node: unknown, depth: number): fc.Arbitrary<unknown> => {
    if (!isNode(node)) return fc.constant({});
    const ref = typeof node.$ref === "string" ? node.$ref.replace("#/$defs/", "") : undefined;
    if (ref !== undefined) {
      const key = `${ref}@${Math.min(depth, MAX_DEPTH + 1)}`;
      let a = memo.get(key);
      if (!a) {
        a = fc.constant(null).chain(() => gen(schema.$defs[ref], depth + 1));
        memo.set(key, a);
      }
      return a;
    }
    if ("const" in node) return fc.constant(node.const);
    if (Array.isArray(node.enum)) return fc.constantFrom(...(node.enum as unknown[]));
    const union = (Array.isArray(node.oneOf) ? node.oneOf : Array.isArray(node.anyOf) ? node.anyOf : undefined) as unknown[] | undefined;
    const own = objectParts(node);
    if (union) {
      const branches = union.map((b) => (own ? merged(own, b, depth) : gen(b, depth)));
      return fc.oneof(...branches);
    }
    if (Array.isArray(node.allOf)) {
      if (!own && node.allOf.length === 1) return gen(node.allOf[0], depth);
      return merged(own ?? { properties: {}, required: [] }, { allOf: node.allOf }, depth);
    }
    const types = Array.isArray(node.type) ? (node.type as string[]) : typeof node.type === "string" ? [node.type] : [];
    if (types.length > 1) return fc.oneof(...types.map((t) => gen({ ...node, type: t }, depth)));
    switch (types[0]) {
      case "string":
        return node.format === "uri" ? fc.constantFrom("file:///a.txt", "https://example.com/x") : node.format === "date-time" ? fc.constant("2026-01-01T00:00:00Z") : fc.string({ maxLength: 6 });
      case "integer":
        return fc.integer({ min: typeof node.minimum === "number" ? node.minimum : -5, max: typeof node.maximum === "number" ? Math.min(node.maximum, 1000) : 1000 });
      case "number":
        return fc.double({ min: -100, max: 100, noNaN: true, noDefaultInfinity: true });
      case "boolean":
        return fc.boolean();
      case "null":
        return fc.constant(null);
      case "array": {
        const min = typeof node.minItems === "number" ? node.minItems : 0;
        return fc.array(gen(node.items, depth + 1), { minLength: min, maxLength: depth >= MAX_DEPTH ? min : Math.max(min, 3) });
      }
      case "object":
      default:
        return objectOf(own ?? { properties: {}, required: [] }, depth);
    }
  };

  /** Properties and required names of a node that has any (its own object part). */
  function objectParts(node: Node): { properties: Record<string, unknown>; required: string[] } | undefined {
    if (!isNode(node.properties) && !Array.isArray(node.required)) return undefined;
    return { properties: isNode(node.properties) ? node.properties : {}, required: Array.isArray(node.required) ? (node.required as string[]) : [] };
  }

  /** An object with `own` properties and those of `branch` (resolved through $ref and allOf). */
  function merged(own: { properties: Record<string, unknown>; required: string[] }, branch: unknown, depth: number): fc.Arbitrary<unknown> {
    const parts = { properties: { ...own.properties }, required: [...own.required] };
    const add = (b: unknown, guard: number): void => {
      if (!isNode(b) || guard > 8) return;
      if (typeof b.$ref === "string") return add(schema.$defs[b.$ref.replace("#/$defs/", "")], guard + 1);
      const p = objectParts(b);
      if (p) {
        Object.assign(parts.properties, p.properties);
        parts.required.push(...p.required);
      }
      if (Array.isArray(b.allOf)) for (const x of b.allOf) add(x, guard + 1);
    };
    add(branch, 0);
    if (Object.keys(parts.properties).length === 0 && isNode(branch)) return gen(branch, depth);
    return objectOf(parts, depth);
  }

  function objectOf(parts: { properties: Record<string, unknown>; required: string[] }, depth: number): fc.Arbitrary<unknown> {
    const record: Record<string, fc.Arbitrary<unknown>> = {};
    const required: string[] = [];
    for (const [key, sub] of Object.entries(parts.properties)) {
      const isRequired = parts.required.includes(key);
      if (!isRequired && depth >= MAX_DEPTH) continue;
      record[key] = gen(sub, depth + 1);
      if (isRequired || full) required.push(key);
    }
    return fc.record(record, { requiredKeys: required });
  }

  return gen(schema.$defs[name], 0);
}
