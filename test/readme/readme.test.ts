// The README cannot drift from the code: every snippet block equals the file it
// is taken from, and those files run or compile here.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runOk } from "../support/process.ts";

const run = (command: string, args: readonly string[], options: { cwd: string; timeout: number }) => runOk(command, args, { cwd: options.cwd, timeoutMs: options.timeout });
const root = fileURLToPath(new URL("../../", import.meta.url));
const readme = await readFile(join(root, "README.md"), "utf8");
/** The pages the README sends the reader to for what it no longer holds. */
const guide = await readFile(join(root, "docs/guide.md"), "utf8");
const versions = await readFile(join(root, "docs/versions.md"), "utf8");
/** Every page that holds a former README section, for the checks that covered the whole README. */
const moved = await Promise.all(["guide", "versions", "remote", "tools", "performance", "architecture", "testing"].map((page) => readFile(join(root, `docs/${page}.md`), "utf8")));

/** `<!-- snippet: path -->` followed by a fenced block → [path, block body]. */
function snippets(text: string): [string, string][] {
  const out: [string, string][] = [];
  const re = /<!-- snippet: (\S+) -->\n\n?```\w*\n([\s\S]*?)```/g; // prettier puts a blank line after the marker
  for (let m = re.exec(text); m; m = re.exec(text)) out.push([m[1] as string, m[2] as string]);
  return out;
}

describe("the README", () => {
  const blocks = [...snippets(readme), ...snippets(guide), ...snippets(versions)];

  it("takes its code blocks from files, and so do the guide and the versions page", () => {
    expect(snippets(readme).map(([path]) => path)).toEqual(["docs/snippets/agent.ts", "docs/snippets/client.ts"]);
    expect(snippets(guide).map(([path]) => path)).toEqual(["docs/snippets/extensions.ts"]);
    expect(snippets(versions).map(([path]) => path)).toEqual(["docs/snippets/dual-agent.ts", "docs/snippets/connector-client.ts"]);
  });

  it("fits in 210 lines of text, says how to make a consumer project ESM, and links every page it moved out", () => {
    // Lines that carry text: the blank lines prettier puts around markers and lists do not make it longer to read.
    expect(readme.split("\n").filter((line) => line.trim() !== "").length).toBeLessThanOrEqual(210);
    expect(readme).toContain("npm pkg set type=module");
    for (const page of [
      "docs/README.md",
      "docs/guide.md",
      "docs/api-landing.md",
      "docs/versions.md",
      "docs/remote.md",
      "docs/tools.md",
      "docs/performance.md",
      "docs/compatibility.md",
      "docs/security.md",
      "docs/conformance.md",
      "docs/architecture.md",
      "docs/testing.md",
      "docs/migrating-from-sdk.md",
      "docs/editors.md",
    ]) {
      expect(readme, page).toContain(`](${page})`);
    }
  });

  it.each(blocks)("shows %s exactly as the file has it", async (path, body) => {
    expect(body).toBe(await readFile(join(root, path), "utf8"));
  });

  it("backs its claims with files that exist, as do the pages it moved out", async () => {
    const paths = [...new Set([readme, ...moved].flatMap((text) => [...text.matchAll(/`((?:test|docs|bench|examples|src)\/[\w./-]+\.(?:ts|md|json))`/g)].map((m) => m[1] as string)))];
    expect(paths.length).toBeGreaterThan(8);
    const missing: string[] = [];
    for (const path of paths) await readFile(join(root, path)).catch(() => missing.push(path));
    expect(missing).toEqual([]);
  });

  it("names only npm scripts that exist, as do the pages it moved out", async () => {
    const scripts = Object.keys((JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts);
    const named = [readme, ...moved].flatMap((text) => [...text.matchAll(/npm run (\w+)/g)].map((m) => m[1] as string));
    expect(named.length).toBeGreaterThan(3);
    for (const name of named) expect(scripts).toContain(name);
  });

  it("runs the client snippet against the agent snippet and prints what it says", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", join(root, "docs/snippets/client.ts")], { cwd: root, timeout: 20_000 });
    expect(stdout).toBe("You said: hello\n[end_turn]\n");
    expect(readme).toContain("```text\nYou said: hello\n[end_turn]\n```");
  });

  it("runs the connector client snippet against the dual-version agent snippet: protocol 2 negotiated, a v2 turn", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", join(root, "docs/snippets/connector-client.ts")], { cwd: root, timeout: 20_000 });
    expect(stdout).toBe("negotiated protocol 2\nYou said: hello\n[end_turn]\n");
    expect(versions).toContain("```text\n" + stdout + "```");
  });

  it("runs the extensions snippet and prints what it says", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", join(root, "docs/snippets/extensions.ts")], { cwd: root, timeout: 20_000 });
    expect(stdout.split("\n")[0]).toBe('{"text":"HI","progress":[50]}');
    expect(guide).toContain("```text\n" + stdout + "```");
  });
});

// The workflow section (table → codegen → handlers in a consumer project) is run by
// test/package/consumer.test.ts from a packed tarball.
