// Property test of the leniency repair (issue 21, item 1; DESIGN section 4, step 9): for random
// valid messages of every validated type of the three schemas, one invalid item or field injected
// at a lenient site (`x-deserialize-*`) is repaired to exactly the original minus that item or
// field (or with that field at its default), with one repair naming it; and the official SDK's
// zod schemas parse the same input to the same value wherever they parse it (differential).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as v1Zod from "../../node_modules/@agentclientprotocol/sdk/dist/v1/schema/zod.gen.js";
import * as unstableZod from "../../node_modules/@agentclientprotocol/sdk/dist/v1/unstable/schema/zod.gen.js";
import * as v2Zod from "../../node_modules/@agentclientprotocol/sdk/dist/v2/schema/zod.gen.js";
import { leniency as v1Graph } from "../../src/generated/leniency.ts";
import * as v1Validators from "../../src/generated/validators.ts";
import { leniency as unstableGraph } from "../../src/unstable/generated/leniency.ts";
import * as unstableValidators from "../../src/unstable/generated/validators.ts";
import { leniency as v2Graph } from "../../src/v2/generated/leniency.ts";
import * as v2Validators from "../../src/v2/generated/validators.ts";
import { check } from "../../src/validation/check.ts";
import type { LeniencyGraph } from "../../src/validation/leniency.ts";
import type { Validator } from "../../src/validation/validator.ts";
import { arbitraryFor, type Schema } from "./schema-arbitrary.ts";
import { injections, sitesOf, siteKey, type Injection } from "./sites.ts";

interface ZodLike {
  safeParse(v: unknown): { success: boolean; data?: unknown };
}

const schemaFile = (p: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../schemas/@agentclientprotocol/sdk/schema/${p}`, import.meta.url)), "utf8")) as Schema;

const protocols = [
  // floor: the share of the testable lenient sites the fixed seed repairs at least once (measured: 215/241, 294/346, 184/239).
  { name: "v1", schema: schemaFile("v1/schema.json"), graph: v1Graph, validators: v1Validators, zod: v1Zod, floor: 0.85 },
  { name: "v1 unstable", schema: schemaFile("v1/schema.unstable.json"), graph: unstableGraph, validators: unstableValidators, zod: unstableZod, floor: 0.82 },
  { name: "v2", schema: schemaFile("v2/schema.json"), graph: v2Graph, validators: v2Validators, zod: v2Zod, floor: 0.75 },
] as const;

const json = (v: unknown): unknown => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

/** Runs per root type and kind of message (all optional fields, or a random subset). */
const RUNS = 12;
/** Fixed so the coverage floor is stable; set ACP_PROPERTY_SEED to explore others. */
const SEED = Number(process.env.ACP_PROPERTY_SEED ?? 21);

describe.each(protocols)("the repair of one injected invalid location ($name)", ({ name, schema, graph, validators, zod, floor }) => {
  const roots = Object.keys(validators)
    .filter((k) => k.startsWith("validate"))
    .map((k) => k.slice("validate".length))
    .filter((name) => name in schema.$defs);

  it("repairs exactly that location at every lenient site, and agrees with the SDK's parse where it parses the input", { timeout: 240_000 }, () => {
    const covered = new Set<string>();
    /** Sites where every candidate value is valid (`rawInput` accepts anything): nothing to inject. */
    const anyValue = new Set<string>();
    const stats = { messages: 0, injections: 0, sdkCompared: 0, elsewhere: 0 };
    for (const root of roots) {
      const validator = (validators as unknown as Record<string, Validator>)[`validate${root}`] as Validator;
      const sdk = (zod as unknown as Record<string, ZodLike | undefined>)[`z${root}`];
      const valid = (v: unknown) => validator(structuredClone(v));
      const messages = fc.oneof(arbitraryFor(schema, root, true), arbitraryFor(schema, root, false));
      fc.assert(
        fc.property(messages, fc.nat(), (message, pick) => {
          // The generator knows only part of JSON Schema (no `not`, no patterns): skip what it got wrong.
          if (!valid(message)) return;
          stats.messages++;
          // The valid fast path: accepted as it is, nothing repaired, nothing touched.
          const untouched = structuredClone(message);
          expect(check(validator, untouched, root, graph as LeniencyGraph, "repair")).toBeUndefined();
          expect(untouched).toEqual(message);
          const sdkSeesAll = sdk !== undefined && sdkAgrees(sdk, message, message);
          for (const site of sitesOf(graph as LeniencyGraph, root, message)) {
            const injection = injections(site, message, validator, pick);
            if (injection === undefined) {
              anyValue.add(siteKey(site));
              continue;
            }
            stats.injections++;
            if (!assertRepaired(validator, root, graph as LeniencyGraph, injection, sdkSeesAll ? sdk : undefined)) {
              stats.elsewhere++;
              continue;
            }
            covered.add(siteKey(site));
            if (sdkSeesAll && sdk) {
              stats.sdkCompared++;
              expect(sdkAgrees(sdk, injection.input, injection.expected), `SDK parse of ${injection.pointer} (${injection.kind})`).toBe(true);
            }
          }
        }),
        { numRuns: RUNS * 2, seed: SEED },
      );
    }
    const universe = [...allSites(graph as LeniencyGraph)].filter((k) => !(anyValue.has(k) && !covered.has(k)));
    const missing = universe.filter((k) => !covered.has(k));
    console.log(
      `${name}: ${covered.size} of ${universe.length} lenient sites repaired (${anyValue.size} accept any value); ${stats.messages} valid messages, ${stats.injections} injections, ` +
        `${stats.sdkCompared} compared with the SDK's parse, ${stats.elsewhere} rejected or repaired elsewhere as the SDK does; not reached: ${missing.join(", ") || "none"}`,
    );
    // The generator reaches most sites; the rest sit in union branches it rarely builds valid
    // (elicitation schemas, some MCP server and auth method variants). The seed is fixed, so
    // this floor is stable; a lower count means a site stopped being repaired.
    expect(covered.size / universe.length).toBeGreaterThanOrEqual(floor);
    expect(stats.sdkCompared).toBeGreaterThan(0);
  });
});

/**
 * Asserts the repair of one injection; returns false (asserting the SDK rejects it too) when
 * we reject it: a site reached through a union without a tag may belong to another branch
 * (a resource link's required `uri` is lenient only in an image block).
 */
function assertRepaired(validator: Validator, root: string, graph: LeniencyGraph, injection: Injection, sdk: ZodLike | undefined): boolean {
  const data = structuredClone(injection.input);
  const outcome = check(validator, data, root, graph, "repair");
  const where = `${injection.kind} at ${injection.pointer}`;
  if (outcome?.ok === false && sdk !== undefined) {
    expect(sdk.safeParse(structuredClone(injection.input)).success, `we reject ${where}, the SDK parses it`).toBe(false);
    return false;
  }
  const exact = outcome?.ok === true && outcome.repairs.length === 1 && JSON.stringify(json(data)) === JSON.stringify(json(injection.expected));
  if (!exact && outcome?.ok === true && sdk !== undefined) {
    // Another branch's site (an image block's required `mimeType` is lenient only in a resource
    // link): the enclosing lenient location was repaired instead; the SDK must agree.
    const parsed = sdk.safeParse(structuredClone(injection.input));
    expect(parsed.success && sdkAgrees(sdk, injection.input, data), `${where}: repaired elsewhere (${JSON.stringify(outcome.repairs)}) and the SDK disagrees`).toBe(true);
    return false;
  }
  expect(outcome, where).toEqual({ ok: true, repairs: [{ path: injection.pointer, action: injection.action }] });
  expect(json(data), where).toEqual(json(injection.expected));
  // Strict mode rejects the same input at that location, without touching it.
  const strict = structuredClone(injection.input);
  const rejected = check(validator, strict, root, graph, "strict");
  expect(rejected?.ok, where).toBe(false);
  expect(strict).toEqual(injection.input);
  return true;
}

/** Whether the SDK parses `input` to `expected` (undefined fields dropped); true when it cannot parse it at all. */
function sdkAgrees(sdk: ZodLike, input: unknown, expected: unknown): boolean {
  const parsed = sdk.safeParse(structuredClone(input));
  if (!parsed.success) return true;
  return JSON.stringify(sortKeys(json(parsed.data))) === JSON.stringify(sortKeys(json(expected)));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v !== "object" || v === null) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
  );
}

/** Every lenient site the graph names, as `siteKey` spells it. */
function allSites(graph: LeniencyGraph): Set<string> {
  const out = new Set<string>();
  for (const [node, n] of Object.entries(graph)) {
    for (const [key, p] of Object.entries(n.props ?? {})) {
      if (p.onError) out.add(`${node}.${key}:field`);
      if (p.onNull) out.add(`${node}.${key}:null`);
      if (p.skipItems) out.add(`${node}.${key}:item`);
    }
  }
  return out;
}
