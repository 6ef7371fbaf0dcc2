// The SDK drop-in is a client of acp-router's package: its sources import acp-router by its public
// entries (package.json `exports`) only, never a file of src/ by path, and every place that maps
// those names to this checkout's sources (tsconfig.json, compat/sdk/tsconfig.sdk-peers.json; the
// vitest configs and the resolve hook read compat/sdk/dev/acp-router-entries.mjs) maps all of them.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { acpRouterEntries } from "../../compat/sdk/dev/acp-router-entries.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const sources = join(root, "compat/sdk/src");
const files = (readdirSync(sources, { recursive: true }) as string[]).filter((name) => name.endsWith(".ts"));
const text = (name: string) => readFileSync(join(sources, name), "utf8");
const entries = acpRouterEntries as Record<string, string>;

describe("compat/sdk/src imports acp-router by its public entries", () => {
  it("reaches no file of src/ by a relative path", () => {
    const relative = files.flatMap((name) => [...text(name).matchAll(/from ['"](\.\.\/)+src\/[^'"]*['"]/g)].map((m) => `${name}: ${m[0]}`));
    expect(relative).toEqual([]);
  });

  it("imports only names package.json exports", () => {
    const used = new Set(files.flatMap((name) => [...text(name).matchAll(/from ['"](acp-router(?:\/[^'"]*)?)['"]/g)].map((m) => m[1] as string)));
    expect(used.size).toBeGreaterThan(0);
    expect([...used].filter((specifier) => !(specifier in entries))).toEqual([]);
  });

  it("has every public entry mapped to its source in tsconfig.json and the SDK peers' tsconfig", () => {
    const pathsOf = (file: string) => (JSON.parse(readFileSync(join(root, file), "utf8")) as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths;
    const want = (prefix: string) => Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, [`${prefix}${file}`]]));
    const pick = (paths: Record<string, string[]>) => Object.fromEntries(Object.entries(paths).filter(([name]) => name === "acp-router" || name.startsWith("acp-router/")));
    expect(pick(pathsOf("tsconfig.json"))).toEqual(want("./"));
    expect(pick(pathsOf("compat/sdk/tsconfig.sdk-peers.json"))).toEqual(want("../../"));
  });
});
