// Issue 30 item 4: `check` in a CI pipeline. `--junit FILE` is read back with a real XML parser
// (fast-xml-parser), `--expect FILE` turns a known fail into exit 0 and a new fail into exit 1,
// `--only` / `--skip` select rows by id prefix. The agents are the scripted stubs of
// test/fixtures/check-agent.mjs: `ignore-cancel` breaks ACP-CANCEL-001 (and nothing else among the
// rows selected here).
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { applyExpectations, prefixes, renderJUnit, selectRows } from "../../tools/check/ci.ts";
import type { CheckReport, ScoreRow } from "../../tools/check/score.ts";
import { bundledCli, fixture, repoRoot, scratch, STUB_WINDOWS, tsNode } from "./support.ts";

const stub = fileURLToPath(new URL("../fixtures/check-agent.mjs", import.meta.url));

async function check(args: readonly string[], mode: string): Promise<{ code: number | null; stdout: string }> {
  const [file, ...rest] = bundledCli("check", ...STUB_WINDOWS, "--timeout", "2", "--cwd", scratch(), ...args, "--", process.execPath, stub, mode) as [string, ...string[]];
  return new Promise((resolve) => {
    const child = spawn(file, rest, { cwd: repoRoot, stdio: ["ignore", "pipe", "ignore"] });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 50_000);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout });
    });
  });
}

interface JUnitCase {
  "@_name": string;
  "@_classname": string;
  failure?: { "#text"?: string; "@_message": string };
  skipped?: { "@_message": string };
}
interface JUnitSuite {
  "@_tests": string;
  "@_failures": string;
  "@_skipped": string;
  testcase: JUnitCase[];
}

function readJUnit(file: string): JUnitSuite {
  const parser = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === "testcase" });
  const doc = parser.parse(readFileSync(file, "utf8")) as { testsuites: { testsuite: JUnitSuite } };
  return doc.testsuites.testsuite;
}

const expectFile = (entries: unknown) => {
  const file = join(scratch(), "expect.json");
  writeFileSync(file, JSON.stringify(entries));
  return file;
};
const KNOWN = [{ id: "ACP-CANCEL-001", outcome: "fail", reason: "our agent finishes the turn it started" }];

describe("check --junit / --expect / --only / --skip", () => {
  it("--junit writes one test case per row, the fail as a <failure> with its evidence, the rest skipped with their reason; exit 1", async () => {
    const junit = join(scratch(), "check.xml");
    const run = await check(["--junit", junit, "--only", "ACP-CANCEL"], "ignore-cancel");
    expect(run.code).toBe(1);
    const suite = readJUnit(junit);
    const names = suite.testcase.map((c) => c["@_name"].split(" ")[0]);
    expect(names.length).toBeGreaterThan(5);
    expect(names.every((n) => n?.startsWith("ACP-CANCEL-"))).toBe(true);
    expect({ tests: Number(suite["@_tests"]), failures: Number(suite["@_failures"]) }).toEqual({ tests: names.length, failures: 1 });
    const failed = suite.testcase.filter((c) => c.failure !== undefined);
    expect(failed.map((c) => [c["@_name"], c["@_classname"]])).toEqual([["ACP-CANCEL-001 (MUST)", "ACP-CANCEL"]]);
    expect(failed[0]?.failure?.["#text"]).toMatch(/answered stopReason "end_turn"/);
    const skipped = suite.testcase.filter((c) => c.skipped !== undefined);
    expect(Number(suite["@_skipped"])).toBe(skipped.length);
    expect(skipped.length).toBe(names.length - 1 - suite.testcase.filter((c) => c.failure === undefined && c.skipped === undefined).length);
    for (const c of skipped) expect(c.skipped?.["@_message"]).toMatch(/^(n\/a|not run|not observable): ./);
  }, 60_000);

  it("--expect: the known fail alone exits 0 (the JUnit file shows it skipped as expected); a new fail exits 1 and the stale expectation is noted", async () => {
    const accepted = expectFile(KNOWN);
    const junit = join(scratch(), "check.xml");
    const known = await check(["--expect", accepted, "--junit", junit, "--only", "ACP-CANCEL,ACP-JSONRPC-003"], "ignore-cancel");
    expect(known.code).toBe(0);
    expect(known.stdout).toContain("expected fails (--expect): ACP-CANCEL-001");
    const suite = readJUnit(junit);
    expect(Number(suite["@_failures"])).toBe(0);
    expect(suite.testcase.find((c) => c["@_name"].startsWith("ACP-CANCEL-001"))?.skipped?.["@_message"]).toBe("expected fail: our agent finishes the turn it started");
    // The same agent against a list that accepts another deviation: its fail is new.
    const other = expectFile([{ id: "ACP-JSONRPC-003", outcome: "fail", reason: "we answered notifications once" }]);
    const fresh = await check(["--expect", other, "--only", "ACP-CANCEL,ACP-JSONRPC-003"], "ignore-cancel");
    expect(fresh.code).toBe(1);
    expect(fresh.stdout).toMatch(/^fail {4}ACP-CANCEL-001/m);
    expect(fresh.stdout).toContain("expected fail for ACP-JSONRPC-003 (we answered notifications once), but it is pass now: remove it from the expect file");
  }, 90_000);

  it("--skip leaves the failing row out (exit 0); a bad --expect file is a usage error (exit 2)", async () => {
    const skipped = await check(["--only", "ACP-CANCEL", "--skip", "ACP-CANCEL-001"], "ignore-cancel");
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).not.toContain("ACP-CANCEL-001");
    const bad = await check(["--expect", expectFile([{ id: "ACP-CANCEL-001" }])], "ignore-cancel");
    expect(bad.code).toBe(2);
  }, 60_000);
});

describe("the CI helpers on a report", () => {
  const rows: ScoreRow[] = [
    { id: "ACP-A-001", tier: "MUST", outcome: "pass", evidence: undefined },
    { id: "ACP-A-002", tier: "SHOULD", outcome: "fail", evidence: 'a <b> & "c"' },
    { id: "ACP-B-001", tier: "MUST", outcome: "fail", evidence: "broken" },
    // An outcome this code does not know (another check may add one): a skip, never a pass or a fail.
    { id: "ACP-B-002", tier: "MUST", outcome: "not observable" as ScoreRow["outcome"], evidence: "what the user sees" },
    { id: "ACP-C-001", tier: "MUST", outcome: "n/a", evidence: "no session" },
  ];
  const report: CheckReport = { protocol: 1, catalogue: "test catalogue", rows, notes: ["a note"], passed: false };

  it("renders every outcome that is neither pass nor fail as skipped, and escapes evidence", () => {
    const file = join(scratch(), "r.xml");
    writeFileSync(file, renderJUnit(report, rows, "suite"));
    const suite = readJUnit(file);
    expect({ tests: suite["@_tests"], failures: suite["@_failures"], skipped: suite["@_skipped"] }).toEqual({ tests: "5", failures: "2", skipped: "2" });
    expect(suite.testcase.find((c) => c["@_name"] === "ACP-B-002 (MUST)")?.skipped?.["@_message"]).toBe("not observable: what the user sees");
    expect(suite.testcase.find((c) => c["@_name"] === "ACP-A-002 (SHOULD)")?.failure?.["#text"]).toBe('a <b> & "c"');
  });

  it("selects by prefix and judges the fails against the expectations", () => {
    expect(prefixes(["ACP-A,ACP-C", " ", "ACP-B-002"])).toEqual(["ACP-A", "ACP-C", "ACP-B-002"]);
    expect(selectRows(rows, ["ACP-A", "ACP-B"], ["ACP-B-002"]).map((r) => r.id)).toEqual(["ACP-A-001", "ACP-A-002", "ACP-B-001"]);
    const v = applyExpectations(rows, [
      { id: "ACP-B-001", outcome: "fail", reason: "known" },
      { id: "ACP-A-001", outcome: "fail", reason: "fixed since" },
      { id: "ACP-Z-009", outcome: "fail", reason: "gone" },
    ]);
    expect({ unexpected: v.unexpected.map((r) => r.id), expected: v.expected.map((r) => r.id) }).toEqual({ unexpected: [], expected: ["ACP-B-001"] });
    expect(v.notes).toEqual(["expected fail for ACP-A-001 (fixed since), but it is pass now: remove it from the expect file", "the expect file names ACP-Z-009, which is not a row of this scorecard (or was left out by --only / --skip)"]);
    expect(applyExpectations(rows, []).unexpected.map((r) => r.id)).toEqual(["ACP-B-001"]);
  });
});
