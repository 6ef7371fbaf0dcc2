/**
 * The mock agent's prompt grammar (`parseSteps`), the pre-flight check of a
 * turn (`preflight`), and the command line: every directive parses to its
 * step, every bad argument is an error naming the line, `--help` prints the
 * grammar, bad options exit 2.
 */
import { describe, expect, it } from "vitest";
import { preflight } from "../../tools/mock-agent/needs.ts";
import { DIRECTIVES, GRAMMAR, parseSteps } from "../../tools/mock-agent/steps.ts";
import { mockAgent } from "./mock-agent-support.ts";
import { runCommand } from "./support.ts";

describe("parseSteps", () => {
  it.each([
    ["#updates all", { op: "updates", kind: "all", count: 1 }],
    ["#updates message 3", { op: "updates", kind: "message", count: 3 }],
    ["#permission", { op: "permission" }],
    ["#read notes.txt", { op: "read", path: "notes.txt" }],
    ["#write a.txt one\\ntwo", { op: "write", path: "a.txt", text: "one\ntwo" }],
    ["#terminal ls -la", { op: "terminal", command: "ls -la", kill: false }],
    ["#terminal-kill sleep 9", { op: "terminal", command: "sleep 9", kill: true }],
    ["#elicit", { op: "elicit" }],
    ["#big 1024", { op: "big", bytes: 1024 }],
    ["#sleep 0", { op: "sleep", ms: 0 }],
    ["#hang", { op: "hang" }],
    ["#error -32042 went wrong", { op: "error", code: -32042, message: "went wrong" }],
    ["#error 7", { op: "error", code: 7, message: "mock-agent error 7" }],
    ["#unknown-update", { op: "unknown-update" }],
    ["#meta", { op: "meta" }],
    ["#foreign-session", { op: "foreign-session" }],
    ["#die", { op: "die", code: 1 }],
    ["#die 7", { op: "die", code: 7 }],
    ["#silent", { op: "silent" }],
    ["#ignore-term", { op: "ignore-term" }],
    ["#linger", { op: "linger" }],
    ["#grandchild", { op: "grandchild" }],
  ])("%s", (text, step) => {
    expect(parseSteps(text)).toEqual({ steps: [step] });
  });

  it("has a case above for every directive, and the help names each", () => {
    expect(DIRECTIVES).toHaveLength(19);
    for (const d of DIRECTIVES) expect(GRAMMAR).toContain(`#${d}`);
  });

  it("joins consecutive plain lines into one echo and skips blank lines", () => {
    expect(parseSteps("one\ntwo\n\n#sleep 1\nthree")).toEqual({
      steps: [
        { op: "echo", text: "one\ntwo" },
        { op: "sleep", ms: 1 },
        { op: "echo", text: "three" },
      ],
    });
  });

  it.each([
    ["ok\n#sleep", 2, "#sleep MS must be an integer from 0 to 60000"],
    ["#sleep 60001", 1, "#sleep MS must be an integer from 0 to 60000"],
    ["#big 16777217", 1, "#big BYTES must be an integer from 1 to 16777216"],
    ["#updates", 1, "#updates needs a KIND (or all)"],
    ["#updates all 0", 1, "#updates N must be an integer from 1 to 1000"],
    ["#updates all 2 3", 1, "#updates takes KIND [N]"],
    ["#permission now", 1, "#permission takes no arguments"],
    ["#write only-a-path", 1, "#write needs PATH TEXT"],
    ["#error oops", 1, "#error needs an integer CODE"],
    ["#terminal", 1, "#terminal needs a command"],
    ["#die 256", 1, "#die CODE must be an integer from 0 to 255"],
    ["#linger now", 1, "#linger takes no arguments"],
    ["#toString", 1, 'unknown directive "#toString"'],
  ])("refuses %j at line %i", (text, line, error) => {
    const parsed = parseSteps(text);
    expect(parsed).toMatchObject({ line });
    expect((parsed as { error: string }).error).toContain(error);
  });
});

describe("preflight", () => {
  const steps = (text: string) => (parseSteps(text) as { steps: never[] }).steps;
  it("passes a turn the client's capabilities and the version serve", () => {
    expect(preflight(steps("#read a\n#write a b\n#terminal ls\n#elicit"), 1, { fs: { readTextFile: true, writeTextFile: true }, terminal: true, elicitation: { form: {} } })).toBeUndefined();
    expect(preflight(steps("#updates all\n#elicit"), 2, { elicitation: { form: {} } })).toBeUndefined();
  });
  it("names the first step that cannot run", () => {
    expect(preflight(steps("#read a\n#terminal ls"), 1, { fs: { readTextFile: true } })).toBe("#terminal: terminal/create needs the client capability terminal, which the client did not advertise");
    expect(preflight(steps("#write a b"), 1, { fs: { readTextFile: true, writeTextFile: false } })).toContain("fs.writeTextFile");
    expect(preflight(steps("#terminal ls"), 2, {})).toBe("#terminal: ACP v2 has no terminal/create method (v2 clients offer no fs or terminal methods)");
    expect(preflight(steps("#updates mode"), 2, {})).toContain("ACP v2 has no such update kind");
    expect(preflight(steps("#updates compaction"), 1, { session: { compaction: null } })).toContain("session.compaction");
  });
});

describe("acp-router mock-agent options", () => {
  it("--help prints the usage and the grammar on stderr and exits 0", async () => {
    const run = await runCommand(mockAgent("--help"));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("usage: acp-router mock-agent [--listen HOST:PORT] [--protocol 1|2|negotiate] [--script FILE]");
    expect(run.stderr).toContain(GRAMMAR);
    expect(run.stdout.length).toBe(0);
  });
  it.each([
    [["--protocol", "3"], 'acp-router mock-agent: --protocol is 1, 2 or negotiate, got "3"\n'],
    [["--listen", "nowhere"], 'acp-router mock-agent: --listen wants HOST:PORT, got "nowhere"\n'],
    [["--script", "/nonexistent/scenario.json"], "acp-router mock-agent: /nonexistent/scenario.json: cannot read: "],
  ])("%j exits 2 with a message", async (args, message) => {
    const run = await runCommand(mockAgent(...args));
    expect(run.code).toBe(2);
    expect(run.stderr.startsWith(message)).toBe(true);
  });
});
