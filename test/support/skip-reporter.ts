/**
 * A vitest reporter that ends the run with one line saying which tests were
 * skipped and why: `skipped 5 tests: chromium not installed (apt-get install -y chromium)`,
 * or with several reasons `skipped 6 tests: haproxy not installed (…) for 1 test; chromium … for 5 tests`.
 * The reason comes from the `missingProgram` meta that `system.ts` puts on a
 * suite (or a test); a skipped test with no stated reason is counted under
 * a reason of its own, since the house rule is that no other test is skipped.
 * It prints nothing when nothing was skipped, and writes to stdout, after the summary.
 */
import type { Reporter, TestCase, TestModule, TestSuite } from "vitest/node";
import "./system.ts";

/** The `missingProgram` reason on `test` or the nearest suite above it. */
function reasonOf(test: TestCase): string | undefined {
  let node: TestCase | TestSuite | TestModule = test;
  for (;;) {
    const reason = node.type === "module" ? undefined : node.meta().missingProgram;
    if (reason !== undefined || node.type === "module") return reason;
    node = node.parent;
  }
}

/** Counts skipped tests by reason, in the order the reasons were first seen. */
export function skippedByReason(modules: readonly TestModule[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const module of modules) {
    for (const test of module.children.allTests("skipped")) {
      const reason = reasonOf(test) ?? "no reason stated (only a missing system program may skip a test)";
      counts.set(reason, (counts.get(reason) ?? 0) + 1);
    }
  }
  return counts;
}

export default class SkipReporter implements Reporter {
  onTestRunEnd(modules: readonly TestModule[]): void {
    const counts = [...skippedByReason(modules)];
    if (counts.length === 0) return;
    const total = counts.reduce((sum, [, n]) => sum + n, 0);
    const plural = (n: number) => `${n} test${n === 1 ? "" : "s"}`;
    const reasons = counts.length === 1 ? (counts[0] as [string, number])[0] : counts.map(([reason, n]) => `${reason} for ${plural(n)}`).join("; ");
    process.stdout.write(`skipped ${plural(total)}: ${reasons}\n`);
  }
}
