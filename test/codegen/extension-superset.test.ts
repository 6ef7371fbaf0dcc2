// A table that extends another over a superset schema (tables/v1-unstable.ts over method-table.ts,
// tables/v2-unstable.ts over tables/v2.ts): the types both schemas define alike are the base
// folder's; changed and new types, and every type and row that reaches one, are printed again.
import { readFileSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changedTypes, tableDelta } from "../../codegen/extension-delta.ts";
import { contentNames } from "../../codegen/validator-share.ts";
import { generate } from "../../codegen/generate.ts";
import { loadSchema, type AcpSchema } from "../../codegen/schema.ts";
import { decode } from "../../src/decode.ts";
import type { Protocol } from "../../src/index.ts";
import { methods as stableRows, schemaSource as stableSource, type MethodRow } from "../../method-table.ts";
import { protocol as stable } from "../../src/generated/index.ts";
import { protocol as unstable } from "../../src/unstable/generated/index.ts";
import { protocol as v2 } from "../../src/v2/generated/index.ts";
import { protocol as v2Unstable } from "../../src/v2/unstable/generated/index.ts";
import { protocol as proxy } from "../../src/proxy/generated/index.ts";
import { methods as unstableRows, schemaSource as unstableSource } from "../../tables/v1-unstable.ts";
import { repoRoot, run, tempDirIn, type Ran } from "./support.ts";

const row = (wire: string, params: string, result: string): MethodRow => ({ wire, side: "agent", kind: "request", callback: wire.replace("/", "_"), params, result, layer: "app" });
const obj = (properties: Record<string, unknown>) => ({ type: "object", properties });

describe("the types an extension over a superset schema prints", () => {
  const base: AcpSchema = { $defs: { Leaf: obj({ x: { type: "string" } }), Mid: obj({ leaf: { $ref: "#/$defs/Leaf" } }), Top: obj({ mid: { $ref: "#/$defs/Mid" } }), Other: { type: "string", description: "old words" } } };
  const mine: AcpSchema = { $defs: { ...base.$defs, Leaf: obj({ x: { type: "string" }, y: { type: "number" } }), Other: { type: "string", description: "new words" }, New: obj({}) } };

  it("are the new ones, the changed ones and, transitively, every one referring to a changed one; a documentation change is no change", () => {
    expect([...changedTypes([], mine, [], base)].sort()).toEqual(["Leaf", "Mid", "New", "Top"]);
  });

  it("refuses a base schema with a definition the extension's lacks", () => {
    const { Other: _dropped, ...defs } = mine.$defs;
    expect(() => changedTypes([], { $defs: defs }, [], base)).toThrow(/not a superset of its base's: it lacks Other/);
  });

  it("retypes (re-prints) the base rows whose params or result changed, and only those", () => {
    const rows = [row("a/top", "Top", "Other"), row("a/other", "Other", "Other")];
    const { delta, changed, retyped, added } = tableDelta(rows, rows, new Set(["Top"]));
    expect([delta, changed, retyped].map((l) => l.map((r) => r.wire))).toEqual([["a/top"], ["a/top"], ["a/top"]]);
    expect(added).toEqual([]);
  });
});

describe("the unstable v1 rows over the stable v1 table", () => {
  const v1 = loadSchema(stableSource).schema;
  const v1u = loadSchema(unstableSource).schema;

  it("re-export the types both schemas define alike, and print the changed ones with what refers to them", async () => {
    const types = changedTypes(unstableRows, v1u, stableRows, v1);
    expect(types.has("SessionCapabilities")).toBe(true); // gains fork, archive, …
    expect(types.has("AgentCapabilities")).toBe(true); // refers to SessionCapabilities
    expect(types.has("InitializeResponse")).toBe(true); // refers to AgentCapabilities
    expect(types.has("ContentBlock")).toBe(false);
    expect(types.has("CancelNotification")).toBe(false);
    const files = await generate(unstableRows, v1u, { base: { rows: stableRows, folder: "../base", schema: v1 }, protocol: { version: 1, name: "v1-mine" } });
    const typesTs = files.get("types.ts") as string;
    expect(typesTs).toContain('export type * from "../base/types.js";');
    expect(typesTs).toMatch(/export interface SessionCapabilities \{/);
    expect(typesTs).toMatch(/export interface InitializeResponse \{/);
    expect(typesTs).not.toMatch(/export (type|interface) ContentBlock\b/);
    const validators = files.get("validators.ts") as string;
    expect(validators).toContain("export const validateInitializeResponse: Validator");
    expect(validators).not.toContain("export const validatePromptRequest");
    expect(validators).not.toContain("export const validateCancelNotification");
    const routes = files.get("routes.ts") as string;
    expect(routes).toContain("A_initialize");
    expect(routes).not.toContain("A_session_cancel");
  });
});

describe("the repository's tables over superset schemas", () => {
  const rows = (p: Protocol) => p.rows.agent.length + p.rows.client.length;

  it("keep their own names and every row of their base", () => {
    expect([unstable.name, v2Unstable.name, proxy.name]).toEqual(["v1-unstable", "v2-unstable", "v1-proxy"]);
    expect(rows(unstable)).toBeGreaterThan(rows(stable));
    expect(rows(v2Unstable)).toBeGreaterThan(rows(v2));
  });

  it("validate a changed type with the extension's schema and an unchanged one with the base's validator", () => {
    // initialize's answer type changed (AgentCapabilities gains fields): the unstable table has its own validator for it.
    const init = (fork: unknown) => ({ protocolVersion: 2, info: { name: "a", version: "1" }, capabilities: { session: { fork } } });
    const answer = (p: Protocol) => p.resultMarker("agent", "initialize")?.result as (value: unknown) => boolean;
    expect([answer(v2Unstable)(init({})), answer(v2Unstable)(init(5))]).toEqual([true, false]);
    expect(answer(v2)(init(5))).toBe(true); // v2 knows no session.fork: an unknown field
    expect(unstable.resultMarker("agent", "initialize")?.result).not.toBe(stable.resultMarker("agent", "initialize")?.result);
    expect(v2Unstable.inboundRow("agent", "request", "session/prompt")).toBe(v2.inboundRow("agent", "request", "session/prompt"));
    expect(decode(v2Unstable, "agent", "request", "session/fork", { sessionId: 5 }).tag).toBe("invalid_params");
  });
});

describe("a user's table extending the stable table over the unstable schema (acp-router codegen --base)", () => {
  let out: string;
  let codegen: Ran;
  beforeAll(async () => {
    out = await tempDirIn("test/codegen", "superset-");
    const runtime = relative(out, join(repoRoot, "src", "runtime.ts"));
    codegen = await run(process.execPath, ["--import", "tsx", "bin/acp-router.ts", "codegen", "--table", "test/codegen/fixtures/superset-table.ts", "--out", relative(repoRoot, out), "--base", "src/generated", "--runtime", runtime]);
  }, 180_000); // codegen of the v1 table's delta in a subprocess; slow on a shared machine

  afterAll(async () => {
    if (out) await rm(out, { recursive: true, force: true });
  });

  it("prints the delta, imports the rest from the base folder, and decodes both", async () => {
    expect(codegen.stderr).toContain("codegen: wrote 12 files");
    expect(codegen.code).toBe(0);
    expect(await readFile(join(out, "types.ts"), "utf8")).toContain('export type * from "../../../src/generated/types.js";');
    const { protocol } = (await import(pathToFileURL(join(out, "protocol.ts")).href)) as { protocol: Protocol };
    expect(protocol.name).toBe("v1-fork");
    expect(decode(protocol, "agent", "request", "session/fork", { sessionId: "s", cwd: "/w" }).tag).toBe("ok");
    expect(decode(protocol, "agent", "request", "session/fork", { cwd: "/w" }).tag).toBe("invalid_params");
    expect(protocol.inboundRow("agent", "request", "session/cancel")).toBeUndefined(); // a notification row, not a request
    expect(protocol.inboundRow("agent", "notification", "session/cancel")).toBe(stable.inboundRow("agent", "notification", "session/cancel"));
  });
});

describe("the compiled functions an extension's validators share with its base's (codegen/validator-share.ts)", () => {
  const read = (folder: string) => readFileSync(join(repoRoot, folder, "validators.ts"), "utf8");
  const defined = (text: string) => new Set([...text.matchAll(/\bvalidate\d+ as (v_[0-9a-f]+)\b/g)].map((m) => m[1] as string));

  it.each([
    ["src/unstable/generated", "src/generated"],
    ["src/v2/unstable/generated", "src/v2/generated"],
  ])("%s imports from %s the functions both compile, and prints none of them again", (folder, baseFolder) => {
    const mine = read(folder);
    const base = defined(read(baseFolder));
    const imported = [...mine.matchAll(/\b(v_[0-9a-f]+) as validate\d+\b/g)].map((m) => m[1] as string);
    expect(imported.length).toBeGreaterThan(10);
    for (const name of imported) expect(base.has(name), name).toBe(true);
    expect([...defined(mine)].filter((name) => base.has(name))).toEqual([]);
  });

  it("names a function by its content: the same body with other local numbers and error-table indices has one name; another body another", () => {
    const fn = (n: number, k: number, callee: number) => `function validate${n}(data, instancePath=""){let vErrors = null;let errors = 0;if(!validate${callee}(data, instancePath)){vErrors = addError(vErrors, instancePath, K[${k}]);errors++;}validate${n}.errors = vErrors;return errors === 0;}`;
    const leaf = (n: number, k: number) => `function validate${n}(data, instancePath=""){let vErrors = null;let errors = 0;if(typeof data !== "string"){vErrors = addError(vErrors, instancePath, K[${k}]);errors++;}validate${n}.errors = vErrors;return errors === 0;}`;
    const a = contentNames(fn(1, 0, 2) + leaf(2, 1), ['["a", {}]', '["type", {type: "string"}]']);
    const b = contentNames(leaf(7, 0) + fn(9, 1, 7), ['["type", {type: "string"}]', '["a", {}]']);
    expect([a.get("validate1"), a.get("validate2")]).toEqual([b.get("validate9"), b.get("validate7")]);
    const c = contentNames(fn(1, 0, 2) + leaf(2, 1), ['["a", {}]', '["type", {type: "number"}]']);
    expect(c.get("validate2")).not.toBe(a.get("validate2"));
    expect(c.get("validate1")).not.toBe(a.get("validate1")); // its callee differs
  });
});
