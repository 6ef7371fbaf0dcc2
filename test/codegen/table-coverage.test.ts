// The method table against the pinned schema: same methods, same sides and kinds, same hash.
import { describe, expect, it } from "vitest";
import { stableMethodsFromSchema } from "../../codegen/check.ts";
import { methods, schemaSource } from "../../method-table.ts";
import { realSchema, run } from "./support.ts";

const { schema, sha256 } = realSchema();
const key = (m: { wire: string; side: string; kind: string }) => `${m.side} ${m.kind} ${m.wire}`;

describe("the method table", () => {
  it("covers exactly the stable methods the schema itself defines, with the same side and kind", () => {
    const fromSchema = stableMethodsFromSchema(schema).map(key).sort();
    const fromTable = methods.map(key).sort();
    expect(fromTable).toEqual(fromSchema);
  });

  it("uses the schema's params and result definitions for every row", () => {
    const bySchema = new Map(stableMethodsFromSchema(schema).map((m) => [`${m.side} ${m.wire}`, m]));
    for (const row of methods) {
      const m = bySchema.get(`${row.side} ${row.wire}`);
      expect({ wire: row.wire, params: row.params, result: row.result }).toEqual({ wire: row.wire, params: m?.params, result: m?.result });
    }
  });

  it("has exactly 25 wire methods, each listed once", () => {
    expect(methods).toHaveLength(25);
    expect(new Set(methods.map((r) => `${r.side} ${r.wire}`)).size).toBe(25);
  });

  it("splits them 13 agent, 11 client and 1 protocol row", () => {
    const count = (side: string) => methods.filter((r) => r.side === side).length;
    expect({ agent: count("agent"), client: count("client"), both: count("both") }).toEqual({ agent: 13, client: 11, both: 1 });
  });

  it("pins the SHA-256 of the schema file codegen reads", () => {
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(sha256).toBe(schemaSource.sha256);
  });
});

describe("the runtime package", () => {
  it("has no production dependencies (npm ls --omit=dev --all)", async () => {
    const { code, stdout } = await run("npm", ["ls", "--omit=dev", "--all", "--json"]);
    expect(code).toBe(0);
    const tree = JSON.parse(stdout) as { name: string; dependencies?: Record<string, unknown> };
    expect(tree.name).toBe("acp-router");
    expect(Object.keys(tree.dependencies ?? {})).toEqual([]);
  });
});
