/**
 * What the HTML report shows, computed from a recording: every message with
 * its direction, kind, method, session and pairing (a request's answer and
 * duration, an answer's request), and every violation attached to the
 * message it was found on. Pairing and violations come from running the
 * recording through the same monitor `inspect` uses, so the same table
 * (chosen from the negotiated version) judges it. A trace in the Rust
 * conductor's format (tools/inspect/rust-trace.ts) may hold several hops of a
 * chain: each hop gets its own monitor, and each message names its hop; the
 * MCP messages such a trace unwraps from `mcp/message` are shown, not judged.
 * Every message shows the W3C trace id of its `_meta.traceparent`, if any.
 */
import { createMonitor, type Monitor } from "../inspect/monitor.ts";
import { readRecording } from "../inspect/recording.ts";
import { citationUrl, requirement } from "../inspect/requirements.ts";
import type { Sender } from "../inspect/rules.ts";
import { describeTable } from "../inspect/tables.ts";
import { sessionIdOf } from "../../src/jsonrpc/session-id.ts";

export interface ReportMessage {
  readonly index: number;
  readonly t: number;
  readonly from: Sender;
  readonly kind: string;
  readonly method: string;
  readonly id: string;
  readonly session: string;
  /** The hop, for a trace of a chain (`Client ↔ Proxy(0)`); empty for a recording of one connection. */
  readonly hop: string;
  /** Sender and receiver names on that hop (`Proxy(0)`, `Agent`); empty for a recording of one connection. */
  readonly fromName: string;
  readonly toName: string;
  /** The trace id (32 hex digits) of the message's `_meta.traceparent` (params, or an answer's result), empty when it carries none. */
  readonly traceId: string;
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

/** The trace id of a W3C `traceparent` (`00-<trace id>-<parent id>-<flags>`) in `_meta` of the message's params or result. */
export function traceIdOf(body: Record<string, unknown>): string {
  for (const part of [body.params, body.result]) {
    const meta = typeof part === "object" && part !== null ? (part as { _meta?: unknown })._meta : undefined;
    const tp = typeof meta === "object" && meta !== null ? (meta as { traceparent?: unknown }).traceparent : undefined;
    const m = typeof tp === "string" ? /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/.exec(tp) : null;
    if (m) return m[1]!;
  }
  return "";
}

/** Builds the model from a recording's text. */
export function buildModel(text: string): ReportModel {
  /** One monitor per hop ("" for a recording of one connection), with the model index of each message it saw. */
  const hops = new Map<string, { readonly monitor: Monitor; readonly indexes: number[] }>();
  const hopOf = (name: string) => {
    let h = hops.get(name);
    if (h === undefined) {
      h = { monitor: createMonitor(), indexes: [] };
      hops.set(name, h);
    }
    return h;
  };
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
    const hop = e.type === "message" ? e.hop : undefined;
    const body = (e.type === "message" && typeof e.msg === "object" && e.msg !== null ? e.msg : {}) as Record<string, unknown>;
    const params = body.params;
    const index = messages.length;
    const id = body.id === undefined ? "" : JSON.stringify(body.id);
    const names = { hop: hop?.name ?? "", fromName: hop?.from ?? "", toName: hop?.to ?? "", traceId: traceIdOf(body) };
    if (hop?.mcp) {
      // An MCP message the conductor unwrapped: shown with its hop, not judged by ACP's rules.
      const kind = typeof body.method === "string" ? (body.id === undefined ? "notification" : "request") : "response";
      messages.push({ index, t: e.t, from: e.from, kind, method: `${typeof body.method === "string" ? body.method : ""} [mcp]`, id, session: "", ...names, json: e.line, pair: undefined, ms: undefined, error: undefined });
      continue;
    }
    const h = hopOf(hop?.name ?? "");
    h.indexes.push(index);
    // The conductor initializes a proxy with `_proxy/initialize`: on its hop, that is the initialize the rules expect.
    const proxyInit = hop !== undefined && body.method === "_proxy/initialize";
    const o = h.monitor.observe(e.from, proxyInit ? JSON.stringify({ ...body, method: "initialize" }) : e.line, e.t);
    const m: ReportMessage = {
      index,
      t: e.t,
      from: e.from,
      kind: o.kind,
      method: `${proxyInit ? "_proxy/initialize" : (o.method ?? o.answers?.method ?? "")}${o.mcp === undefined ? "" : ` [${o.mcp}]`}`,
      id: o.id === undefined ? "" : JSON.stringify(o.id),
      session: sessionIdOf(params) ?? "",
      ...names,
      json: e.line,
      pair: undefined,
      ms: undefined,
      error: o.answers?.error,
    };
    const key = `${names.hop}:${e.from}:${m.id}`;
    if (o.kind === "request") requests.set(key, index);
    if (o.answers) {
      const requestKey = `${names.hop}:${e.from === "client" ? "agent" : "client"}:${m.id}`;
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
  const violations: ReportViolation[] = [];
  for (const [name, h] of hops) {
    h.monitor.end(last);
    for (const v of h.monitor.violations) {
      const entry = requirement(v.requirement);
      violations.push({
        index: v.index < 0 ? -1 : (h.indexes[v.index] ?? -1),
        t: v.t,
        rule: v.rule,
        requirement: v.requirement,
        tier: entry?.tier ?? "?",
        by: v.by,
        message: name === "" ? v.message : `${name}: ${v.message}`,
        url: entry ? citationUrl(entry.citation) : undefined,
      });
    }
  }
  violations.sort((a, b) => a.t - b.t);
  // Answers belong to their request's session.
  for (const m of messages) if (m.session === "" && m.pair !== undefined) (m as { session: string }).session = messages[m.pair]?.session ?? "";
  const first = hops.values().next().value?.monitor ?? createMonitor();
  const notes = [...hops].flatMap(([name, h]) => h.monitor.state.notes.map((n) => (name === "" ? n : `${name}: ${n}`)));
  return { title, started, table: describeTable(first.state), notes, messages, violations };
}
