// A third-party ACP client drives the example agent: acpx (npm), headless, over stdio.
// acpx declares Node >= 22.13 but runs its `exec` path on Node 20; HOME points at a temp
// folder so it touches nothing of the user's.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../", import.meta.url));
const acpx = join(root, "node_modules", ".bin", "acpx");
const agentCommand = `${process.execPath} --import tsx examples/agent.ts`;

describe("the example agent under acpx", () => {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "acpx-home-"));
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  const exec = (args: string[]) => run(acpx, args, { cwd: root, timeout: 60_000, env: { ...process.env, HOME: home } });

  it("prints the echoed text for `acpx --agent ... exec hello`", async () => {
    const { stdout } = await exec(["--agent", agentCommand, "exec", "hello"]);
    expect(stdout).toContain("You said (ask mode): hello");
    expect(stdout).toContain("end_turn");
  }, 70_000);

  it("reads a file through acpx's fs handlers after it approves the permission request", async () => {
    const { stdout } = await exec(["--approve-all", "--format", "quiet", "--agent", agentCommand, "exec", `read ${join(root, "package.json")}`]);
    expect(stdout).toContain(`The first lines of ${join(root, "package.json")}:`);
    expect(stdout).toContain('"name": "acp-router",');
  }, 70_000);
});
