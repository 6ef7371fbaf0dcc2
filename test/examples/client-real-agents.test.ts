// Issue 20 items 1 and 11: the example client against scripted stub agents that behave like real ones —
// lingering behind `sh -c`, authentication required (methods in initialize, in the error's data,
// env_var), every update kind, a slow start — run as a user runs it, from the command line.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { allGone, pidsIn } from "../support/process-group.ts";
import { exampleClientPath, repoRoot } from "./support.ts";

const stub = fileURLToPath(new URL("../fixtures/stub-agent.mjs", import.meta.url));

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `examples/client.ts --protocol 1 <args>` to its end (killed after 25 s: a hang fails the test). */
function client(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", exampleClientPath, "--protocol", "1", ...args], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 25_000);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
/** Per-test bound: each test starts the client through tsx, which is slow on a loaded machine. */
const SLOW = 60_000;
const agent = (flags: string) => `"${process.execPath}" "${stub}" ${flags}`;

describe("the example client against agents as they are", () => {
  it(
    "exits after its last step when the agent lingers behind sh -c (the issue's repro), reporting it, and leaves nothing running",
    async () => {
      const pids = join(mkdtempSync(join(tmpdir(), "acp-client-")), "pids");
      const run = await client(["--prompt", "hi", "--exit-grace", "500", "--agent", `sh -c '${agent(`--linger --pidfile=${pids}`)}; true'`]);
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
      expect(run.stdout).toContain("[stop: end_turn]\n\nAgent did not exit within 500 ms of stdin closing; terminated.\n");
      expect(pidsIn(pids)).toHaveLength(1);
      expect(await allGone(pidsIn(pids))).toEqual([]);
    },
    SLOW,
  );

  it(
    "lists the auth methods of initialize (with the terminal login) and says how to pick one when the agent needs it",
    async () => {
      const run = await client(["--prompt", "hi", "--agent", agent("--auth=init")]);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(["Authentication methods (use --auth ID):", "  login: Log in (agent) — Sign in with your account; log in with: stub-agent login", "  token: Token (agent)"].join("\n"));
      expect(run.stderr).toBe("example client: Authentication required: pick a method with --auth login|token\n");
    },
    SLOW,
  );

  it(
    "lists the methods of the -32000 error's data, authenticates with --auth and runs the prompt",
    async () => {
      const run = await client(["--prompt", "hi", "--auth", "token", "--agent", agent("--auth=error")]);
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
      expect(run.stdout).toContain("  token: Token (agent)\nAuthenticated with token\nSession stub-1");
      expect(run.stdout).toContain("[stop: end_turn]");
    },
    SLOW,
  );

  it(
    "checks an env_var method's variables before authenticating, and authenticates once they are set",
    async () => {
      const unset = await client(["--prompt", "hi", "--auth", "api-key", "--agent", agent("--env-auth=STUB_API_KEY")], { STUB_API_KEY: "" });
      expect(unset.stdout).toContain("  api-key: API key (env_var); set STUB_API_KEY");
      expect({ code: unset.code, stderr: unset.stderr }).toEqual({ code: 1, stderr: "example client: authentication method api-key needs STUB_API_KEY set in the environment\n" });
      const set = await client(["--prompt", "hi", "--auth", "api-key", "--agent", agent("--env-auth=STUB_API_KEY")], { STUB_API_KEY: "k" });
      expect({ code: set.code, authenticated: set.stdout.includes("Authenticated with api-key"), stop: set.stdout.includes("[stop: end_turn]") }).toEqual({ code: 0, authenticated: true, stop: true });
    },
    2 * SLOW,
  );

  it(
    "tours the unstable features the agent advertises: session/fork through acp-router/unstable, and resume",
    async () => {
      const run = await client(["--tour", "--agent", agent("--unstable")]);
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
      expect(run.stdout).toContain("; supports session/resume, session/fork (unstable)\n");
      expect(run.stdout).toContain("\n== 9. Resuming this session (session/resume)\n\n> /resume\n  resumed\n");
      expect(run.stdout).toContain("\n== 10. Forking this session (unstable session/fork, through acp-router/unstable)\n\n> /fork\n  forked as stub-2\n");
      expect(run.stdout).toContain("\n== 11. Models: skipped, the agent offers fast, deep (current fast); session/set_model is not in the pinned ACP schema, so the tour does not call it\n");
    },
    SLOW,
  );

  it(
    "renders every update kind, and session/new's models, after a slow start",
    async () => {
      const run = await client(["--prompt", "hi", "--agent", agent("--updates --unstable --slow-start=1500")]);
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
      expect(run.stdout).toContain(", model fast of fast/deep\n");
      for (const line of [
        "  (thinking) thinking it over",
        "  plan: [~] answer",
        "  tool t1: Look around (read, pending)",
        "  tool t1: Look around -> completed",
        "  commands: /plan",
        "  mode is now ask",
        "  config: Effort=low",
        "  session title: Stub session",
        "  usage: 1200 of 200000 tokens (0.6%), cost 0.01 USD",
      ])
        expect(run.stdout).toContain(`${line}\n`);
      expect(run.stdout).not.toMatch(/\(\w+_update\)/);
    },
    SLOW,
  );
});
