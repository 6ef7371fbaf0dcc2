// The example client (examples/client.ts) driving an agent written on the official SDK (test/peers/sdk-agent.ts).
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOk } from "../support/process.ts";
import { runClient, type RunClientResult } from "../../examples/client.ts";
import { exampleClientPath, repoRoot, sdkAgentPath } from "./support.ts";

const node = JSON.stringify(process.execPath); // quoted for the SDK agent's tokenizer
const sdkAgent = [process.execPath, "--import", "tsx", sdkAgentPath];

describe("the example client driving the official SDK's agent", () => {
  let dir: string;
  let transcript = "";
  let result: RunClientResult;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "acp-example-client-"));
    await writeFile(join(dir, "notes.txt"), "first note\nsecond note\n");
    result = await runClient({
      agentCommand: sdkAgent,
      cwd: dir,
      agentStderr: "capture",
      output: { write: (text: string) => (transcript += text) },
      prompts: [
        "echo hello from the example client",
        `read ${join(dir, "notes.txt")}`,
        `read ${join(repoRoot, "package.json")}`,
        `read ${join(dir, "missing.txt")}`,
        `write ${join(dir, "sub", "out.txt")} written by the agent`,
        `terminal ${node} -e "process.stdout.write(String(6 * 7))"`,
        `terminal-kill ${node} -e "setTimeout(() => {}, 20000)"`,
        "permission",
      ],
    });
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("completes every turn and the agent exits 0 once the connection closes", () => {
    expect(result.stopReasons).toEqual(Array(8).fill("end_turn"));
    expect(result.agentExit).toEqual({ code: 0, signal: null });
    expect(transcript).toMatch(/^Connected to sdk-agent 0\.0\.0 \(protocol 1\)$/m);
    expect(transcript.trimEnd().endsWith("Agent exited (code 0).")).toBe(true);
  });

  it("prints each prompt and the streamed reply", () => {
    expect(transcript).toContain("> echo hello from the example client\nhello from the example client\n[stop: end_turn]");
  });

  it("answers fs/read_text_file from the disk inside the session's cwd", () => {
    expect(transcript).toContain(`> read ${join(dir, "notes.txt")}\nfirst note\nsecond note\n[stop: end_turn]`);
  });

  it("refuses a path outside the session's cwd with -32602 and a missing file with -32002", () => {
    expect(transcript).toContain(`> read ${join(repoRoot, "package.json")}\nerror:-32602:Invalid params\n`);
    expect(transcript).toContain(`> read ${join(dir, "missing.txt")}\nerror:-32002:Resource not found\n`);
  });

  it("answers fs/write_text_file by writing the file, creating its directory", async () => {
    expect(await readFile(join(dir, "sub", "out.txt"), "utf8")).toBe("written by the agent");
  });

  it("runs terminal/* with real child processes: output and exit code, and kill", () => {
    expect(transcript).toContain("exit:0 output:42\n");
    expect(transcript).toMatch(/exit:null signal:SIGTERM output:\n/);
  });

  it("answers the permission request by the allow policy and shows it", () => {
    expect(transcript).toContain('? permission for "Run a dangerous thing": allow | reject -> allow (policy allow)');
    expect(transcript).toContain("outcome:selected:allow");
  });
});

describe("the example client's command line", () => {
  it("takes --agent and --prompt and prints the transcript on stdout", async () => {
    const agent = `${node} --import tsx ${JSON.stringify(sdkAgentPath)}`;
    const { stdout } = await runOk(process.execPath, ["--import", "tsx", exampleClientPath, "--agent", agent, "--prompt", "echo via the command line", "--permission", "reject", "--prompt", "permission"], { cwd: repoRoot });
    expect(stdout).toContain("> echo via the command line\nvia the command line\n[stop: end_turn]");
    expect(stdout).toContain("-> reject (policy reject)");
    expect(stdout).toContain("outcome:selected:reject");
  });
});

describe("the example client's tour against the official SDK's agent (no modes, no config options, no list/load/close)", () => {
  it("runs the steps the agent can follow, says which it skipped and why, and exits 0", async () => {
    const agent = `${node} --import tsx ${JSON.stringify(sdkAgentPath)}`;
    const { stdout } = await runOk(process.execPath, ["--import", "tsx", exampleClientPath, "--tour", "--agent", agent], { cwd: repoRoot });
    // runOk rejects on a non-zero exit, so reaching here means the client exited 0.
    expect(stdout.match(/^== .*$/gm)).toEqual([
      "== 1. A first prompt: a greeting, its answer streamed",
      "== 2. A prompt about a file in the session's directory (the agent may ask permission and read it through fs/read_text_file)",
      "== 3. A prompt asking for a plan",
      "== 4. Modes: skipped, the agent advertised no session modes",
      "== 5. Config options: skipped, the agent advertised no config options",
      "== 6. Cancellation: a long prompt, cancelled after 1 s with session/cancel",
      "== 7. Listing sessions: skipped, the agent does not advertise session/list",
      "== 8. Loading the session: skipped, the agent does not advertise session/load",
      "== 9. Resuming the session: skipped, the agent does not advertise session/resume",
      "== 10. Forking the session: skipped, the agent does not advertise session/fork (unstable)",
      "== 11. Models: skipped, the agent offered no models",
      "== 12. Closing the session: skipped, the agent does not advertise session/close",
    ]);
    expect(stdout).toContain("> hello from the acp-router tour\nhello from the acp-router tour\n[stop: end_turn]");
    expect(stdout.match(/\[stop: \w+\]/g)).toEqual(["[stop: end_turn]", "[stop: end_turn]", "[stop: end_turn]", "[stop: cancelled]"]);
    expect(stdout).not.toContain("session/set_mode");
    expect(stdout).toContain("\nTour done: 4 steps ran; skipped: 4, 5, 7, 8, 9, 10, 11, 12.\n");
    expect(stdout.trimEnd().endsWith("Agent exited (code 0).")).toBe(true);
  });
});
