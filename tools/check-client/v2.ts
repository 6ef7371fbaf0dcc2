/**
 * `check --client` on a client that speaks ACP v2. check's agent answers
 * the version the client offers (agent.ts), so a client offering 2 runs
 * every scenario in v2 (the prompt acknowledged with a messageId, the turn
 * ended by an idle `state_update`, permission requests with a title, no fs
 * or terminal methods), and its scorecard lists the client-side rows of
 * docs/conformance-catalogue-v2.json (side `client` or `both`). The turns
 * and judges score v1 ids; {@link V1_TO_V2} carries each to the v2 row that
 * states the same requirement, and a v1-only row that fails becomes a note
 * (its requirement is not in the v2 catalogue). The extra `version-down`
 * run answers the v2 client's initialize with version 1: it must fall back
 * to v1 (initialize again with 1, or go on in v1) or close the connection.
 */
import { isAbsolute } from "node:path";
import v2Entries from "../../docs/conformance-catalogue-v2.json" with { type: "json" };
import type { Checklist } from "../check/checklist.ts";
import { createScorecard, fail, na, notObservable, notRun, pass, type Scorecard, type Verdict } from "../check/score.ts";
import { NOT_OBSERVABLE } from "./coverage-reasons.ts";
import { BATCH_ROWS } from "./scenarios.ts";
import { judgeAddedV2ClientRows } from "./v2-rows.ts";
import type { RunResult } from "./run.ts";
import { quoteText } from "../check/kit.ts";

/** The client-side rows of the v2 catalogue. */
export const CLIENT_CHECKLIST_V2: Checklist = {
  version: 2,
  catalogue: "docs/conformance-catalogue-v2.json (ACP v2, client side)",
  entries: v2Entries.filter((e) => e.side !== "agent"),
  tier: (id) => v2Entries.find((e) => e.id === id)?.tier ?? "?",
};

/** The v1 ids the scenarios score, and the v2 row stating the same requirement. */
export const V1_TO_V2: Readonly<Record<string, string>> = {
  "ACP-INIT-101": "ACP-INIT-301",
  "ACP-INIT-102": "ACP-INIT-307",
  "ACP-INIT-103": "ACP-INIT-382",
  "ACP-INIT-104": "ACP-INIT-381",
  "ACP-INIT-105": "ACP-INIT-305",
  "ACP-INIT-106": "ACP-INIT-383",
  "ACP-INIT-107": "ACP-INIT-306",
  "ACP-SESSION-102": "ACP-SESSION-381",
  "ACP-PROMPT-102": "ACP-PROMPT-381",
  "ACP-AGENTCAP-101": "ACP-PROMPT-382",
  "ACP-AGENTCAP-108": "ACP-SESSION-382",
  "ACP-AGENTCAP-109": "ACP-SESSION-383",
  "ACP-PERM-101": "ACP-CANCEL-382",
  "ACP-PERM-102": "ACP-CANCEL-382",
  "ACP-CANCEL-103": "ACP-CANCEL-383",
  "ACP-CANCEL-104": "ACP-CANCEL-381",
  "ACP-CANCEL-110": "ACP-CANCEL-301",
  "ACP-TRANSPORT-002": "ACP-TRANSPORT-301",
  "ACP-TRANSPORT-203": "ACP-TRANSPORT-302",
  "ACP-TRANSPORT-101": "ACP-TRANSPORT-381",
  "ACP-TRANSPORT-103": "ACP-TRANSPORT-382",
  "ACP-TRANSPORT-104": "ACP-TRANSPORT-304",
  "ACP-JSONRPC-001": "ACP-JSONRPC-302",
  "ACP-JSONRPC-102": "ACP-JSONRPC-301",
  "ACP-EXT-001": "ACP-EXT-302",
  "ACP-EXT-201": "ACP-EXT-303",
  "ACP-EXT-102": "ACP-EXT-301",
  "ACP-SCHEMA-002": "ACP-EXT-304",
  "ACP-CANCEL-105": "ACP-CANCEL-303",
};

/** A scorecard of `inner` (the v2 checklist) that takes v1 ids: mapped ones land on their v2 row; other fails become notes. */
export function v2Scorecard(): Scorecard & { readonly inner: Scorecard } {
  const inner = createScorecard(CLIENT_CHECKLIST_V2);
  const own = new Set(CLIENT_CHECKLIST_V2.entries.map((e) => e.id));
  const target = (id: string) => V1_TO_V2[id] ?? (own.has(id) ? id : undefined);
  const card: Scorecard & { readonly inner: Scorecard } = {
    inner,
    checklist: inner.checklist,
    notes: inner.notes,
    sections: inner.sections,
    score(id: string, v: Verdict) {
      const t = target(id);
      if (t !== undefined) inner.score(t, v);
      else if (v.outcome === "fail") inner.notes.push(`${id} (a v1 requirement, not in the v2 catalogue) would fail: ${v.evidence}`);
    },
    all(ids, v) {
      // Mapped ids in one call, so rows one observation decides stay linked on the v2 card.
      const mapped = [...new Set(ids.flatMap((id) => target(id) ?? []))];
      inner.all(mapped, v);
      for (const id of ids) if (target(id) === undefined) card.score(id, v);
    },
    has: (id) => {
      const t = target(id);
      return t !== undefined && inner.has(t);
    },
    annotate(id, text) {
      const t = target(id);
      if (t !== undefined) inner.annotate(t, text);
    },
    restate(id, from, why) {
      const t = target(id);
      const f = target(from);
      if (t !== undefined && f !== undefined) inner.restate?.(t, f, why);
    },
    link(id, primary, why) {
      const t = target(id);
      const p = target(primary);
      if (t !== undefined && p !== undefined) inner.link(t, p, why);
    },
    rows: (unprobed) => inner.rows(unprobed),
  };
  return card;
}

/** The lifecycle methods a client should not batch (ACP-JSONRPC-310). */
const LIFECYCLE = new Set(["initialize", "auth/login", "auth/logout", "session/new", "session/resume", "session/close", "session/delete"]);

/** Scores the v2 rows the finished runs decide (after the mapped v1 judging), and gives every open row its reason. */
export function judgeCoverageV2(card: Scorecard, runs: readonly RunResult[]): void {
  const connected = runs.filter((r) => r.peer.connected);
  if (connected.length === 0) return;
  const lines = connected.flatMap((r) => r.peer.lines);
  const bodies = lines.map((l) => l.body).filter((b): b is Record<string, unknown> => b !== undefined);
  const requests = bodies.filter((b) => typeof b.method === "string" && "id" in b);
  const sent = (method: string) => requests.some((b) => b.method === method);
  const violated = (ids: readonly string[]) => connected.some((r) => r.peer.monitor.violations.some((v) => v.by === "client" && ids.includes(v.requirement)));
  if (requests.length > 0) {
    card.score("ACP-JSONRPC-301", violated(["ACP-JSONRPC-301", "ACP-JSONRPC-102", "ACP-JSONRPC-103"]) ? fail("a request of the client had an id that is not a string or an integer (see the notes)") : pass);
    const reused = connected.flatMap((r) => r.peer.monitor.violations).find((v) => v.by === "client" && v.rule === "duplicate-request-id");
    card.score("ACP-JSONRPC-303", reused !== undefined ? fail(`the client reused a request id while that request was pending: ${reused.message}`) : pass);
  }
  const batches = lines.filter((l) => l.body === undefined && l.text.trimStart().startsWith("["));
  const lifecycleBatched = batches.filter((l) => {
    try {
      const items = JSON.parse(l.text) as unknown[];
      return items.some((m) => LIFECYCLE.has(String((m as { method?: unknown } | null)?.method)));
    } catch {
      return false;
    }
  });
  card.score("ACP-JSONRPC-310", lifecycleBatched.length === 0 ? pass : fail(`the client batched a lifecycle message: ${quoteText(lifecycleBatched[0]?.text ?? "")}`));
  const sessions = connected.some((r) => r.handshake.sessions.length > 0);
  if (sessions) {
    card.score("ACP-AUTH-302", sent("auth/login") || sent("auth/logout") ? fail("the client called auth/login or auth/logout although check's agent returned no authMethods") : pass);
    card.score("ACP-CANCEL-304", sent("tool_call/cancel") ? fail("the client sent tool_call/cancel although no tool call advertised capabilities.cancel") : pass);
    card.score("ACP-CANCEL-305", sent("terminal/cancel") ? fail("the client sent terminal/cancel although no terminal advertised capabilities.cancel") : pass);
    card.score("ACP-INIT-306", violated(["ACP-INIT-306", "ACP-SESSION-301"]) ? fail("the client called a method the agent did not advertise (see the notes)") : pass);
    card.score("ACP-INIT-382", violated(["ACP-JSONRPC-101"]) ? fail("the client's messages broke the schema of the version it negotiated") : pass);
  }
  const news = lines.filter((l) => l.body?.method === "session/new").map((l) => (l.body?.params ?? {}) as Record<string, unknown>);
  if (news.length > 0) {
    const dirs = news.flatMap((p) => (Array.isArray(p.additionalDirectories) ? p.additionalDirectories : []));
    card.score("ACP-SESSION-382", dirs.length === 0 ? pass : fail(`session/new carried additionalDirectories although check's agent did not advertise session.additionalDirectories`));
    const remote = news.flatMap((p) => (Array.isArray(p.mcpServers) ? p.mcpServers : [])).filter((s) => ["http", "sse"].includes(String((s as { type?: unknown } | null)?.type)));
    card.score("ACP-SESSION-383", remote.length === 0 ? pass : fail("session/new carried an HTTP MCP server although check's agent advertised no MCP capability"));
    if (news.some((p) => typeof p.cwd !== "string" || !isAbsolute(p.cwd))) card.notes.push(`session/new carried a cwd that is not an absolute path: ${JSON.stringify(news.find((p) => typeof p.cwd !== "string" || !isAbsolute(p.cwd))?.cwd)}`);
  }
  judgeAddedV2ClientRows(card, connected);
  card.score("ACP-TRANSPORT-382", pass);
  card.score("ACP-TRANSPORT-304", na("the client runs the agent over stdio, not a custom transport"));
  card.score("ACP-CANCEL-303", na("check's agent sends no $/cancel_request"));
  card.score("ACP-INIT-383", notObservable(NOT_OBSERVABLE["ACP-INIT-106"] ?? ""));
  card.score("ACP-CANCEL-381", notObservable(NOT_OBSERVABLE["ACP-CANCEL-104"] ?? ""));
  for (const e of card.checklist.entries) {
    if (card.has(e.id)) continue;
    if (e.tier === "MAY") card.score(e.id, na("a MAY grants a permission: no traffic can break it"));
  }
  for (const id of BATCH_ROWS) if (!card.has(id)) card.score(id, notRun("the updates run did not reach its batch probes"));
}

/**
 * Scores the `version-down` run, where a v2 client's initialize was
 * answered with version 1: ACP-INIT-382 passes when the client initialized
 * again with 1, or went on with messages valid in v1, or closed the
 * connection; it fails when what followed broke the v1 schema, or when the
 * client neither went on nor closed (ended at the run's bound).
 */
export function judgeVersionDown(card: Scorecard, run: RunResult): void {
  const hs = run.handshake;
  if (hs.initAnsweredAt === undefined) return;
  const lead = "a v2 initialize was answered with protocolVersion 1";
  const broke = run.peer.monitor.violations.filter((v) => v.by === "client" && v.t >= (hs.initAnsweredAt ?? 0) && (v.rule === "schema" || v.rule === "envelope"));
  // A client that initialized again with 1 fell back, whatever became of what it sent next (a line check could not read is another row's).
  const again = hs.offered.slice(1).includes(1);
  if (broke.length > 0) card.score("ACP-INIT-382", fail(`${lead}, and the client went on outside v1: ${broke[0]?.message ?? ""}`));
  else if (!again && hs.wentOn === undefined && run.ended) card.score("ACP-INIT-382", fail(`${lead}; the client neither fell back nor closed the connection (ended at the run's bound)`));
  else {
    card.score("ACP-INIT-382", pass);
    card.notes.push(`version-down run: ${lead}; the client ${again ? "initialized again with 1" : hs.wentOn !== undefined ? `went on in v1 (${hs.wentOn.method})` : "closed the connection"}`);
  }
}
