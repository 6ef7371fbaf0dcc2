/**
 * `npm run test:check-rows` (also part of `npm test`): every catalogue row that `check` or `check --client` can
 * mark pass has a stub mode that makes it pass and a fault that makes it fail, and each stub gets the verdict its
 * entry names (test/tools/check-rows/). A probed row without both is listed with why it can never be failed
 * (or never passed); a row that is neither fails the first test by name.
 */
import { availableParallelism } from "node:os";
import { beforeAll, describe, expect, it } from "vitest";
import type { CheckReport } from "../../tools/check/main.ts";
import { V1_FAULTS, V1_PASSES } from "./check-rows/agent-v1.ts";
import { V2_FAULTS, V2_PASSES } from "./check-rows/agent-v2.ts";
import { CLIENT_FAULTS, CLIENT_PASSES } from "./check-rows/client.ts";
import { NEVER_PASSABLE } from "./check-rows/never.ts";
import { mismatches, plan, runAll } from "./check-rows/run.ts";
import { TABLE, neverWhy, probedRows } from "./check-rows/table.ts";

const PASSES = [...V1_PASSES, ...V2_PASSES, ...CLIENT_PASSES];
const CASES = [...V1_FAULTS, ...V2_FAULTS, ...CLIENT_FAULTS];
const SIDES = ["agent", "client"] as const;

/** Runs at once: they wait on stubs' answers far more than they compute, so three per core (6 on CI's 2). */
const CONCURRENCY = Math.max(4, availableParallelism() * 3);

describe("check-rows: the table", () => {
  it("gives every row check's probes name a pass run and a fault, or says why it has none", () => {
    const probed = probedRows();
    const gaps: string[] = [];
    for (const side of SIDES) {
      for (const id of probed[side]) {
        const row = TABLE.find((r) => r.id === id && r.side === side);
        const never = neverWhy(id, side);
        const unpassable = NEVER_PASSABLE[side][id];
        if (unpassable !== undefined) continue;
        if (row === undefined) {
          if (never === undefined) gaps.push(`${side} ${id}: no pass run and no fault, and no reason listed`);
          continue;
        }
        if (row.pass === "") gaps.push(`${side} ${id}: a fault (${row.fail.fault}) but no run that passes it`);
        if (row.fail.fault === "" && never === undefined) gaps.push(`${side} ${id}: passes on ${row.pass} but has no fault that fails it, and no reason listed`);
      }
    }
    expect(gaps).toEqual([]);
  });

  it("lists a reason for every row it says can never be failed or passed, each a row of the catalogue check names", () => {
    const probed = probedRows();
    for (const side of SIDES) {
      for (const [id, why] of Object.entries(NEVER_PASSABLE[side])) {
        expect(why.length, `${side} ${id}`).toBeGreaterThan(20);
        expect(probed[side].has(id), `${side} ${id} is listed as never passed, but check's probes do not name it`).toBe(true);
      }
    }
  });
});

describe("check-rows: the stubs", () => {
  let reports: Map<string, CheckReport>;
  // CHECK_ROWS_ONLY=<regexp> runs only the runs whose key (`base/group`) it matches: a developer's aid, unset in npm test.
  const only = new RegExp(process.env.CHECK_ROWS_ONLY ?? "");
  beforeAll(async () => {
    reports = await runAll(
      plan(PASSES, CASES).filter((p) => only.test(p.key)),
      CONCURRENCY,
    );
  }, 900_000);

  it("gets, on every run, the verdict each entry names (pass on its pass run, fail under its fault)", () => {
    expect(mismatches(PASSES, CASES, reports).filter((m) => [...reports.keys()].some((k) => m.includes(` on ${k},`)) || process.env.CHECK_ROWS_ONLY === undefined)).toEqual([]);
  });

  it("never passes a row listed as one check cannot pass", () => {
    const passed: string[] = [];
    for (const [key, report] of reports) {
      const side = report.catalogue.includes("client side") ? "client" : "agent";
      for (const r of report.rows) if (r.outcome === "pass" && NEVER_PASSABLE[side][r.id] !== undefined) passed.push(`${side} ${r.id} passed on ${key}`);
    }
    expect(passed).toEqual([]);
  });
});
