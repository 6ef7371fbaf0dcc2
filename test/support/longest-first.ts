/**
 * The order test files start in: the longest first, on a fresh clone as on a developer's machine.
 *
 * Vitest's own order runs a file it has no record of by size, biggest first, and the projects one
 * after another by name; its record (node_modules/.vite) exists only after a run on that machine.
 * On a fresh clone — CI, a new contributor — that put `test/tools/check-rows.test.ts` (a short file
 * whose 200 check runs take six minutes) among the last files of the integration tier, so the whole
 * suite waited on it at the end (it finished last, at 617 s, in CI on 47890e9). This order starts
 * every file by how long it is expected to take, across the tiers: the longer of vitest's record of
 * the last run and `durations.json` (seconds, files of 5 s or more, written by
 * `npm run test:durations` from a JSON report), 0 for a file in neither — and keeps vitest's order among equals
 * (failed files of the last run still come first).
 */
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import durations from "./durations.json" with { type: "json" };

const TRACKED: Readonly<Record<string, number>> = durations;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const root = this.ctx.config.root;
    const expected = new Map<TestSpecification, number>();
    for (const spec of base) {
      const file = relative(root, spec.moduleId);
      const last = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`);
      // The longer of the two: vitest's record may be of a run filtered to a few tests.
      expected.set(spec, last?.failed ? Number.POSITIVE_INFINITY : Math.max(last?.duration ?? 0, (TRACKED[file] ?? 0) * 1000));
    }
    // Array.prototype.sort is stable: files expected to take as long keep vitest's order.
    return base.sort((a, b) => expected.get(b)! - expected.get(a)!);
  }
}
