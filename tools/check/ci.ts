/**
 * What makes `check` (and `check --client`) fit a CI pipeline, on a finished
 * report: row selection by id prefix (`--only`, `--skip`), a JUnit XML file
 * (`--junit`: one test case per requirement; a fail is a `<failure>` with its
 * evidence; every outcome that is neither pass nor fail — n/a, not run, not
 * observable, or any outcome a later check adds — is `<skipped>` with its
 * reason), and a file of accepted deviations (`--expect`): a JSON list of
 * `{id, outcome, reason}`. An expected fail does not fail the run; a fail
 * not in the list does; an expected fail that now passes (or is no longer a
 * fail) is reported in a note, so the list can be trimmed.
 */
import { readFileSync } from "node:fs";
import type { CheckReport, ScoreRow } from "./score.ts";

/** One accepted deviation: the row `id` is expected to have `outcome` (usually "fail"), for `reason`. */
export interface Expectation {
  readonly id: string;
  readonly outcome: string;
  readonly reason: string;
}

/** `--only` / `--skip` values: repeatable, each comma-separated; blanks dropped. */
export function prefixes(values: readonly string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

/** The rows kept by `only` (none: all) minus those matched by `skip`; a prefix matches an id that starts with it. */
export function selectRows(rows: readonly ScoreRow[], only: readonly string[], skip: readonly string[]): ScoreRow[] {
  const match = (id: string, list: readonly string[]) => list.some((p) => id.startsWith(p));
  return rows.filter((r) => (only.length === 0 || match(r.id, only)) && !match(r.id, skip));
}

/** Reads and checks an `--expect` file; throws with a message naming the file and the bad entry. */
export function readExpectations(file: string): Expectation[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`--expect ${file}: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new Error(`--expect ${file}: not a JSON list of {id, outcome, reason}`);
  return parsed.map((e: unknown, i) => {
    const o = (typeof e === "object" && e !== null ? e : {}) as Record<string, unknown>;
    if (typeof o.id !== "string" || o.id.length === 0) throw new Error(`--expect ${file}: entry ${i} has no string id`);
    if (typeof o.reason !== "string" || o.reason.length === 0) throw new Error(`--expect ${file}: entry ${i} (${o.id}) has no reason`);
    return { id: o.id, outcome: typeof o.outcome === "string" ? o.outcome : "fail", reason: o.reason };
  });
}

/** The verdict on a report's fails once the expectations are applied. */
export interface ExpectVerdict {
  /** MUST / MUST NOT fails no expectation covers: these fail the run. */
  readonly unexpected: readonly ScoreRow[];
  /** Fails (any tier) covered by an expectation. */
  readonly expected: readonly ScoreRow[];
  /** Lines for the scorecard: expected fails that no longer fail, expectations naming no row. */
  readonly notes: readonly string[];
}

/**
 * Applies `expectations` to `rows`. A row fails the run when it is a MUST or
 * MUST NOT fail and no expectation with its id and outcome "fail" covers it
 * (as without `--expect`, SHOULD fails are reported but do not fail the run).
 */
export function applyExpectations(rows: readonly ScoreRow[], expectations: readonly Expectation[]): ExpectVerdict {
  const byId = new Map(expectations.map((e) => [e.id, e]));
  const expected: ScoreRow[] = [];
  const unexpected: ScoreRow[] = [];
  const notes: string[] = [];
  for (const r of rows) {
    const e = byId.get(r.id);
    if (r.outcome === "fail") {
      if (e !== undefined && e.outcome === "fail") expected.push(r);
      else if (r.tier.startsWith("MUST")) unexpected.push(r);
    } else if (e !== undefined && e.outcome !== r.outcome) {
      notes.push(`expected ${e.outcome} for ${r.id} (${e.reason}), but it is ${r.outcome} now${r.outcome === "pass" ? ": remove it from the expect file" : ""}`);
    }
  }
  const listed = new Set(rows.map((r) => r.id));
  for (const e of expectations) if (!listed.has(e.id)) notes.push(`the expect file names ${e.id}, which is not a row of this scorecard (or was left out by --only / --skip)`);
  return { expected, unexpected, notes };
}

const escape = (s: string) =>
  s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");

/**
 * The report as JUnit XML: one `<testsuite>` named after the report's side
 * and protocol, one `<testcase>` per row (classname the id's family, name
 * the id and tier). `expected` fails are reported as skipped with the
 * expectation's reason, so a JUnit viewer shows what the expect file accepts.
 */
export function renderJUnit(report: CheckReport, rows: readonly ScoreRow[], suiteName: string, expectations: readonly Expectation[] = []): string {
  const accepted = new Map(expectations.filter((e) => e.outcome === "fail").map((e) => [e.id, e.reason]));
  const failures = rows.filter((r) => r.outcome === "fail" && !accepted.has(r.id)).length;
  const skipped = rows.filter((r) => r.outcome !== "pass" && !(r.outcome === "fail" && !accepted.has(r.id))).length;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="acp-router check" tests="${rows.length}" failures="${failures}" errors="0" skipped="${skipped}">`,
    `  <testsuite name="${escape(suiteName)}" tests="${rows.length}" failures="${failures}" errors="0" skipped="${skipped}">`,
    `    <properties><property name="protocol" value="${report.protocol}"/><property name="catalogue" value="${escape(report.catalogue)}"/></properties>`,
  ];
  for (const r of rows) {
    const family = r.id.split("-").slice(0, -1).join("-") || r.id;
    const open = `    <testcase classname="${escape(family)}" name="${escape(`${r.id} (${r.tier})`)}"`;
    const evidence = escape(r.evidence ?? "");
    if (r.outcome === "pass") out.push(`${open}/>`);
    else if (r.outcome === "fail" && accepted.has(r.id)) out.push(`${open}><skipped message="${escape(`expected fail: ${accepted.get(r.id) ?? ""}`)}"/><system-out>${evidence}</system-out></testcase>`);
    else if (r.outcome === "fail") out.push(`${open}><failure message="${escape((r.evidence ?? "").slice(0, 500))}" type="${escape(r.tier)}">${evidence}</failure></testcase>`);
    else out.push(`${open}><skipped message="${escape(`${r.outcome}: ${r.evidence ?? ""}`)}"/></testcase>`);
  }
  if (report.notes.length > 0) out.push(`    <system-out>${escape(report.notes.join("\n"))}</system-out>`);
  out.push("  </testsuite>", "</testsuites>");
  return `${out.join("\n")}\n`;
}
