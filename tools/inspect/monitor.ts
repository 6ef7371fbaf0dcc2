/**
 * The observer behind `inspect`, `check`, `replay` and `report`: fed every
 * line of both directions in wire order, it parses and classifies each one
 * with the router's own code (src/jsonrpc), validates params and results
 * with the generated validators of the negotiated table (v1 stable, v1
 * unstable or v2, chosen as tables.ts describes), and checks the rules that
 * span messages (rules.ts, turns.ts). It never answers anything: it only
 * reports.
 */
import { classify, isResponseShaped } from "../../src/jsonrpc/classify.ts";
import { ParseFailure, parseValue } from "../../src/jsonrpc/parse.ts";
import { readerLimits } from "../../src/transport/reader.ts";
import { createCallBook, type Call, type CallBook } from "./calls.ts";
import { rawNumericId } from "./ids.ts";
import { checkEnvelope, type Found } from "./checks.ts";
import { onAnswer, onMalformedAnswer } from "./answers.ts";
import { onNotification, onRequest } from "./requests.ts";
import { createMcpTracker } from "./mcp.ts";
import { createStats, type Stats } from "./stats.ts";
import { BUILT_IN, type Table, type Tables } from "./tables.ts";
import { RULES, type RuleName, type Sender, type Violation } from "./rules.ts";
import type { MonitorState, Observed, SessionState } from "./monitor-state.ts";

export type { MonitorState, Observed, SessionState };

export interface Monitor {
  /**
   * Observes one line (without its newline) written by `from` at `t` ms.
   * `shallow`: the reader (`lineReader`, counting up to the default `maxDepth`) found
   * the line short enough, or counted few enough opening brackets in it, that
   * it cannot nest deeper, so the depth bound needs no scan.
   */
  observe(from: Sender, line: string, t: number, shallow?: boolean): Observed;
  /** A line longer than the framer's limit was skipped. */
  oversized(from: Sender, length: number, t: number): void;
  /** End of both streams: reports what was left undone. */
  end(t: number): readonly Violation[];
  readonly state: MonitorState;
  /** Every violation so far, in order. */
  readonly violations: readonly Violation[];
}

/** The violations of a message that has none (shared, never written to). */
const NONE: Violation[] = [];

/** Creates a monitor for one connection, judging with `tables` (the built-in ones unless given). */
export function createMonitor(tables: Tables = BUILT_IN): Monitor {
  // A connection's default depth bound, resolved as the connection resolves it.
  const { maxDepth } = readerLimits();
  const state: MonitorState = {
    tables,
    table: tables.initial,
    negotiated: undefined,
    initialized: false,
    initParams: undefined,
    clientCapabilities: undefined,
    agentCapabilities: undefined,
    authMethods: [],
    authenticated: false,
    sessions: new Map(),
    earlyUpdates: new Map(),
    calls: { client: createCallBook(), agent: createCallBook() },
    stats: createStats(),
    notes: [],
  };
  const all: Violation[] = [];
  const mcp = createMcpTracker();
  let index = -1;
  // The message being observed: one `report` serves every message (no closure per message on the hot path).
  let found: Violation[] = NONE;
  let current: Sender = "client";
  let now = 0;
  const report: Found = (rule: RuleName, message: string, by: Sender = current, requirement?: string) => {
    const v: Violation = { rule, requirement: requirement ?? RULES[rule].requirement, by, message, t: now, index };
    if (found === NONE) found = [];
    found.push(v);
    all.push(v);
  };

  const observe = (from: Sender, line: string, t: number, shallow = false): Observed => {
    index++;
    found = NONE;
    current = from;
    now = t;
    const value = parseValue(line, maxDepth, shallow);
    if (value instanceof ParseFailure) {
      state.calls[from].nullOwed++;
      state.stats.nonJson++;
      const shown = line.length > 80 ? `${line.slice(0, 80)}…` : line;
      report("non-json", `${from} wrote a line that is not JSON (${value.reason}): ${JSON.stringify(shown)}`, from, from === "agent" ? "ACP-TRANSPORT-001" : "ACP-TRANSPORT-101");
      return { index, t, from, kind: "non_json", method: undefined, id: undefined, answers: undefined, violations: found };
    }
    if (Array.isArray(value)) {
      // A receiver may refuse a batch whole with one -32600 and id null (v1, and SDK-built v2 peers): that answer is owed to this line.
      state.calls[from].nullOwed++;
      for (const item of value) one(from, item, t, report);
      return { index, t, from, kind: "batch", method: undefined, id: undefined, answers: undefined, violations: found };
    }
    // `found` is read after `one`: the violations it reported are in it.
    const o = one(from, value, t, report, line);
    o.violations = found;
    return o;
  };

  /** One message (a batch's item, or the whole line): its checks, its counts, and what the trace and recording show of it. */
  const one = (from: Sender, body: unknown, t: number, report: Found, line?: string): { -readonly [K in keyof Observed]: Observed[K] } => {
    const kind = classify(body);
    const m = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
    const method = typeof m.method === "string" ? m.method : undefined;
    let answers: Observed["answers"];
    const envelopeOk = checkEnvelope(m, kind, report);
    switch (kind) {
      case "request":
        onRequest(state, from, m, envelopeOk, t, index, report);
        break;
      case "unidentified_request":
        state.calls[from].nullOwed++;
        if (typeof m.id === "number") state.calls[from].numericUnusable.push({ value: m.id, raw: line === undefined ? undefined : rawNumericId(line, m.id) });
        // An integer beyond 2^53 is a valid int64 id (the schema's RequestId): nothing to report about the sender.
        if (!Number.isInteger(m.id)) report("request-id", `${from} sent request ${method} with id ${JSON.stringify(m.id)}, which is not a string or an integer`, from, m.id === null || typeof m.id === "number" ? "ACP-JSONRPC-103" : "ACP-JSONRPC-102");
        break;
      case "notification":
        onNotification(state, from, m, envelopeOk, index, report);
        break;
      case "response":
        answers = onAnswer(state, from, m, t, report);
        break;
      default:
        if (isResponseShaped(body)) answers = onMalformedAnswer(state, from, m, t, report, line);
        else {
          state.calls[from].nullOwed++;
          report("envelope", `${from} sent ${describe(body)}, which is neither a request, a notification nor a response`);
        }
    }
    state.stats.count(from, kind, method ?? answers?.method, answers);
    return { index, t, from, kind, method, id: m.id, answers, mcp: mcp.observe(from, kind, m, answers?.method, report), violations: NONE };
  };

  return {
    observe,
    oversized(from, length, t) {
      state.calls[from].nullOwed++;
      state.notes.push(`${from} wrote a line of ${length} characters, over the framing limit, at ${t.toFixed(1)} ms`);
    },
    end(t) {
      const found: Violation[] = [];
      const push = (rule: RuleName, by: Sender, message: string) => {
        const v: Violation = { rule, requirement: RULES[rule].requirement, by, message, t, index: -1 };
        found.push(v);
        all.push(v);
      };
      for (const message of state.earlyUpdates.values()) push("unknown-session", "agent", `${message}, and no answer introduced it before the end`);
      state.earlyUpdates.clear();
      for (const from of ["client", "agent"] as const) {
        for (const call of state.calls[from].pending.values()) {
          const answerer = from === "client" ? "agent" : "client";
          if (call.cancelledByRequest) push("cancel-unanswered", answerer, `${answerer} never answered ${describeCall(call)}, cancelled with $/cancel_request`);
          else if (call.method === "session/request_permission" && call.cancelledBySession && !call.reported) push("permission-after-cancel", "client", `client never answered ${describeCall(call)} after session/cancel`);
          else state.stats.unanswered.push(`${describeCall(call)} from ${from}`);
        }
      }
      return found;
    },
    state,
    violations: all,
  };
}

/** `session/prompt #3` — how violations name a call. */
export function describeCall(call: Pick<Call, "method" | "id">): string {
  return `${call.method} #${JSON.stringify(call.id)}`;
}

function describe(body: unknown): string {
  if (body === null || typeof body !== "object") return `the JSON ${typeof body} ${JSON.stringify(body)?.slice(0, 40)}`;
  const keys = Object.keys(body).slice(0, 6);
  return `an object with keys ${keys.length > 0 ? keys.join(", ") : "(none)"}`;
}
