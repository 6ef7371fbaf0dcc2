// `npm run pack:sdk` builds a tarball (the drop-in's own package, acp-router-sdk) that installs under
// @agentclientprotocol/sdk's name with nothing fetched (the acp-router it needs is bundled), runs an
// agent written against the SDK's API, and type-checks code written against its types.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
let project: string;
let tarball: string;

beforeAll(() => {
  const printed = execFileSync(process.execPath, ["--import", "tsx", join(root, "compat/sdk/pack.ts")], { cwd: root, encoding: "utf8" });
  tarball = printed.trim().split("\n").at(-1) as string;
  project = mkdtempSync(join(tmpdir(), "sdk-drop-in-"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module" }));
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", `@agentclientprotocol/sdk@file:${tarball}`], { cwd: project, stdio: "ignore" });
}, 120_000);
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** Runs `file` in the project with `lines` on stdin; resolves with the lines it wrote once stdin ended. */
function run(file: string, lines: readonly string[]): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { cwd: project, stdio: ["pipe", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.on("error", reject);
    child.on("exit", () =>
      resolve(
        out
          .split("\n")
          .filter((l) => l !== "")
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      ),
    );
    child.stdin.end(lines.map((l) => `${l}\n`).join(""));
  });
}

describe("the packed compatibility package", () => {
  it("prints the tarball's path last, and installs under the SDK's name offline: its only dependency, acp-router, is bundled", async () => {
    expect(tarball).toMatch(/acp-router-sdk-2\.4\.0-acp-router\.\d+\.\d+\.\d+\.tgz$/);
    const manifest = (await import(join(project, "node_modules/@agentclientprotocol/sdk/package.json"), { with: { type: "json" } })) as { default: { name: string; version: string; dependencies?: Record<string, string>; bundleDependencies?: string[] } };
    expect(manifest.default).toMatchObject({ name: "acp-router-sdk", version: expect.stringMatching(/^2\.4\.0-acp-router\./) });
    expect(Object.keys(manifest.default.dependencies ?? {})).toEqual(["acp-router"]);
    expect(manifest.default.bundleDependencies).toEqual(["acp-router"]);
  });

  it("offers every entry SDK 2.4.0 exports", async () => {
    const read = async (file: string) => ((await import(file, { with: { type: "json" } })) as { default: { exports: Record<string, unknown> } }).default.exports;
    const ours = Object.keys(await read(join(project, "node_modules/@agentclientprotocol/sdk/package.json"))).sort();
    const sdk = Object.keys(await read(join(root, "node_modules/@agentclientprotocol/sdk/package.json"))).sort();
    expect(sdk.filter((entry) => !ours.includes(entry))).toEqual([]);
    expect(ours.filter((entry) => !sdk.includes(entry))).toEqual(["./package.json"]);
  });

  it("runs an agent written against the SDK's API over stdio, with the core's answers to bad input", async () => {
    writeFileSync(
      join(project, "agent.mjs"),
      `import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
acp.agent({ name: "packed" })
  .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {}, authMethods: [] }))
  .onRequest(acp.methods.agent.session.new, () => ({ sessionId: "s1" }))
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    await client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } } });
    return { stopReason: "end_turn" };
  })
  .connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
`,
    );
    const answers = await run("agent.mjs", ["{oops", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } })]);
    expect(answers[0]).toMatchObject({ id: null, error: { code: -32700, message: "Parse error" } });
    expect(answers[1]).toEqual({ jsonrpc: "2.0", id: 1, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } });
  });

  it("type-checks the suite's SDK 2.4.0 agent against the package's types with tsc --noEmit", () => {
    cpSync(join(root, "test/peers/sdk-agent.ts"), join(project, "sdk-agent.ts"));
    const tsconfig = {
      compilerOptions: { target: "ES2022", lib: ["ES2023", "DOM"], module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: false, types: ["node"], typeRoots: [join(root, "node_modules/@types")] },
      files: ["sdk-agent.ts"],
    };
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify(tsconfig));
    const tsc = join(root, "node_modules/typescript/bin/tsc");
    expect(() => execFileSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: project, encoding: "utf8" })).not.toThrow();
  });
});
