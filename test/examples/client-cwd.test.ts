// Issue 30: the example client's --tour runs its session in the folder the client was started in
// (process.cwd()), not in this checkout, so an agent on tour works where the user is.
import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const client = fileURLToPath(new URL("../../examples/client.ts", import.meta.url));

describe("examples/client.ts --tour", () => {
  it("uses the process's working folder as the session cwd", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "acp-tour-cwd-")));
    const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), client, "--tour", "--protocol", "1"], { cwd: dir, stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 50_000);
    const code = await new Promise<number | null>((resolve) => child.once("close", (c) => resolve(c)));
    clearTimeout(timer);
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`^Session \\S+ in ${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[,\\n]`, "m"));
  }, 60_000);
});
