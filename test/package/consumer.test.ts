// The consumer workflow, from an installed package: the README's "The workflow" section is
// run as written in a fresh project outside this repository, once installed with npm and once
// with pnpm (whose strict layout fails any deep import). The library is the tarball the package
// tier's global setup packed (setup.ts), so what is tested is what would be published.
//
// Only acp-router itself is installed by the package manager (from the tarball, offline: it has
// no dependencies). The dev tools the README installs next (typescript, ts-morph, …) come from
// the run's tools cache, linked in (tools-cache.ts): the same pinned versions, with no registry
// asked and no second install of the same tools for pnpm.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { runProcess, repoRoot as root, type Ran } from "../support/process.ts";
import { readmeSection, type Step } from "./consumer-support.ts";
import { linkTools } from "./tools-cache.ts";

const pnpm = join(root, "node_modules/.bin/pnpm");
const section = readmeSection(await readFile(join(root, "README.md"), "utf8"), "## The workflow");
const tarball = inject("tarball");
const tools = inject("consumerTools");

/** Runs a command in `cwd`; never rejects on a non-zero exit. The deadlines here and on the tests only turn a hang into a failure: `tsc` and codegen take minutes on a loaded 2-core machine. */
const sh = (cwd: string, command: string, args: readonly string[], timeoutMs = 540_000): Promise<Ran> => runProcess(command, args, { cwd, timeoutMs, env: { ...process.env, npm_config_update_notifier: "false" } });

/** How each package manager spells the README's commands: `install` adds the tarball, offline. */
const managers = {
  npm: {
    install: (spec: string) => ["npm", ["install", "--offline", "--no-audit", "--no-fund", "--save-exact", spec]] as const,
    exec: (args: string[]) => ["npx", ["--no-install", ...args]] as const,
  },
  pnpm: {
    install: (spec: string) => [pnpm, ["add", "--offline", "--save-exact", spec]] as const,
    exec: (args: string[]) => [pnpm, ["exec", ...args]] as const,
  },
} as const;

type Manager = keyof typeof managers;

/** Adds `specs` to the project in `dir` from the tools cache. */
async function addTools(dir: string, dev: boolean, specs: readonly string[]): Promise<Ran> {
  await linkTools(tools, dir, specs, dev);
  return { code: 0, signal: null, killed: false, stdout: "", stdoutBytes: Buffer.alloc(0), stderr: "" };
}

/** Runs one README command line as `manager` would, in `dir`, with the packed tarball for `acp-router`. */
function runStep(manager: Manager, dir: string, step: Step): Promise<Ran> {
  const [tool, ...args] = step.argv;
  if (tool === "npm" && args[0] === "install") {
    const specs = args.slice(1).filter((a) => !a.startsWith("--"));
    if (specs.length === 1 && specs[0] === "acp-router") {
      const [command, installArgs] = managers[manager].install(tarball);
      return sh(dir, command, installArgs);
    }
    return addTools(dir, args.includes("--save-dev"), specs);
  }
  if (tool === "npx") {
    const [command, execArgs] = managers[manager].exec(args);
    return sh(dir, command, execArgs);
  }
  return sh(dir, tool as string, args);
}

describe("the README's workflow section", () => {
  it("is complete: files, commands and the expected output", () => {
    expect(section.files.map((f) => f.path)).toEqual(["acp.table.ts", "src/agent.ts", "src/client.ts", "tsconfig.json"]);
    expect(section.steps.map((s) => s.line)).toEqual([
      "npm init -y",
      "npm pkg set type=module",
      "npm install acp-router",
      "npm install --save-dev typescript@5.9.3 @types/node@20.19.25 ts-morph@28.0.0 ajv@8.20.0 json-schema-to-typescript@16.0.0",
      "npx acp-router codegen --table acp.table.ts --out src/acp",
      "npx acp-router codegen --table acp.table.ts --out src/acp --check",
      "npx tsc",
      "node dist/src/client.js",
    ]);
    expect(section.output).toBe('{"text":"HI","progress":[50],"code":-32002}\n');
  });
});

describe.each(["npm", "pnpm"] as const)("a fresh project that installs the packed tarball with %s", (manager) => {
  let dir: string;
  const results: Ran[] = [];

  beforeAll(async () => {
    // A folder with a valid package name: `npm init -y` names the project after it.
    dir = join(await mkdtemp(join(tmpdir(), `acp-consumer-${manager}-`)), "my-agent");
    await mkdir(dir);
    // No package.json of our own: the README's first two commands make it (`npm init -y`, then `"type": "module"`).
    for (const file of section.files) {
      await mkdir(dirname(join(dir, file.path)), { recursive: true });
      await writeFile(join(dir, file.path), file.body);
    }
    for (const step of section.steps) {
      const ran = await runStep(manager, dir, step);
      if (ran.code !== 0) throw new Error(`${manager}: "${step.line}" exited ${ran.code}\n${ran.stdout}\n${ran.stderr}`);
      if (step.argv[1] === "init" || step.argv[1] === "pkg") continue; // the project's own setup: results[] starts at the install
      results.push(ran);
      if (step.line === "npm install acp-router") {
        results.push(await runtimeOnly(manager, dir));
        const [cmd, args] = managers[manager].exec(["acp-router", "codegen", "--table", "acp.table.ts", "--out", "src/acp"]);
        results.push(await sh(dir, cmd, args));
      }
    }
  }, 600_000);

  afterAll(async () => {
    if (dir) await rm(dirname(dir), { recursive: true, force: true });
  });

  it("installs a runtime with no dependencies of its own", () => {
    const listed = results[1] as Ran;
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(dir);
    expect(lines[1]).toMatch(/node_modules\/(\.pnpm\/acp-router@[^/]+\/node_modules\/)?acp-router$/);
  });

  it("says in one line what to install when the generator's packages are missing", () => {
    expect(results[2]).toMatchObject({
      code: 2,
      stdout: "",
      stderr: "acp-router codegen needs ts-morph@28.0.0, ajv@8.20.0, json-schema-to-typescript@16.0.0: npm install --save-dev ts-morph@28.0.0 ajv@8.20.0 json-schema-to-typescript@16.0.0\n",
    });
  });

  it("runs the shipped generator, whose --check passes on what it wrote", async () => {
    expect(results[4]?.stderr).toBe("codegen: wrote 12 files to src/acp\n");
    expect(results[5]?.stderr).toBe("codegen --check: 12 files up to date\n");
    // The generated entry binds the table's halves with the runtime's one implementation (no per-table connect.ts).
    const index = await readFile(join(dir, "src/acp/index.ts"), "utf8");
    expect(index.split("\n").slice(0, 4)).toEqual([
      "// @generated by `acp-router codegen` from acp.table.ts and the pinned ACP schema.",
      "// Do not edit: change acp.table.ts and run `acp-router codegen`.",
      'import { bindAgent, bindClient, type BoundProtocol } from "acp-router/runtime";',
      'import { agentProtocol } from "./agent.js";',
    ]);
  });

  it("compiles with plain tsc (NodeNext, strict, skipLibCheck false) and runs under node with one copy of the library", () => {
    expect(results[6]).toMatchObject({ code: 0, stdout: "" });
    expect(results[7]?.stdout).toBe(section.output);
  });

  it("lets the installed inspect judge the project's own rows with --table (the compiled folder)", async () => {
    const input = [
      { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } },
      { jsonrpc: "2.0", id: 1, method: "_example.com/echo", params: { text: 5 } },
    ]
      .map((m) => `${JSON.stringify(m)}\n`)
      .join("");
    const [cmd, args] = managers[manager].exec(["acp-router", "inspect", "--table", "dist/src/acp", "--summary", "inspect.json", "--", process.execPath, "dist/src/agent.js"]);
    const ran = await runProcess(cmd, args, { cwd: dir, input, timeoutMs: 120_000 });
    expect(ran.code).toBe(0);
    const answers = ran.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: number; error?: { code: number } });
    expect(answers.map((a) => [a.id, a.error?.code])).toEqual([
      [0, undefined],
      [1, -32602],
    ]);
    const summary = JSON.parse(await readFile(join(dir, "inspect.json"), "utf8")) as { violations: { rule: string; by: string; example: string }[] };
    expect(summary.violations.map((v) => `${v.rule} ${v.by}: ${v.example}`)).toEqual([
      // Both lines are written at once, so the second goes out before initialize is answered: inspect says so too.
      "init-order client: client sent _example.com/echo before initialize was answered",
      "schema client: _example.com/echo params do not match v1 EchoParams: /text: must be string",
    ]);
  }, 600_000);

  it("runs the same client under tsx and bundled by esbuild", async () => {
    await addTools(dir, true, ["tsx@4.23.15", "esbuild@0.28.2"]);
    const [tsx, tsxArgs] = managers[manager].exec(["tsx", "src/client.ts"]);
    expect((await sh(dir, tsx, tsxArgs)).stdout).toBe(section.output);
    for (const entry of ["agent", "client"]) {
      const [esb, esbArgs] = managers[manager].exec(["esbuild", `src/${entry}.ts`, "--bundle", "--platform=node", "--format=esm", `--outfile=bundle/${entry}.js`]);
      expect((await sh(dir, esb, esbArgs)).code).toBe(0);
    }
    const bundled = await sh(dir, process.execPath, ["bundle/client.js"]);
    expect(bundled.stdout).toBe(section.output);
  }, 600_000);

  it("serves a runtime-registered extension validated by zod, without codegen, over stdio", async () => {
    await addTools(dir, false, ["zod@4.6.7"]);
    for (const name of ["shared.ts", "ext-agent.ts", "ext-client.ts"]) await writeFile(join(dir, "src", name), await readFile(join(root, "test/package/consumer-ext", name), "utf8"));
    const [tsc, tscArgs] = managers[manager].exec(["tsc"]);
    expect(await sh(dir, tsc, tscArgs)).toMatchObject({ code: 0, stdout: "" });
    const ran = await sh(dir, process.execPath, ["dist/src/ext-client.js"]);
    expect(JSON.parse(ran.stdout)).toEqual({
      text: "HI",
      progress: [50],
      invalid: { code: -32602, data: { errors: [{ path: "/text", message: expect.stringContaining("string") }] } },
      missing: -32002,
    });
  }, 600_000);

  it("fails --check after a table edit, naming the stale files, and regenerates", async () => {
    const table = join(dir, "acp.table.ts");
    const original = await readFile(table, "utf8");
    await writeFile(table, original.replace('"_example.com/progress"', '"_example.com/progress2"'));
    const [cmd, args] = managers[manager].exec(["acp-router", "codegen", "--table", "acp.table.ts", "--out", "src/acp", "--check"]);
    const stale = await sh(dir, cmd, args);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain("codegen --check: src/acp is stale; run `acp-router codegen --table acp.table.ts --out src/acp`. Differing files:\n");
    expect(stale.stderr).toContain("  router.ts\n");
    await writeFile(table, original);
    expect((await sh(dir, cmd, args)).code).toBe(0);
  }, 600_000);
});

/** Lists what a runtime-only install holds, one path a line: `npm ls --omit=dev`, or pnpm's production list. */
async function runtimeOnly(manager: Manager, dir: string): Promise<Ran> {
  if (manager === "npm") return sh(dir, "npm", ["ls", "--omit=dev", "--all", "--parseable"]);
  return sh(dir, pnpm, ["list", "--prod", "--depth", "Infinity", "--parseable"]);
}
