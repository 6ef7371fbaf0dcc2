// The switch to the drop-in is one line of package.json, as if it were published: the packed
// package (acp-router-sdk, compat/sdk/pack.ts) is served by a registry on loopback (registry.ts:
// its packument and tarball, nothing else), a fresh project depends on
// `"@agentclientprotocol/sdk": "npm:acp-router-sdk@<version>"` and `npm install`s it from there,
// and an agent and a client written against the SDK's API run through it over stdio.
import { execFile, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveTarball, type LoopbackRegistry } from "./registry.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
let project: string;
let registry: LoopbackRegistry;
let manifest: { name: string; version: string };

/** The project's one line: the SDK's name, aliased to the drop-in's published name and version. */
const switchLine = () => ({ "@agentclientprotocol/sdk": `npm:${manifest.name}@${manifest.version}` });

beforeAll(async () => {
  const printed = execFileSync(process.execPath, ["--import", "tsx", join(root, "compat/sdk/pack.ts")], { cwd: root, encoding: "utf8" });
  const tarball = printed.trim().split("\n").at(-1) as string;
  manifest = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" })) as { name: string; version: string };
  registry = await serveTarball(tarball, manifest);
  project = mkdtempSync(join(tmpdir(), "sdk-published-"));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module", dependencies: switchLine() }, null, 2));
  // A cache of its own, so the package comes from the registry above and not from an earlier install.
  // Asynchronously: the registry answers from this process.
  await promisify(execFile)("npm", ["install", "--registry", registry.url, "--cache", join(project, ".npm-cache"), "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-online"], { cwd: project, timeout: 120_000 });
}, 180_000);
afterAll(async () => {
  await registry?.close();
  if (project !== undefined) rmSync(project, { recursive: true, force: true });
});

describe("switching with one line, from the package as published", () => {
  it("installs the drop-in under the SDK's name from the registry, and only it", () => {
    const installed = JSON.parse(readFileSync(join(project, "node_modules/@agentclientprotocol/sdk/package.json"), "utf8")) as { name: string; version: string };
    expect(installed).toMatchObject({ name: "acp-router-sdk", version: manifest.version });
    expect(registry.served()).toEqual([`/${manifest.name}`, `/${manifest.name}/-/${manifest.name}-${manifest.version}.tgz`]);
    const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8")) as { packages: Record<string, { name?: string; version?: string; inBundle?: boolean }> };
    expect(lock.packages["node_modules/@agentclientprotocol/sdk"]).toMatchObject({ name: manifest.name, version: manifest.version });
    expect(lock.packages["node_modules/@agentclientprotocol/sdk/node_modules/acp-router"]?.inBundle).toBe(true);
  });

  it("is the version docs/sdk-drop-in.md and the package's README tell users to name", () => {
    const line = `"@agentclientprotocol/sdk": "npm:${manifest.name}@${manifest.version}"`;
    expect(readFileSync(join(root, "docs/sdk-drop-in.md"), "utf8")).toContain(line);
    expect(readFileSync(join(project, "node_modules/@agentclientprotocol/sdk/README.md"), "utf8")).toContain(line);
  });

  it("runs an SDK agent and an SDK client through it over stdio", async () => {
    writeFileSync(
      join(project, "agent.mjs"),
      `import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
acp.agent({ name: "published" })
  .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {}, authMethods: [] }))
  .onRequest(acp.methods.agent.session.new, () => ({ sessionId: "s1" }))
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    for (const text of ["one ", "two"]) await client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });
    return { stopReason: "end_turn" };
  })
  .connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
`,
    );
    writeFileSync(
      join(project, "client.mjs"),
      `import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
const child = spawn(process.execPath, ["agent.mjs"], { stdio: ["pipe", "pipe", "inherit"] });
const result = await acp.client({ name: "published-client" }).connectWith(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)), async (agent) => {
  const init = await agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const session = await agent.buildSession(process.cwd()).start();
  const reading = session.readText();
  await session.prompt("hello");
  return { protocolVersion: init.protocolVersion, sessionId: session.sessionId, text: await reading };
});
child.kill();
process.stdout.write(JSON.stringify(result) + "\\n");
`,
    );
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ["client.mjs"], { cwd: project, stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
      child.on("error", reject);
      child.on("exit", () => resolve(out));
    });
    expect(JSON.parse(output)).toEqual({ protocolVersion: 1, sessionId: "s1", text: "one two" });
  });
});
