// `npm run demo`: the example client negotiates with the example agent over real stdio; both speak v2,
// so the tour runs over v2 (prompt acknowledged, updates streamed, the turn ended by an idle state_update).
import { spawn } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { exampleClientPath, repoRoot } from "./support.ts";

/** The tour must be over well before this; past it the client is killed and the tests fail. */
const DEADLINE_MS = 15_000;

function runClient(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string; killed: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", exampleClientPath, ...args], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    const run = { code: null as number | null, stdout: "", stderr: "", killed: false };
    child.stdout.setEncoding("utf8").on("data", (text: string) => (run.stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (run.stderr += text));
    const timer = setTimeout(() => {
      run.killed = true;
      child.kill("SIGKILL");
    }, DEADLINE_MS);
    child.once("close", (code) => {
      clearTimeout(timer);
      run.code = code;
      resolve(run);
    });
  });
}

describe("the example client's tour, negotiated (npx tsx examples/client.ts --tour)", () => {
  let out: string;
  let run: Awaited<ReturnType<typeof runClient>>;

  beforeAll(async () => {
    run = await runClient(["--tour"]);
    out = run.stdout;
  }, DEADLINE_MS + 5000);

  it("connects over protocol 2, finishes every step and exits 0 with nothing on stderr", () => {
    expect({ killed: run.killed, code: run.code, stderr: run.stderr }).toEqual({ killed: false, code: 0, stderr: "" });
    expect(out).toMatch(/^Connected to acp-router-example-agent 0\.1\.0 \(protocol 2\)$/m);
    expect(out).toContain("\nTour done (protocol 2): 5 steps ran.\n");
    expect(out.trimEnd().endsWith("Agent exited (code 0).")).toBe(true);
  });

  it("shows each prompt acknowledged, its answer streamed, and the turn ended by the idle state_update's stop reason", () => {
    expect(out).toContain("> hello from the acp-router tour\n  (acknowledged: message user-1)\nYou said (v2): hello from the acp-router tour\n[stop: end_turn]\n");
    expect(out).toContain("plan: [x] Understand the request · [x] Sketch the change · [x] Report back");
    expect(out.match(/\[stop: \w+\]/g)).toEqual(["[stop: end_turn]", "[stop: end_turn]", "[stop: cancelled]"]);
  });

  it("cancels the slow prompt with session/cancel after its acknowledgement, long before the count ends", () => {
    const slow = out.slice(out.indexOf("Counting slowly:"), out.indexOf("[stop: cancelled]"));
    const counted = slow.replace(/^.*session\/cancel.*$/m, "").match(/\d+/g) ?? [];
    expect(counted.slice(0, 3)).toEqual(["1", "2", "3"]);
    expect(counted.length).toBeLessThan(50);
  });

  it("lists the session with its title and closes it", () => {
    expect(out).toMatch(/\n> \/list\n {2}[\w-]+ \(this one\): hello from the acp-router tour\n {2}1 session\n/);
    expect(out).toContain("\n> /close\n  closed\n");
  });
});

describe("the example client with --protocol 2 against a v1-only agent", () => {
  it(
    "fails saying the agent answered protocol version 1",
    async () => {
      const v1Agent = `${JSON.stringify(process.execPath)} --import tsx test/peers/sdk-agent.ts`;
      const run = await runClient(["--protocol", "2", "--prompt", "hi", "--agent", v1Agent]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("the agent answered protocol version 1; this client offers 2 only");
    },
    DEADLINE_MS + 5000,
  );
});
