/**
 * Loading and hashing the pinned ACP schema, and small helpers to walk it.
 * Used only at codegen time.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SchemaSource } from "../method-table.ts";

/** A JSON Schema node, as loosely typed as JSON itself. */
export type SchemaNode = { [keyword: string]: unknown };

/** The parts of the ACP schema codegen reads. */
export interface AcpSchema {
  readonly $defs: Record<string, SchemaNode>;
}

/**
 * Reads the schema file named by `source` from the copies shipped in this
 * package (`schemas/<package>/<file>`), so a consumer's codegen needs no SDK.
 */
export function loadSchema(source: SchemaSource): { schema: AcpSchema; text: string; sha256: string } {
  const path = shippedSchemaPath(source);
  if (!existsSync(path)) throw new Error(`no shipped copy of ${source.package}@${source.version} ${source.file} (looked for ${path})`);
  const text = readFileSync(path, "utf8");
  const schema = JSON.parse(text) as AcpSchema;
  return { schema, text, sha256: sha256(text) };
}

/** Where the shipped copy of `source` lives. */
export function shippedSchemaPath(source: SchemaSource): string {
  return join(packageRoot(), "schemas", source.package, source.file);
}

/**
 * The root folder of the acp-router package: the nearest folder above this
 * file with a `schemas/` folder (the repository when run from source, the
 * installed package when run from `dist/codegen/`).
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, "schemas")) && existsSync(join(dir, "package.json"))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error("acp-router: cannot find the package root (a folder with schemas/ and package.json)");
    dir = up;
  }
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
