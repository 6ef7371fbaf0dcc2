/**
 * The exit summary of `inspect`: messages per method, answer latency per
 * request method (p50/p99), and each violated rule with its count, its
 * catalogue id and tier, and the first example. Printed as text (stderr or
 * `--summary FILE`) or, when FILE ends in `.json`, as JSON.
 */
import type { MonitorState } from "./monitor.ts";
import { requirement } from "./requirements.ts";
import { RULES, type Violation } from "./rules.ts";
import { quantile } from "./stats.ts";

export interface MethodRow {
  readonly method: string;
  readonly sentBy: string;
  readonly requests: number;
  readonly notifications: number;
  readonly results: number;
  readonly errors: number;
  readonly p50Ms: number | undefined;
  readonly p99Ms: number | undefined;
}

export interface ViolationRow {
  readonly rule: string;
  readonly requirement: string;
  readonly tier: string;
  readonly by: string;
  readonly count: number;
  readonly title: string;
  readonly example: string;
}

export interface Summary {
  readonly command: readonly string[];
  readonly table: string;
  readonly protocolVersion: number | undefined;
  readonly messages: { readonly client: number; readonly agent: number };
  readonly methods: readonly MethodRow[];
  readonly violations: readonly ViolationRow[];
  /**
   * Findings on rows that cannot be violated: a MAY (a permission) or tier
   * `none` (the cited text has no normative keyword: a declaration, an
   * inference, a diagram's step). Shown as notes, never as violations.
   */
  readonly noted: readonly ViolationRow[];
  readonly unanswered: readonly string[];
  readonly notes: readonly string[];
  readonly exitCode: number;
}

/** Builds the summary; violations are grouped by rule and requirement, in order of first occurrence; findings on MAY rows and rows of tier none are `noted`, not violations. */
export function buildSummary(state: MonitorState, violations: readonly Violation[], command: readonly string[], exitCode: number): Summary {
  const methods: MethodRow[] = [];
  for (const [method, c] of state.stats.methods) {
    methods.push({
      method,
      sentBy: [...c.senders].join("+") || "?",
      requests: c.requests,
      notifications: c.notifications,
      results: c.results,
      errors: c.errors,
      p50Ms: round(quantile(c.latencies, 0.5)),
      p99Ms: round(quantile(c.latencies, 0.99)),
    });
  }
  methods.sort((a, b) => a.method.localeCompare(b.method));
  const groups = new Map<string, { v: Violation; count: number }>();
  for (const v of violations) {
    const key = `${v.rule} ${v.requirement}`;
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { v, count: 1 });
  }
  const rows: ViolationRow[] = [...groups.values()].map(({ v, count }) => ({
    rule: v.rule,
    requirement: v.requirement,
    tier: requirement(v.requirement)?.tier ?? "?",
    by: v.by,
    count,
    title: RULES[v.rule].title,
    example: v.message,
  }));
  const noteOnly = (r: ViolationRow) => r.tier === "none" || r.tier === "MAY";
  return {
    command,
    table: state.table.name,
    protocolVersion: state.negotiated,
    messages: { ...state.stats.messages },
    methods,
    violations: rows.filter((r) => !noteOnly(r)),
    noted: rows.filter(noteOnly),
    unanswered: [...state.stats.unanswered],
    notes: [...state.notes],
    exitCode,
  };
}

function round(ms: number | undefined): number | undefined {
  return ms === undefined ? undefined : Math.round(ms * 1000) / 1000;
}

/** The summary as text for people. */
export function formatSummary(s: Summary): string {
  const lines: string[] = [];
  lines.push(`acp-router inspect: ${s.messages.client} messages from the client, ${s.messages.agent} from the agent; table ${s.table}${s.protocolVersion !== undefined ? `, protocol version ${s.protocolVersion}` : ", initialize not answered"}; agent exit ${s.exitCode}`);
  lines.push("");
  lines.push(row(["method", "sent by", "requests", "notifications", "results", "errors", "p50 ms", "p99 ms"]));
  for (const m of s.methods) lines.push(row([m.method, m.sentBy, m.requests, m.notifications, m.results, m.errors, fmt(m.p50Ms), fmt(m.p99Ms)]));
  lines.push("");
  if (s.violations.length === 0) lines.push("violations: none");
  else {
    lines.push(`violations: ${s.violations.reduce((n, v) => n + v.count, 0)} (${s.violations.length} rules)`);
    for (const v of s.violations) {
      lines.push(`  ${v.requirement} (${v.tier}) ${v.rule} by the ${v.by}, ${v.count}×: ${v.title}`);
      lines.push(`      e.g. ${v.example}`);
    }
  }
  for (const v of s.noted) lines.push(`noted, not a violation (${v.requirement} is ${v.tier === "MAY" ? "a MAY" : "a row without a normative keyword"}): ${v.rule} by the ${v.by}, ${v.count}×: ${v.example}`);
  if (s.unanswered.length > 0) lines.push(`unanswered at exit: ${s.unanswered.join(", ")}`);
  for (const n of s.notes) lines.push(`note: ${n}`);
  return `${lines.join("\n")}\n`;
}

const WIDTHS = [28, 14, 9, 14, 8, 7, 9, 9];

function row(cells: readonly (string | number)[]): string {
  return cells
    .map((c, i) => (i === 0 ? String(c).padEnd(WIDTHS[i] ?? 10) : String(c).padStart(WIDTHS[i] ?? 10)))
    .join(" ")
    .trimEnd();
}

function fmt(ms: number | undefined): string {
  return ms === undefined ? "-" : ms.toFixed(2);
}
