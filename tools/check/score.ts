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
 */
import type { Checklist } from "./checklist.ts";
import type { AgentEnding } from "./ending.ts";

export type Outcome = "pass" | "fail" | "n/a" | "not observable" | "not run";

/** A pass may carry a note (a late answer's latency); every other outcome says why. */
export type Verdict = { readonly outcome: "pass"; readonly evidence?: string | undefined } | { readonly outcome: Exclude<Outcome, "pass">; readonly evidence: string };

export interface ScoreRow {
  readonly id: string;
  readonly tier: string;
  readonly outcome: Outcome;
  readonly evidence: string | undefined;
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

export interface Scorecard {
  readonly checklist: Checklist;
  /** Records a verdict for `id` (merged by strength). */
  score(id: string, verdict: Verdict): void;
  /** Records the same verdict for several ids. */
  all(ids: readonly string[], verdict: Verdict): void;
  /** True once `id` has a verdict. */
  has(id: string): boolean;
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
  /** The rows: every checklist entry in catalogue order, then ids outside the checklist that got a verdict. */
  rows(unprobed: string): ScoreRow[];
}

export function createScorecard(checklist: Checklist): Scorecard {
  const verdicts = new Map<string, { outcome: Outcome; evidence: string | undefined }>();
  /** Rows of tier "none" something broke, with the accumulated note shown as their n/a. */
  const noted = new Map<string, string>();
  const notes: string[] = [];
  const card: Scorecard = {
    checklist, notes,
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
      if (prev === undefined || RANK[v.outcome] > RANK[prev.outcome]) verdicts.set(id, { outcome: v.outcome, evidence: v.evidence });
      else if (v.outcome === "fail" && prev.outcome === "fail" && prev.evidence !== v.evidence && !(prev.evidence ?? "").includes(v.evidence)) prev.evidence = `${prev.evidence}; ${v.evidence}`;
    },
    all(ids, v) {
      for (const id of ids) card.score(id, v);
    },
    has: (id) => verdicts.has(id),
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
        out.push({ id: e.id, tier: e.tier, outcome: v.outcome, evidence: v.evidence });
      }
      for (const [id, v] of verdicts) if (!listed.has(id)) out.push({ id, tier: checklist.tier(id), outcome: v.outcome, evidence: v.evidence });
      return out;
    },
  };
  return card;
}

/** A finished check: the protocol and catalogue used, the rows, the notes. */
export interface CheckReport {
  readonly protocol: number;
  readonly catalogue: string;
  readonly rows: ScoreRow[];
  readonly notes: readonly string[];
  readonly passed: boolean;
  /** How the agent ended after check closed its stdin: measured, apart from the rows (ending.ts). */
  readonly ending?: AgentEnding;
}
