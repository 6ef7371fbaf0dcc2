// Importing one entry never loads another table (DESIGN §10): the modules esbuild bundles for each entry.
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** The repository paths of every module bundled for `entry`. */
async function modulesOf(entry: string): Promise<string[]> {
  const result = await build({ entryPoints: [`${root}${entry}`], bundle: true, write: false, metafile: true, platform: "node", format: "esm", logLevel: "silent" });
  return Object.keys(result.metafile.inputs);
}

describe("what each entry loads", () => {
  it("acp-router loads neither the v2 nor the unstable table, nor the version router", async () => {
    const modules = await modulesOf("src/index.ts");
    expect(modules).toContain("src/generated/router.ts");
    expect(modules.filter((m) => /^src\/(v2|unstable|versions)\//.test(m))).toEqual([]);
  });

  it("acp-router/versions loads the connection layer but no table", async () => {
    const modules = await modulesOf("src/versions/index.ts");
    expect(modules.filter((m) => /\/generated\//.test(m))).toEqual([]);
  });

  it("acp-router/v2 loads the v2 table and not the v1 one", async () => {
    const modules = await modulesOf("src/v2/index.ts");
    expect(modules).toContain("src/v2/generated/router.ts");
    expect(modules.filter((m) => /^src\/(generated|unstable)\//.test(m))).toEqual([]);
  });
});
