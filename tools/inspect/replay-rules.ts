/** The rule half of `inspect replay`'s comparison: inspect's monitor re-run on the recording, its findings counted against the replay's. */
import { createMonitor } from "./monitor.ts";
import type { Difference, Plan } from "./replay-plan.ts";
import type { Violation } from "./rules.ts";

/** One difference per rule (and requirement and culprit) that fired a different number of times in the recording and in the replay. */
export function compareRules(plan: Plan, replayed: readonly Violation[]): Difference[] {
  const monitor = createMonitor();
  for (const l of plan.lines) monitor.observe(l.from, l.line, l.t);
  monitor.end(plan.lines.at(-1)?.t ?? 0);
  const count = (vs: readonly Violation[]) => {
    const m = new Map<string, { n: number; example: string }>();
    for (const v of vs) {
      const key = `${v.rule} ${v.requirement} by the ${v.by}`;
      const c = m.get(key);
      if (c) c.n++;
      else m.set(key, { n: 1, example: v.message });
    }
    return m;
  };
  const [was, now] = [count(monitor.violations), count(replayed)];
  const out: Difference[] = [];
  for (const key of new Set([...was.keys(), ...now.keys()])) {
    const [a, b] = [was.get(key), now.get(key)];
    if ((a?.n ?? 0) === (b?.n ?? 0)) continue;
    const show = (c: { n: number; example: string } | undefined) => (c === undefined ? "0×" : `${c.n}× (${c.example})`);
    out.push({ kind: "rule", at: key, recorded: show(a), replayed: show(b) });
  }
  return out;
}
