/**
 * The scorecard of one `check` run: one row per requirement of the
 * checklist, each pass, fail, n/a (the probe ran but its precondition did
 * not hold: authentication required, an error answer, a capability not
 * advertised) or not run (no probe exercises it, or the run stopped before
 * it), or not observable (the catalogue says no traffic can decide it, and
 * why), every non-pass with its reason; a pass may carry a note (the latency
 * of an answer that came after --timeout). Verdicts merge by strength: a fail
 * beats a pass, a pass beats n/a, n/a beats not run; fail evidence
 * accumulates. A MAY requirement is never failed: what would break it is
 * recorded as a note, since a permission cannot be violated. Nor is a row
 * of tier "none" (its cited text has no MUST, SHOULD or MAY: a
 * declaration, an inference, a lifecycle diagram's step): what would break
 * it is noted, and the row shows n/a with that note. Only a fail of a MUST
 * or MUST NOT row makes `check` exit 1.
 *
 * One fact, one count: rows that one observation decides (`all` with a pass
 * or a fail: a notification answered breaks ACP-JSONRPC-003 and ACP-EXT-201
 * at once) are linked. The row of the strongest tier carries the evidence
 * and names the others; each other row says it is the same observation
 * (`sameAs`), and {@link tally} counts the group once. A row that a second,
 * separate observation also decides keeps its own evidence and its own
 * count.
 */
import type { Checklist } from "./checklist.ts";
import type { AgentEnding } from "./ending.ts";
import type { ReportSection } from "./sections.ts";

export type Outcome = "pass" | "fail" | "n/a" | "not observable" | "not run";

/** A pass may carry a note (a late answer's latency); every other outcome says why. */
export type Verdict = { readonly outcome: "pass"; readonly evidence?: string | undefined } | { readonly outcome: Exclude<Outcome, "pass">; readonly evidence: string };

export interface ScoreRow {
  readonly id: string;
  readonly tier: string;
  readonly outcome: Outcome;
  readonly evidence: string | undefined;
  /** The row that carries this row's evidence: one observation decided both (counted once, there). Absent: the row stands alone. */
  readonly sameAs?: string;
}

export const pass: Verdict = { outcome: "pass" };
/** A pass with a note (e.g. "answered after 62.1 s"). */
export const passNoted = (evidence: string): Verdict => ({ outcome: "pass", evidence });
export const fail = (evidence: string): Verdict => ({ outcome: "fail", evidence });
export const na = (evidence: string): Verdict => ({ outcome: "n/a", evidence });
export const notRun = (evidence: string): Verdict => ({ outcome: "not run", evidence });
/** No traffic can decide the requirement (what a user interface shows, what a peer does inside): why. */
export const notObservable = (evidence: string): Verdict => ({ outcome: "not observable", evidence });

/** The reason a row of tier "none" shows instead of a fail. */
export const NO_KEYWORD = "the cited text has no normative keyword, so what breaks it is a note, never a violation";

const RANK: Readonly<Record<Outcome, number>> = { fail: 4, pass: 3, "n/a": 2, "not observable": 1, "not run": 0 };
/** How binding a tier is, to pick the row of a linked group that carries the evidence: MUST and MUST NOT first. */
const TIER_RANK: Readonly<Record<string, number>> = { MUST: 3, "MUST NOT": 3, SHOULD: 2, "SHOULD NOT": 2, MAY: 1 };

/** Counts of a report's rows by outcome, each fact once: a row linked to another (`sameAs`) is counted with that row. */
export function tally(rows: readonly ScoreRow[]): { readonly counts: ReadonlyMap<string, number>; readonly linked: number } {
  const counts = new Map<string, number>([
    ["pass", 0],
    ["fail", 0],
    ["n/a", 0],
    ["not run", 0],
    ["not observable", 0],
  ]);
  let linked = 0;
  for (const r of rows) {
    if (r.sameAs !== undefined) linked++;
    else counts.set(r.outcome, (counts.get(r.outcome) ?? 0) + 1);
  }
  return { counts, linked };
}

export interface Scorecard {
  readonly checklist: Checklist;
  /** Records a verdict for `id` (merged by strength). */
  score(id: string, verdict: Verdict): void;
  /** Records the same verdict for several ids. */
  all(ids: readonly string[], verdict: Verdict): void;
  /** True once `id` has a verdict. */
  has(id: string): boolean;
  /**
   * Marks the verdict of `id` as following from the fact `primary` shows (`why`: "a v1 agent has no batches"): while
   * both have the same outcome, `id` keeps its own evidence, names `primary`, and counts once, with it.
   */
  link(id: string, primary: string, why: string): void;
  /**
   * Gives `id` the verdict `from` has (a requirement the spec states twice, in two places: one observation decides
   * both) and links it there; nothing when `from` has none yet or `id` has one of its own. Optional, as `relieve`.
   */
  restate?(id: string, from: string, why: string): void;
  /** Appends `text` to the evidence of `id` (a late answer, a detail). */
  annotate(id: string, text: string): void;
  /**
   * Withdraws the fail `evidence` of `id` (a silence later answered): the
   * remaining fail evidence stands; with none left, `id` becomes `verdict`.
   * Optional: a card that wraps another (check --client's v2 card) may omit it.
   */
  relieve?(id: string, evidence: string, verdict: Verdict): void;
  /** Lines for the end of the scorecard: the negotiated table, an agent that died, late answers, notes on MAY ids. */
  readonly notes: string[];
  /** Parts of the report apart from the spec rows (interoperability findings, …), in the order they were added; never counted as verdicts. */
  readonly sections: ReportSection[];
  /** The rows: every checklist entry in catalogue order, then ids outside the checklist that got a verdict. */
  rows(unprobed: string): ScoreRow[];
}

export function createScorecard(checklist: Checklist): Scorecard {
  const verdicts = new Map<string, { outcome: Outcome; evidence: string | undefined }>();
  /** Rows of tier "none" something broke, with the accumulated note shown as their n/a. */
  const noted = new Map<string, string>();
  const notes: string[] = [];
  const sections: ReportSection[] = [];
  /** For a row a shared observation decided: the group's rows, the first the one that carries the evidence. */
  const groups = new Map<string, readonly string[]>();
  /** Rows whose verdict follows from another row's fact: the row that shows the fact, and why. */
  const follows = new Map<string, { readonly primary: string; readonly why: string }>();
  const card: Scorecard = {
    checklist,
    notes,
    sections,
    score(id, v) {
      if (v.outcome === "fail" && checklist.tier(id) === "MAY") {
        notes.push(`${id} (MAY) cannot be violated; noted: ${v.evidence}`);
        return;
      }
      // A row whose cited text has no normative keyword (tier "none": a declaration, an inference, a diagram's step) is a note, never a fail.
      if (v.outcome === "fail" && checklist.tier(id) === "none") {
        notes.push(`${id} (no normative keyword) noted: ${v.evidence}`);
        const prior = noted.get(id);
        noted.set(id, prior === undefined ? `${NO_KEYWORD}; noted: ${v.evidence}` : `${prior}; ${v.evidence}`);
        verdicts.set(id, { outcome: "n/a", evidence: noted.get(id) });
        return;
      }
      // What broke a row of tier "none" stays shown: another probe's pass does not hide it.
      if (noted.has(id)) return;
      const prev = verdicts.get(id);
      if (prev === undefined || RANK[v.outcome] > RANK[prev.outcome]) {
        verdicts.set(id, { outcome: v.outcome, evidence: v.evidence });
        groups.delete(id);
      } else if (v.outcome === "fail" && prev.outcome === "fail" && prev.evidence !== v.evidence && !(prev.evidence ?? "").includes(v.evidence)) {
        // A second, separate observation: the row now stands on its own evidence.
        prev.evidence = `${prev.evidence}; ${v.evidence}`;
        groups.delete(id);
      }
    },
    all(ids, v) {
      for (const id of ids) card.score(id, v);
      // One observation deciding several rows (a pass or a fail): linked, so its evidence shows once and it counts once.
      if (v.outcome !== "pass" && v.outcome !== "fail") return;
      const scored = ids.filter((id) => verdicts.get(id)?.outcome === v.outcome && !noted.has(id));
      const evidence = scored.length > 0 ? verdicts.get(scored[0]!)?.evidence : undefined;
      const decided = scored.filter((id) => verdicts.get(id)?.evidence === evidence && (evidence ?? "").includes(v.evidence ?? ""));
      if (decided.length < 2) return;
      const group = [...decided].sort((a, b) => (TIER_RANK[checklist.tier(b)] ?? 0) - (TIER_RANK[checklist.tier(a)] ?? 0));
      for (const id of group) if (!groups.has(id)) groups.set(id, group);
    },
    has: (id) => verdicts.has(id),
    link(id, primary, why) {
      if (id !== primary) follows.set(id, { primary, why });
    },
    restate(id, from, why) {
      const v = verdicts.get(from);
      if (v === undefined || verdicts.has(id) || !checklist.entries.some((e) => e.id === id)) return;
      card.score(id, v.outcome === "pass" ? (v.evidence === undefined ? pass : passNoted(v.evidence)) : { outcome: v.outcome, evidence: v.evidence ?? "" });
      if (v.outcome === "pass" || v.outcome === "fail") follows.set(id, { primary: from, why });
    },
    annotate(id, text) {
      const v = verdicts.get(id);
      if (v !== undefined && v.outcome !== "pass") v.evidence = `${v.evidence ?? ""}${text}`;
    },
    relieve(id, evidence, verdict) {
      const v = verdicts.get(id);
      if (v === undefined || v.outcome !== "fail" || v.evidence === undefined) return;
      if (v.evidence === evidence) verdicts.set(id, { outcome: verdict.outcome, evidence: verdict.evidence });
      else if (v.evidence.includes(evidence)) v.evidence = v.evidence.replace(`; ${evidence}`, "").replace(`${evidence}; `, "");
    },
    rows(unprobed) {
      const out: ScoreRow[] = [];
      const listed = new Set<string>();
      for (const e of checklist.entries) {
        listed.add(e.id);
        // A requirement the catalogue marks not observable (no traffic can decide it) says why, unless a probe judged it anyway.
        const v = verdicts.get(e.id) ?? (e.observable === false ? { outcome: "not observable" as const, evidence: e.unobservable ?? "no traffic can decide it" } : { outcome: "not run" as const, evidence: unprobed });
        out.push(linkedRow(e.id, e.tier, v));
      }
      for (const [id, v] of verdicts) if (!listed.has(id)) out.push(linkedRow(id, checklist.tier(id), v));
      return out;
    },
  };
  /** The row as shown: a group's first row names the others; each other row points to it (while their verdicts still agree). */
  function linkedRow(id: string, tier: string, v: { outcome: Outcome; evidence: string | undefined }): ScoreRow {
    const same = (x: string) => verdicts.get(x)?.outcome === v.outcome;
    const follow = follows.get(id);
    if (follow !== undefined && same(follow.primary) && (v.outcome === "fail" || v.outcome === "pass")) {
      return { id, tier, outcome: v.outcome, evidence: `${v.evidence === undefined ? "" : `${v.evidence}. `}This follows from the fact ${follow.primary} shows (${follow.why}): counted once, there`, sameAs: follow.primary };
    }
    const group = (groups.get(id) ?? []).filter((x) => groups.get(x) !== undefined && same(x) && verdicts.get(x)?.evidence === v.evidence);
    const followers = [...follows].filter(([x, f]) => f.primary === id && same(x)).map(([x]) => x);
    if (group.length >= 2 && id !== group[0]) return { id, tier, outcome: v.outcome, evidence: `the same observation as ${group[0]!}, which shows the evidence (counted once, there)`, sameAs: group[0]! };
    const others = [...(group.length >= 2 ? group.slice(1) : []), ...followers];
    if (others.length === 0 || (v.outcome !== "fail" && v.outcome !== "pass")) return { id, tier, outcome: v.outcome, evidence: v.evidence };
    return { id, tier, outcome: v.outcome, evidence: `${v.evidence === undefined ? "" : `${v.evidence}. `}The same fact decides ${others.join(", ")} (counted once, here)` };
  }
  return card;
}

/** A finished check: the protocol and catalogue used, the rows, the notes. */
export interface CheckReport {
  readonly protocol: number;
  readonly catalogue: string;
  readonly rows: ScoreRow[];
  readonly notes: readonly string[];
  /** Findings apart from the spec rows (sections.ts): shown after the rows, never counted in the totals or the exit status. Absent: none. */
  readonly sections?: readonly ReportSection[];
  readonly passed: boolean;
  /** How the agent ended after check closed its stdin: measured, apart from the rows (ending.ts). */
  readonly ending?: AgentEnding;
}
