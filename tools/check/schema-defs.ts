/**
 * The `$defs` of the published ACP schemas (@agentclientprotocol/sdk, v1 and
 * v2, stable and unstable), read once when check loads and never written
 * afterwards: the judges that compare what a peer sent with what a schema
 * defines (open enums, known fields) read them from here instead of keeping
 * caches of their own. A file that cannot be read (the SDK not installed) is
 * `undefined`; each reader says what it does then.
 */
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

/** One schema definition, as far as check's judges read it. */
export interface SchemaDef {
  readonly properties?: Readonly<Record<string, unknown>>;
  readonly anyOf?: readonly { readonly const?: unknown; readonly properties?: Readonly<Record<string, { readonly const?: unknown }>> }[];
  readonly "x-method"?: string;
  readonly "x-side"?: string;
}

/** A schema file's definitions, by name. */
export type SchemaDefs = Readonly<Record<string, SchemaDef>>;

function read(version: 1 | 2, file: "schema.json" | "schema.unstable.json"): SchemaDefs | undefined {
  try {
    const path = createRequire(import.meta.url).resolve(`@agentclientprotocol/sdk/schema/v${version}/${file}`);
    return Object.freeze((JSON.parse(readFileSync(path, "utf8")) as { $defs: SchemaDefs }).$defs);
  } catch {
    return undefined;
  }
}

/** Each published schema file's definitions. */
export const SCHEMA_DEFS: {
  readonly 1: { readonly stable: SchemaDefs | undefined; readonly unstable: SchemaDefs | undefined };
  readonly 2: { readonly stable: SchemaDefs | undefined; readonly unstable: SchemaDefs | undefined };
} = Object.freeze({
  1: Object.freeze({ stable: read(1, "schema.json"), unstable: read(1, "schema.unstable.json") }),
  2: Object.freeze({ stable: read(2, "schema.json"), unstable: read(2, "schema.unstable.json") }),
});
