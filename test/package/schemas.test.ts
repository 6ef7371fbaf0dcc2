// The schemas shipped inside the package (`schemas/`) are exact copies of the pinned npm
// package's files, listed with their hash, and codegen reads them from there.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadSchema, shippedSchemaPath } from "../../codegen/schema.ts";
import { schemaSource } from "../../method-table.ts";
import { schemaSource as unstableSource } from "../../tables/v1-unstable.ts";
import { schemaSource as v2Source } from "../../tables/v2.ts";
import { schemaSource as v2UnstableSource } from "../../tables/v2-unstable.ts";

/** Every table's pin: v1 stable (the default entry), v1 unstable, v2 and v2 unstable. */
const sources = [schemaSource, unstableSource, v2Source, v2UnstableSource];

const root = fileURLToPath(new URL("../../", import.meta.url));
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("the shipped schemas", () => {
  it.each(sources.map((s) => [s.file, s] as const))("holds %s byte for byte as the pinned npm package has it, with the table's hash", async (_file, source) => {
    const shipped = await readFile(shippedSchemaPath(source));
    const fromNpm = await readFile(join(root, "node_modules", source.package, source.file));
    expect(shipped.equals(fromNpm)).toBe(true);
    expect(sha256(shipped)).toBe(source.sha256);
  });

  it("is where codegen reads the schema from, inside this package", () => {
    expect(shippedSchemaPath(schemaSource)).toBe(join(root, "schemas", "@agentclientprotocol/sdk", "schema/v1/schema.json"));
    expect(loadSchema(schemaSource).sha256).toBe(schemaSource.sha256);
  });

  it("lists each file with its hash and ships the schema's licence", async () => {
    const readme = await readFile(join(root, "schemas/README.md"), "utf8");
    for (const source of sources) {
      expect(readme).toContain(`\`${source.package}/${source.file}\` | \`${source.package}@${source.version}\`, \`${source.file}\` | \`${source.sha256}\` |`);
    }
    const licence = await readFile(join(root, "schemas", schemaSource.package, "LICENSE"), "utf8");
    expect(licence).toContain("Apache License");
    expect(licence).toBe(await readFile(join(root, "node_modules", schemaSource.package, "LICENSE"), "utf8"));
  });

  it("are in the published files", async () => {
    const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { files: string[] };
    expect(pkg.files).toContain("schemas");
  });
});
