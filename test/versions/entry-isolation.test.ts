// Importing one entry never loads another table (DESIGN §10) but the ones its table extends (an unstable
// table is a delta over its stable one): the modules esbuild bundles for each entry.
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** The repository paths of every module bundled for `entry` (a file, or source text importing entries). */
async function modulesOf(entry: string | { readonly contents: string }): Promise<string[]> {
  const input = typeof entry === "string" ? { entryPoints: [`${root}${entry}`] } : { stdin: { contents: entry.contents, resolveDir: root, loader: "ts" as const } };
  const result = await build({ ...input, bundle: true, write: false, metafile: true, platform: "node", format: "esm", logLevel: "silent" });
  return Object.keys(result.metafile.inputs);
}

const table = (m: string) => /^src\/(generated|v2\/generated|v2\/unstable\/generated|unstable\/generated)\//.test(m);
const v1Table = (m: string) => m.startsWith("src/generated/");

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
    expect(modules.filter((m) => /^src\/(generated|unstable|v2\/unstable)\//.test(m))).toEqual([]);
  });

  it("acp-router/v2/unstable loads the v2 unstable table and its base (v2), not the v1 or v1 unstable one", async () => {
    const modules = await modulesOf("src/v2/unstable/index.ts");
    expect(modules).toContain("src/v2/unstable/generated/protocol.ts");
    expect(modules).toContain("src/v2/generated/protocol.ts");
    expect(modules.filter((m) => /^src\/(generated|unstable)\//.test(m))).toEqual([]);
  });

  it.each([
    ["/stdio", "src/transport/stdio.ts"],
    ["/remote", "src/remote/index.ts"],
    ["/http", "src/remote/node.ts"],
    ["/ws", "src/remote/node-ws.ts"],
  ])("acp-router%s loads no table", async (_name, file) => {
    const modules = await modulesOf(file);
    expect(modules.length).toBeGreaterThan(3);
    expect(modules.filter(table)).toEqual([]);
  });

  it("acp-router/unstable loads the unstable table and its base (v1), not a v2 one", async () => {
    const modules = await modulesOf("src/unstable/index.ts");
    expect(modules).toContain("src/unstable/generated/protocol.ts");
    expect(modules).toContain("src/generated/protocol.ts");
    expect(modules.filter((m) => /^src\/v2\//.test(m))).toEqual([]);
  });

  it("a v2 agent built from acp-router/v2 (its serveStdio, or serveProtocolStdio of acp-router/stdio, or acp-router/remote) bundles no v1 table", async () => {
    const oneLiner = await modulesOf({ contents: 'import { serveStdio } from "./src/v2/index.ts"; serveStdio({ initialize: () => ({ protocolVersion: 2, info: { name: "a", version: "1" } }) } as never);' });
    expect(oneLiner).toContain("src/v2/generated/protocol.ts");
    expect(oneLiner).toContain("src/transport/serve-stdio.ts");
    expect(oneLiner.filter(v1Table)).toEqual([]);
    const stdio = await modulesOf({ contents: 'import { protocol } from "./src/v2/index.ts"; import { serveProtocolStdio } from "./src/transport/stdio.ts"; serveProtocolStdio(protocol, { initialize: () => ({ protocolVersion: 2, info: { name: "a", version: "1" } }) } as never);' });
    expect(stdio).toContain("src/v2/generated/protocol.ts");
    expect(stdio).toContain("src/transport/serve-stdio.ts");
    expect(stdio.filter(v1Table)).toEqual([]);
    const remote = await modulesOf({ contents: 'import { protocol } from "./src/v2/index.ts"; import { createRemoteServer } from "./src/remote/index.ts"; export const s = createRemoteServer({ protocol, agent: { initialize: () => ({ protocolVersion: 2, info: { name: "a", version: "1" } }) } });' });
    expect(remote).toContain("src/remote/server.ts");
    expect(remote.filter(v1Table)).toEqual([]);
  });

  it.each([
    ["v2", "src/v2/generated/"],
    ["unstable", "src/generated/"],
    ["v2/unstable", "src/v2/generated/"],
  ])("defineExtension of acp-router/%s loads that table alone, with the table it extends", async (entry, base) => {
    const modules = await modulesOf({ contents: `import { defineExtension, serveStdio } from "./src/${entry}/index.ts"; const ext = defineExtension({ wire: "_x/echo", params: (v) => v }); serveStdio({} as never, { extensions: [ext.handle((p) => p)] });` });
    expect(modules).toContain("src/extensions/define.ts");
    expect(modules).toContain(`src/${entry}/generated/protocol.ts`);
    expect(modules.filter((m) => table(m) && !m.startsWith(`src/${entry}/generated/`) && !m.startsWith(base))).toEqual([]);
  });

  it("the v1 one-liner serveStdio(handler) lives in the default entry, which loads the v1 table", async () => {
    const modules = await modulesOf({ contents: 'import { serveStdio } from "./src/index.ts"; serveStdio({} as never);' });
    expect(modules).toContain("src/generated/protocol.ts");
    expect(modules).toContain("src/serve-stdio-v1.ts");
  });
});
