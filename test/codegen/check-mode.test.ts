// `codegen --check` regenerates in memory and fails, naming the file, on any difference.
// Codegen runs as a child process (ts-morph, ajv, three tables): generous timeouts, since
// the suite runs files in parallel on a small machine.
import { readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, run, tempDirIn } from "./support.ts";

const codegen = (...args: string[]) => run("npx", ["tsx", "codegen/main.ts", ...args]);

describe("codegen --check", () => {
  // On the committed folders it is `.ci/run`'s own step (before the tests); here it runs on a copy.
  describe("on a copy of src/generated in another folder", () => {
    let out: string;
    let rel: string;

    // The copy is made by `codegen --out`, not by copying bytes: the runtime import
    // paths depend on the output folder, so a byte copy would differ in every file
    // that imports `src/` and could not show that --check names only the changed one.
    beforeAll(async () => {
      out = await tempDirIn("test/codegen", "check-");
      rel = relative(repoRoot, out);
      expect((await codegen("--out", rel)).code).toBe(0);
    }, 180_000);

    afterAll(async () => {
      if (out) await rm(out, { recursive: true, force: true });
    });

    it("is the committed output, with only the runtime import prefix moved", async () => {
      for (const name of ["router.ts", "handlers.ts", "peers.ts", "types.ts"]) {
        const committed = await readFile(join(repoRoot, "src/generated", name), "utf8");
        const copy = await readFile(join(out, name), "utf8");
        expect(copy.replaceAll('from "../../../src/', 'from "../'), name).toBe(committed);
      }
    });

    it("exits 1 and names exactly the file where one character changed", async () => {
      const peers = join(out, "peers.ts");
      const text = await readFile(peers, "utf8");
      const at = text.indexOf("createAgentPeer");
      await writeFile(peers, `${text.slice(0, at)}C${text.slice(at + 1)}`); // createAgentPeer → CreateAgentPeer

      const { code, stderr } = await codegen("--check", "--out", rel);
      expect(code).toBe(1);
      expect(stderr).toContain(`codegen --check: ${rel} is stale; run \`npm run codegen\`. Differing files:\n  peers.ts\n`);
      expect(stderr.split("\n").filter((l) => l.startsWith("  "))).toEqual(["  peers.ts"]);
    }, 180_000);
  });
});
