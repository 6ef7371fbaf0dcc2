// The README cannot drift from the code: every snippet block equals the file it
// is taken from, and those files run or compile here.
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, memoryPair, type Transport } from "../../src/index.ts";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../", import.meta.url));
const readme = await readFile(join(root, "README.md"), "utf8");

/** `<!-- snippet: path -->` followed by a fenced block → [path, block body]. */
function snippets(text: string): [string, string][] {
  const out: [string, string][] = [];
  const re = /<!-- snippet: (\S+) -->\n```\w*\n([\s\S]*?)```/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push([m[1] as string, m[2] as string]);
  return out;
}

describe("the README", () => {
  const blocks = snippets(readme);

  it("takes its code blocks from files", () => {
    expect(blocks.map(([path]) => path)).toEqual(["docs/snippets/agent.ts", "docs/snippets/client.ts", "docs/snippets/ext-table.ts", "docs/snippets/ext-handler.ts"]);
  });

  it.each(blocks)("shows %s exactly as the file has it", async (path, body) => {
    expect(body).toBe(await readFile(join(root, path), "utf8"));
  });

  it("backs its claims with files that exist", async () => {
    const paths = [...new Set([...readme.matchAll(/`((?:test|docs|bench|examples|src)\/[\w./-]+\.(?:ts|md|json))`/g)].map((m) => m[1] as string))];
    expect(paths.length).toBeGreaterThan(8);
    const missing: string[] = [];
    for (const path of paths) await readFile(join(root, path)).catch(() => missing.push(path));
    expect(missing).toEqual([]);
  });

  it("names only npm scripts that exist", async () => {
    const scripts = Object.keys((JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts);
    const named = [...readme.matchAll(/npm run (\w+)/g)].map((m) => m[1] as string);
    expect(named.length).toBeGreaterThan(3);
    for (const name of named) expect(scripts).toContain(name);
  });

  it("runs the client snippet against the agent snippet and prints what it says", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", join(root, "docs/snippets/client.ts")], { cwd: root, timeout: 20_000 });
    expect(stdout).toBe("You said: hello\n[end_turn]\n");
    expect(readme).toContain("```text\nYou said: hello\n[end_turn]\n```");
  });
});

describe("the README's extension workflow", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(root, "test/readme/.ext-"));
    await run(process.execPath, ["--import", "tsx", "codegen/main.ts", "--table", "docs/snippets/ext-table.ts", "--out", relative(root, join(dir, "generated"))], { cwd: root, timeout: 60_000 });
    await copyFile(join(root, "docs/snippets/ext-handler.ts"), join(dir, "ext-handler.ts"));
  }, 90_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("compiles the handler against the generated code", async () => {
    await writeFile(join(dir, "tsconfig.json"), JSON.stringify({ extends: "../../../tsconfig.json", include: ["ext-handler.ts", "generated"] }));
    const tsc = await run("npx", ["tsc", "--noEmit", "--pretty", "false", "-p", join(dir, "tsconfig.json")], { cwd: root, timeout: 60_000 }).catch((e: { stdout: string }) => e);
    expect(tsc.stdout).toBe("");
  }, 90_000);

  it("routes the extension method to the handler's echo over a connection", async () => {
    const { handler } = (await import(pathToFileURL(join(dir, "ext-handler.ts")).href)) as { handler: object };
    const { connectAgent } = (await import(pathToFileURL(join(dir, "generated/connect.ts")).href)) as { connectAgent: (h: object, t: Transport) => unknown };
    const [a, b] = memoryPair();
    connectAgent(handler, a);
    const client = connectClient({ requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} }, b);
    await client.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    expect(await client.request("_example.com/echo", { text: "hello" })).toEqual({ text: "hello" });
    await expect(client.request("_example.com/echo", {})).rejects.toMatchObject({ code: -32602, data: { errors: [{ path: "/text", message: "is required" }] } });
    client.close();
  });
});
