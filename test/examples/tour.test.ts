// The example client's v1 tour against the example agent, both over real stdio. `--protocol 1`: by
// default the client negotiates, and with this agent that is v2 (test/examples/tour-v2.test.ts).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { exampleClientPath, repoRoot } from "./support.ts";

/** The tour must be over well before this; past it the client is killed and the tests fail. */
const DEADLINE_MS = 15_000;

interface TourRun {
  code: number | null;
  stdout: string;
  stderr: string;
  killed: boolean;
}

function runTour(): Promise<TourRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", exampleClientPath, "--tour", "--protocol", "1"], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    const run: TourRun = { code: null, stdout: "", stderr: "", killed: false };
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

describe("the example client's v1 tour (npx tsx examples/client.ts --tour --protocol 1)", () => {
  let tour: TourRun;
  let out: string;
  const file = join(repoRoot, "package.json");

  beforeAll(async () => {
    tour = await runTour();
    out = tour.stdout;
  }, DEADLINE_MS + 5000);

  it("finishes before the deadline, exits 0 with nothing on stderr, after the agent exited 0 on its own", () => {
    expect({ killed: tour.killed, code: tour.code, stderr: tour.stderr }).toEqual({ killed: false, code: 0, stderr: "" });
    expect(out.trimEnd().endsWith("Agent exited (code 0).")).toBe(true);
  });

  it("shows the hello echoed back by the agent", () => {
    expect(out).toContain("> hello from the acp-router tour\n");
    expect(out).toMatch(/^You said \(ask mode\): hello from the acp-router tour$/m);
  });

  it("shows the permission question, the tool call completing and the file's first lines", () => {
    expect(out).toContain(`? permission for "Read ${file}": allow_once | reject_once -> allow_once (policy allow)`);
    expect(out).toMatch(/tool read-\d+: Read .*package\.json -> completed/);
    for (const line of readFileSync(file, "utf8").split("\n").slice(0, 3)) expect(out).toContain(`${line}\n`);
  });

  it("shows the plan, ending with every entry done", () => {
    expect(out).toContain("plan: [ ] Understand the request · [ ] Sketch the change · [ ] Report back");
    expect(out).toContain("plan: [x] Understand the request · [x] Sketch the change · [x] Report back");
    expect(out).toContain("mode is now code");
  });

  it("shows the slow prompt counting, then cancelled", () => {
    const slow = out.slice(out.indexOf("Counting slowly:"), out.indexOf("[stop: cancelled]"));
    const counted = slow.replace(/^.*sending session\/cancel.*$/m, "").match(/\d+/g) ?? [];
    expect(counted.slice(0, 3)).toEqual(["1", "2", "3"]);
    expect(counted.length).toBeLessThan(50); // cancelled after about a second, far from the hundred of a full turn
    expect(out.match(/\[stop: \w+\]/g)).toEqual(["[stop: end_turn]", "[stop: end_turn]", "[stop: end_turn]", "[stop: cancelled]"]);
  });

  it("skips the config step, saying the example agent advertised no config options", () => {
    expect(out).toContain("\n== 5. Config options: skipped, the agent advertised no config options\n");
  });

  it("lists the session with its title, loads it (the history replayed, counted) and closes it", () => {
    expect(out).toMatch(/\n> \/list\n {2}[\w-]+ \(this one\): hello from the acp-router tour\n {2}1 session\n/);
    const replayed = /\n> \/load\n {2}the agent replayed (\d+) updates\n/.exec(out);
    // Every update of the tour so far, the user's own prompts included: far more than the four prompts.
    expect(Number(replayed?.[1])).toBeGreaterThan(10);
    expect(out).toContain("\n== 12. Closing the session (session/close)\n\n> /close\n  closed\n");
    expect(out).toContain("\nTour done: 8 steps ran; skipped: 5, 9, 10, 11.\n");
  });
});
