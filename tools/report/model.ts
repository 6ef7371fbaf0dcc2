/**
 * What the HTML report shows, computed from a recording: every message with
 * its direction, kind, method, session and pairing (a request's answer and
 * duration, an answer's request), and every violation attached to the
 * message it was found on. Pairing and violations come from running the
 * recording through the same monitor `inspect` uses, so the same table
 * (chosen from the negotiated version) judges it.
 */
import { createMonitor } from "../inspect/monitor.ts";
import { readRecording } from "../inspect/recording.ts";
import { citationUrl, requirement } from "../inspect/requirements.ts";
import type { Sender } from "../inspect/rules.ts";
import { describeTable } from "../inspect/tables.ts";

export interface ReportMessage {
  readonly index: number;
  readonly t: number;
  readonly from: Sender;
  readonly kind: string;
  readonly method: string;
  readonly id: string;
  readonly session: string;
  /** The raw line. */
  readonly json: string;
  /** For a request: index of its answer; for an answer: index of its request. */
  pair: number | undefined;
  /** Answer latency in ms, on both the request and the answer. */
  ms: number | undefined;
  error: number | undefined;
}

export interface ReportViolation {
  readonly index: number;
  readonly t: number;
  readonly rule: string;
  readonly requirement: string;
  readonly tier: string;
  readonly by: Sender;
  readonly message: string;
  readonly url: string | undefined;
}

export interface ReportModel {
  readonly title: string;
  readonly started: string;
  /** The table that judged the trace, as inspect's summary says it (`table v2, protocol version 2`). */
  readonly table: string;
  /** inspect's notes: a version without a table, a switch to the unstable table. */
  readonly notes: readonly string[];
  readonly messages: readonly ReportMessage[];
  readonly violations: readonly ReportViolation[];
}

/** Builds the model from a recording's text. */
export function buildModel(text: string): ReportModel {
  const monitor = createMonitor();
  const messages: ReportMessage[] = [];
  const requests = new Map<string, number>();
  let title = "ACP trace";
  let started = "";
  let last = 0;
  for (const e of readRecording(text)) {
    if (e.type === "start") {
      title = e.command.join(" ") || title;
      started = e.time;
      continue;
    }
    if (e.type !== "message" && e.type !== "raw") continue;
    last = e.t;
    const o = monitor.observe(e.from, e.line, e.t);
    const body = (e.type === "message" && typeof e.msg === "object" && e.msg !== null ? e.msg : {}) as Record<string, unknown>;
    const params = body.params as { sessionId?: unknown } | undefined;
    const m: ReportMessage = {
      index: o.index, t: e.t, from: e.from, kind: o.kind, method: `${o.method ?? o.answers?.method ?? ""}${o.mcp === undefined ? "" : ` [${o.mcp}]`}`, id: o.id === undefined ? "" : JSON.stringify(o.id),
      session: typeof params?.sessionId === "string" ? params.sessionId : "", json: e.line, pair: undefined, ms: undefined, error: o.answers?.error,
    };
    const key = `${e.from}:${m.id}`;
    if (o.kind === "request") requests.set(key, o.index);
    if (o.answers) {
      const requestKey = `${e.from === "client" ? "agent" : "client"}:${m.id}`;
      const req = requests.get(requestKey);
      const r = req === undefined ? undefined : messages[req];
      if (r) {
        requests.delete(requestKey);
        r.pair = m.index;
        r.ms = o.answers.ms;
        r.error = o.answers.error;
        m.pair = r.index;
      }
      m.ms = o.answers.ms;
    }
    messages.push(m);
  }
  monitor.end(last);
  const violations = monitor.violations.map((v) => {
    const entry = requirement(v.requirement);
    return { index: v.index, t: v.t, rule: v.rule, requirement: v.requirement, tier: entry?.tier ?? "?", by: v.by, message: v.message, url: entry ? citationUrl(entry.citation) : undefined };
  });
  // Answers belong to their request's session.
  for (const m of messages) if (m.session === "" && m.pair !== undefined) (m as { session: string }).session = messages[m.pair]?.session ?? "";
  return { title, started, table: describeTable(monitor.state), notes: [...monitor.state.notes], messages, violations };
}
