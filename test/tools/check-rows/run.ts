/**
 * Plans and runs the check runs of `npm run test:check-rows`: one run per plain base a row passes on, and one
 * per base and fault group (its relay faults together, at most one stub mode). Runs are independent processes,
 * so several go at once; each waits for events (answers, exits), and check's windows are set small, as for
 * every stub (support.ts, STUB_WINDOWS).
 */
import { checkJson, scratch } from "../support.ts";
import type { CheckReport } from "../../../tools/check/main.ts";
import { baseOf, withRelay, type FaultCase, type PlainPass } from "./modes.ts";

/** One check run: its key, the base stub and the relay faults (a `mode:` fault becomes the base's stub mode). */
export interface Planned {
  readonly key: string;
  readonly base: string;
  readonly faults: readonly string[];
}

/** The runs: each plain base once, and each (base, group) of the fault cases once. */
export function plan(passes: readonly PlainPass[], cases: readonly FaultCase[]): Planned[] {
  const runs = new Map<string, { base: string; faults: string[] }>();
  for (const p of passes) runs.set(p.base, { base: p.base, faults: [] });
  for (const c of cases) {
    const key = `${c.base}/${c.group}`;
    const run = runs.get(key) ?? { base: c.base, faults: [] };
    if (!run.faults.includes(c.fault)) run.faults.push(c.fault);
    runs.set(key, run);
  }
  return [...runs].map(([key, r]) => {
    const modes = r.faults.filter((f) => f.startsWith("mode:")).map((f) => f.slice(5));
    if (modes.length > 1) throw new Error(`check-rows: run ${key} has two stub modes (${modes.join(", ")}); give them groups of their own`);
    return { key, base: modes.length === 1 ? `${r.base}:${modes[0]!}` : r.base, faults: r.faults.filter((f) => !f.startsWith("mode:")) };
  });
}

/** The run a fault case is judged on. */
export const runKey = (c: FaultCase): string => `${c.base}/${c.group}`;

/** Runs one planned check and parses its scorecard. */
export async function runOne(p: Planned): Promise<CheckReport> {
  const base = baseOf(p.base);
  const command = withRelay(base, p.faults);
  try {
    return await checkJson(["--timeout", String(base.timeout), "--cwd", scratch(), ...base.options], command, 60_000);
  } catch (error) {
    // No scorecard (check was killed at 60 s, or wrote something else): every row of this run then reads "no row".
    return { protocol: 0, catalogue: "", rows: [], notes: [`${p.key}: no scorecard: ${(error as Error).message}`], passed: false };
  }
}

/** Runs every planned check, `concurrency` at a time; resolves with the scorecards by key. */
export async function runAll(plans: readonly Planned[], concurrency = 4): Promise<Map<string, CheckReport>> {
  const out = new Map<string, CheckReport>();
  let next = 0;
  const worker = async () => {
    while (next < plans.length) {
      const p = plans[next++]!;
      const started = performance.now();
      out.set(p.key, await runOne(p));
      if (process.env.CHECK_ROWS_TIMES !== undefined) process.stderr.write(`check-rows: ${p.key} ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, plans.length) }, worker));
  return out;
}

/** Every mismatch between what the cases expect and what the runs gave, as "row: expected X on run K, got Y (evidence)". */
export function mismatches(passes: readonly PlainPass[], cases: readonly FaultCase[], reports: ReadonlyMap<string, CheckReport>): string[] {
  const out: string[] = [];
  const look = (key: string, id: string, want: string) => {
    const row = reports.get(key)?.rows.find((r) => r.id === id);
    if (row?.outcome !== want) out.push(`${id}: expected ${want} on ${key}, got ${row?.outcome ?? `no row (${reports.get(key)?.notes.join("; ") ?? "no run"})`}${row?.evidence ? ` (${row.evidence.slice(0, 300)})` : ""}`);
  };
  for (const p of passes) for (const id of p.rows) look(p.base, id, "pass");
  for (const c of cases) {
    for (const id of c.fails ?? []) look(runKey(c), id, "fail");
    for (const id of c.passes ?? []) look(runKey(c), id, "pass");
  }
  return out;
}
