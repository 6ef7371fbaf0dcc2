/**
 * Loading and hashing the pinned ACP schema, and small helpers to walk it.
 * Used only at codegen time.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { SchemaSource } from "../method-table.ts";

/** A JSON Schema node, as loosely typed as JSON itself. */
export type SchemaNode = { [keyword: string]: unknown };

/** The parts of the ACP schema codegen reads. */
export interface AcpSchema {
  readonly $defs: Record<string, SchemaNode>;
}

/** Reads the schema file named by `source` from `node_modules` below `root`. */
export function loadSchema(root: string, source: SchemaSource): { schema: AcpSchema; text: string; sha256: string } {
  const path = join(root, "node_modules", source.package, source.file);
  const text = readFileSync(path, "utf8");
  const schema = JSON.parse(text) as AcpSchema;
  return { schema, text, sha256: sha256(text) };
}

/** Hex SHA-256 of a UTF-8 string. */
export function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The `$defs` name a `$ref` points to, or undefined for other references. */
export function refName(ref: unknown): string | undefined {
  if (typeof ref !== "string") return undefined;
  const m = /^#\/\$defs\/([^/]+)$/.exec(ref);
  return m?.[1];
}

/** True for a plain object node. */
export function isNode(value: unknown): value is SchemaNode {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The subschemas of a combinator keyword (`allOf`, `anyOf`, `oneOf`). */
export function branches(node: SchemaNode, keyword: "allOf" | "anyOf" | "oneOf"): SchemaNode[] {
  const list = node[keyword];
  return Array.isArray(list) ? list.filter(isNode) : [];
}

/** Deep copy without the keywords that only document (descriptions, titles, examples). */
export function stripDocs(value: unknown, drop: ReadonlySet<string> = DOC_KEYWORDS): unknown {
  if (Array.isArray(value)) return value.map((v) => stripDocs(v, drop));
  if (!isNode(value)) return value;
  const out: SchemaNode = {};
  for (const [k, v] of Object.entries(value)) {
    if (drop.has(k) || k.startsWith("x-")) continue;
    // `properties` maps names to schemas: keep every name, even "title" or "description".
    out[k] = k === "properties" || k === "$defs" ? mapValues(v, (s) => stripDocs(s, drop)) : stripDocs(v, drop);
  }
  return out;
}

const DOC_KEYWORDS: ReadonlySet<string> = new Set(["description", "title", "examples", "$comment", "default"]);

function mapValues(value: unknown, f: (v: unknown) => unknown): unknown {
  if (!isNode(value)) return value;
  const out: SchemaNode = {};
  for (const [k, v] of Object.entries(value)) out[k] = f(v);
  return out;
}
