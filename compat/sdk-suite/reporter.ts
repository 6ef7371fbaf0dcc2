/**
 * A vitest reporter that writes every test's outcome, per target (vitest project), to the JSON file
 * named by `SDK_SUITE_RESULTS`: `{ outcomes: [{ target, file, name, state, error? }], unhandled }`.
 * `file` is the test file's path inside SDK 1.9.0's `dist/`, `name` the test's full name.
 */
import { writeFileSync } from "node:fs";
import { relative, sep } from "node:path";
import type { Reporter, SerializedError, TestModule } from "vitest/node";
import { suiteDist } from "./redirect.ts";

/** The name an outcome carries for a file that failed before any of its tests ran. */
export const FILE_FAILED = "(file)";

/** One test's outcome on one target. */
export type Outcome = { target: string; file: string; name: string; state: string; error?: string };

/** An error no test owned (an unhandled rejection or exception), with the test file that was running. */
export type Unhandled = { file: string; message: string };

/** What the reporter writes: every outcome, and the errors no test owned. */
export type Results = { outcomes: Outcome[]; unhandled: Unhandled[] };

export default class SuiteReporter implements Reporter {
  onTestRunEnd(modules: readonly TestModule[], unhandledErrors: readonly SerializedError[]): void {
    const out = process.env["SDK_SUITE_RESULTS"];
    if (out === undefined) throw new Error("SDK_SUITE_RESULTS must name the file the suite's outcomes are written to");
    const outcomes: Outcome[] = [];
    for (const module of modules) {
      const file = relative(suiteDist, module.moduleId).split(sep).join("/");
      for (const test of module.children.allTests()) {
        const result = test.result();
        const error = result.errors?.[0]?.message;
        outcomes.push({ target: test.project.name, file, name: test.fullName, state: result.state, ...(error === undefined ? {} : { error: error.split("\n")[0] ?? "" }) });
      }
      // A file that failed before any test ran (an import error) still has to show in the outcomes.
      if (module.children.size === 0 && module.errors().length > 0) outcomes.push({ target: module.project.name, file, name: FILE_FAILED, state: "failed", error: module.errors()[0]?.message ?? "" });
    }
    const unhandled = unhandledErrors.map((e) => ({ file: typeof e["VITEST_TEST_PATH"] === "string" ? relative(suiteDist, e["VITEST_TEST_PATH"]).split(sep).join("/") : "", message: `${e.name ?? "Error"}: ${e.message}` }));
    const results: Results = { outcomes, unhandled };
    writeFileSync(out, `${JSON.stringify(results)}\n`);
  }
}
