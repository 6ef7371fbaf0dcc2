// The SDK-suite harness (compat/sdk-suite): its classes, its one line, and its drift check, on
// small in-memory runs; and its redirect map against SDK 1.9.0's files.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isInternalFile, redirectedModules, relativeImports } from "../../compat/sdk-suite/classify.ts";
import { drift, entriesOf, type Entry, keyOf, summary, undocumented, unhandledDrift } from "../../compat/sdk-suite/ledger.ts";
import { entryFile, isSuiteFile, redirects, suiteDist, suiteModule } from "../../compat/sdk-suite/redirect.ts";
import type { Outcome } from "../../compat/sdk-suite/reporter.ts";

const run = (file: string, name: string, baseline: string, real: string, dropIn: string): Outcome[] => [
  { target: "baseline", file, name, state: baseline },
  { target: "real", file, name, state: real },
  { target: "drop-in", file, name, state: dropIn },
];

describe("the SDK suite's ledger", () => {
  const outcomes = [
    ...run("jsonrpc.test.js", "parses", "passed", "passed", "passed"),
    ...run("acp.test.js", "legacy class", "passed", "failed", "failed"),
    ...run("acp.test.js", "app api", "passed", "passed", "passed"),
    ...run("server.test.js", "serves /rpc", "passed", "passed", "failed"),
    ...run("server.test.js", "answers 406", "passed", "passed", "failed"),
  ];
  const internal = (file: string) => file === "jsonrpc.test.js";
  const documented: Entry = { file: "server.test.js", name: "answers 406", outcomes: { baseline: "pass", real: "pass", "drop-in": "fail" }, class: "documented", row: "GET without Accept" };
  const entries = entriesOf(outcomes, internal, new Map([[keyOf(documented), documented]]));

  it("classes each test: internal, removed, applicable, and a drop-in failure documented (kept from the ledger) or open", () => {
    expect([...entries.values()].map((e) => [e.name, e.class, e.row])).toEqual([
      ["parses", "internal", undefined],
      ["legacy class", "removed", undefined],
      ["app api", "applicable", undefined],
      ["serves /rpc", "open", undefined],
      ["answers 406", "documented", "GET without Accept"],
    ]);
  });

  it("prints the one line with every count", () => {
    expect(summary(entries.values())).toBe("sdk-suite: baseline 5/5, applicable 3, drop-in 1 pass, documented 1, internal 1, removed 1");
  });

  it("finds no drift against itself, and names each changed outcome, class, new and missing test", () => {
    expect(drift(entries, entries)).toEqual([]);
    const changed = entriesOf([...outcomes.slice(0, 9), ...run("server.test.js", "serves /rpc", "passed", "passed", "passed"), ...run("server.test.js", "renamed", "passed", "passed", "passed")], internal, new Map());
    expect(drift(entries, changed)).toEqual([
      "server.test.js > serves /rpc: drop-in fail in the ledger, pass now",
      "server.test.js > serves /rpc: class open in the ledger, applicable now",
      "new test: server.test.js > renamed (baseline pass, real pass, drop-in pass, applicable)",
      "missing test: server.test.js > answers 406",
    ]);
  });

  it("fails every test of a file that could not load on a target, as the baseline lists them", () => {
    const failedFile = [...run("acp.test.js", "app api", "passed", "passed", "passed").slice(0, 2), { target: "drop-in", file: "acp.test.js", name: "(file)", state: "failed" }];
    expect([...entriesOf(failedFile, internal, new Map()).values()]).toEqual([{ file: "acp.test.js", name: "app api", outcomes: { baseline: "pass", real: "pass", "drop-in": "fail" }, class: "open" }]);
  });

  it("tells two tests of one file with the same name apart by their order", () => {
    const twice = [...run("a.test.js", "same", "passed", "passed", "passed"), ...run("a.test.js", "same", "passed", "passed", "failed")];
    expect([...entriesOf(twice, () => false, new Map()).keys()]).toEqual(["a.test.js > same", "a.test.js > same (#2)"]);
  });

  it("names each file whose unhandled errors appeared or went away on a target", () => {
    expect(unhandledDrift({ real: ["a.test.js"] }, { real: ["a.test.js"] })).toEqual([]);
    expect(unhandledDrift({ real: ["a.test.js"] }, { "drop-in": ["b.test.js"] })).toEqual(["no unhandled error on real while a.test.js ran any more (the ledger lists one)", "unhandled error on drop-in while b.test.js ran, which the ledger does not list"]);
  });

  it("refuses a documented test whose row the doc does not have", () => {
    expect(undocumented(entries.values(), "| GET without Accept | … |")).toEqual([]);
    expect(undocumented(entries.values(), "no such row")).toEqual(['server.test.js > answers 406: documented, but docs/sdk-drop-in.md has no row "GET without Accept"']);
  });
});

describe("the SDK suite's redirect map and classes", () => {
  it("maps only modules SDK 1.9.0 has, each to an entry SDK 2.4.0 exports", () => {
    const real = join(suiteDist, "../../acp-sdk-2.4.0");
    for (const [module, subpath] of Object.entries(redirects)) {
      expect(readFileSync(join(suiteDist, module), "utf8").length).toBeGreaterThan(0);
      expect(readFileSync(entryFile(real, subpath), "utf8").length).toBeGreaterThan(0);
    }
  });

  it("redirects the suite's own files' relative imports, and nothing imported from the SDK's modules", () => {
    expect(isSuiteFile(join(suiteDist, "server.test.js"))).toBe(true);
    expect(isSuiteFile(join(suiteDist, "test-support/test-agent.js"))).toBe(true);
    expect(isSuiteFile(join(suiteDist, "server.js"))).toBe(false);
    expect(suiteModule("../acp.js", join(suiteDist, "test-support/test-agent.js"))).toBe("acp.js");
    expect(suiteModule("./acp.js", join(suiteDist, "v2/acp.test.js"))).toBe("v2/acp.js");
    expect(suiteModule("vitest", join(suiteDist, "acp.test.js"))).toBeUndefined();
  });

  it("reads relative imports, re-exports and dynamic imports of a compiled module", () => {
    expect(relativeImports(`import { a } from "./a.js";\nexport * from '../b.js';\nimport "./c.js";\nawait import("./d.js");\nimport x from "vitest";`)).toEqual(["./a.js", "../b.js", "./c.js", "./d.js"]);
  });

  it("calls a file internal only when neither it nor its test-support modules reach a redirected module", () => {
    expect(isInternalFile("jsonrpc.test.js")).toBe(true);
    // connection.test.js imports only internals itself, but builds its agent with test-support/test-agent.js, on acp.js.
    expect([...redirectedModules("connection.test.js")]).toEqual(["acp.js"]);
    expect(isInternalFile("connection.test.js")).toBe(false);
  });
});
