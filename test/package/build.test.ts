// The published shape works without tsx: the packed tarball (the package tier's one build,
// `npm pack` in setup.ts, unpacked) holds JavaScript and declarations whose entry points load
// under plain Node and serve a real turn.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { runOk, runProcess } from "../support/process.ts";

/** The unpacked tarball's dist/ folder. */
const out = join(inject("packed"), "dist");

const run = (args: readonly string[]) => runOk(process.execPath, args, { timeoutMs: 20_000 });

describe("the built package", () => {
  it("maps every export of package.json to an emitted file", async () => {
    const pkg = JSON.parse(await readFile(join(inject("packed"), "package.json"), "utf8")) as { exports: Record<string, string | { types: string; default: string }> };
    for (const [key, target] of Object.entries(pkg.exports)) {
      if (typeof target === "string") continue;
      for (const file of [target.types, target.default]) {
        expect(file.startsWith("./dist/"), key).toBe(true);
        await readFile(join(out, file.slice("./dist/".length)));
      }
    }
  });

  it("runs a client and an agent over a memory pair under plain node, with no TypeScript loader", async () => {
    const script = `
      const { connectAgent, connectClient, memoryPair } = await import(${JSON.stringify(join(out, "src/index.js"))});
      const [a, b] = memoryPair();
      connectAgent({
        initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }),
        newSession: () => ({ sessionId: "s" }),
        prompt: async (p, ctx) => {
          await ctx.peer.sessionUpdate({ sessionId: p.sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } } });
          return { stopReason: "end_turn" };
        },
      }, a);
      const seen = [];
      const c = connectClient({ requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: (n) => { seen.push(n.update.content.text); } }, b);
      await c.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
      const { sessionId } = await c.agent.newSession({ cwd: "/", mcpServers: [] });
      const r = await c.agent.prompt({ sessionId, prompt: [{ type: "text", text: "x" }] });
      c.close();
      process.stdout.write(JSON.stringify({ r, seen }));
    `;
    const { stdout } = await run(["--input-type=module", "-e", script]);
    expect(JSON.parse(stdout)).toEqual({ r: { stopReason: "end_turn" }, seen: ["hi"] });
  });

  it("declares main and types at the top for older resolution modes, pointing at the main entry", async () => {
    const pkg = JSON.parse(await readFile(join(inject("packed"), "package.json"), "utf8")) as { main: string; types: string; exports: { ".": { types: string; default: string } } };
    expect(pkg.main).toBe(pkg.exports["."].default);
    expect(pkg.types).toBe(pkg.exports["."].types);
  });

  it("runs the acp-router bin under plain node", async () => {
    const help = await run([join(out, "bin/acp-router.js"), "help"]);
    expect(help.stdout).toBe("");
    expect(help.stderr).toContain("codegen --table FILE --out DIR [--check]");
    const bad = await runProcess(process.execPath, [join(out, "bin/acp-router.js"), "codegen"], { timeoutMs: 20_000 });
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining("--table and --out are required") });
  });

  it("loads the stdio entry under plain node", async () => {
    const { stdout } = await run(["--input-type=module", "-e", `const m = await import(${JSON.stringify(join(out, "src/transport/stdio.js"))}); process.stdout.write(typeof m.serveProtocolStdio + " " + typeof m.spawnAgent);`]);
    expect(stdout).toBe("function function");
  });
});
