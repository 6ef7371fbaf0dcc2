/**
 * The offers run of `check --client` (v1): check's agent advertised session/list paging and offered auth methods,
 * a terminal one only to a client that advertised auth.terminal; how the client used them.
 */
import { isAbsolute } from "node:path";
import { quoteText } from "../check/kit.ts";
import { fail, na, pass, passNoted, type Scorecard } from "../check/score.ts";
import { LIST_CURSOR } from "./agent.ts";
import type { RunResult } from "./run.ts";

/**
 * Scores the offers run (v1; agent.ts): check's agent advertised
 * sessionCapabilities.list and offered auth methods.
 *
 * - ACP-AUTH-101 / ACP-AUTH-102 (MUST NOT, the same rule in the schema and the
 *   prose): a terminal method is offered only to a client that advertised
 *   auth.terminal; an authenticate naming it fails both, with the method
 *   offered and the line sent; a client that went on past initialize without
 *   one passes.
 * - ACP-AUTH-103 (no keyword: a method without type is read as type agent):
 *   an authenticate naming the type-less method is what an agent-type method
 *   allows, a pass with a note; no authenticate shows nothing, n/a.
 * - ACP-LIST-106 (MUST: cursors are opaque): every session/list cursor must be
 *   {@link LIST_CURSOR} byte for byte; ACP-LIST-105 (MUST: a missing
 *   nextCursor ends the results): no session/list with a cursor after the last
 *   page; ACP-LIST-102 (MUST: the cwd filter is absolute); ACP-LIST-101 (MUST:
 *   initialization first; the monitor fails a breach) passes on a listing.
 */
export function judgeOffers(card: Scorecard, run: RunResult): void {
  const hs = run.handshake;
  if (hs.initAnsweredAt === undefined || hs.version !== 1) return;
  const goneOn = hs.wentOn !== undefined;
  const methodOf = (l: { body: Record<string, unknown> | undefined }) => (l.body?.params as { methodId?: unknown } | undefined)?.methodId;
  const terminal = hs.authOffered.find((m) => m.type === "terminal");
  const typeless = hs.authOffered.find((m) => m.type === undefined);
  const offered = `check's agent answered initialize with authMethods ${JSON.stringify(hs.authOffered)}`;
  if (terminal === undefined) card.all(["ACP-AUTH-101", "ACP-AUTH-102"], na("the client did not advertise clientCapabilities.auth.terminal, so check's agent offered no terminal auth method (an agent offers one only then)"));
  else {
    const bad = hs.authenticates.find((l) => methodOf(l) === terminal.id);
    if (bad !== undefined) card.all(["ACP-AUTH-101", "ACP-AUTH-102"], fail(`${offered}, and the client sent ${quoteText(bad.text)}: a terminal method is run outside ACP, never passed to authenticate`));
    else if (goneOn) card.all(["ACP-AUTH-101", "ACP-AUTH-102"], pass);
    else card.all(["ACP-AUTH-101", "ACP-AUTH-102"], na(`${offered}; the client sent nothing after initialize`));
  }
  if (typeless !== undefined) {
    const used = hs.authenticates.find((l) => methodOf(l) === typeless.id);
    if (used !== undefined) {
      card.score("ACP-AUTH-103", passNoted(`the client called authenticate with the method without type (read as type agent, which authenticate serves): ${quoteText(used.text)}`));
    } else card.score("ACP-AUTH-103", na(`${offered}; the client called authenticate with no method, so nothing on the wire shows how it read the method without type`));
  }
  const listRows = ["ACP-LIST-101", "ACP-LIST-102", "ACP-LIST-105", "ACP-LIST-106"];
  if (hs.lists.length === 0) return void card.all(listRows, na(`check's agent advertised sessionCapabilities.list in the offers run, and the client sent no session/list`));
  card.score("ACP-LIST-101", pass);
  const cwds = hs.lists.map((l) => (l.line.body?.params as { cwd?: unknown } | undefined)?.cwd).filter((c) => c !== undefined && c !== null);
  const relative = cwds.find((c) => typeof c !== "string" || !isAbsolute(c));
  card.score("ACP-LIST-102", cwds.length === 0 ? na("the client's session/list carried no cwd filter") : relative === undefined ? pass : fail(`session/list carried the cwd filter ${JSON.stringify(relative)}, not an absolute path`));
  const paged = hs.lists.filter((l) => (l.line.body?.params as { cursor?: unknown } | undefined)?.cursor !== undefined && (l.line.body?.params as { cursor?: unknown }).cursor !== null);
  const first = hs.lists.find((l) => l.answered === "first");
  const given = `check's agent answered ${first !== undefined ? `session/list ${quoteText(first.line.text)}` : "session/list"} with nextCursor ${JSON.stringify(LIST_CURSOR)}`;
  const altered = paged.find((l) => (l.line.body?.params as { cursor?: unknown }).cursor !== LIST_CURSOR);
  if (altered !== undefined) card.score("ACP-LIST-106", fail(`${given}, and the client sent cursor ${JSON.stringify((altered.line.body?.params as { cursor?: unknown }).cursor)}: ${quoteText(altered.line.text)}`));
  else if (paged.length > 0) card.score("ACP-LIST-106", pass);
  else card.score("ACP-LIST-106", na(`${given}; the client did not ask for the next page, so no cursor came back`));
  const lastAt = hs.lists.findIndex((l) => l.answered === "last");
  if (lastAt < 0) card.score("ACP-LIST-105", na("the client did not fetch the last page (the one without nextCursor)"));
  else {
    const after = hs.lists.slice(lastAt + 1).find((l) => paged.includes(l));
    card.score("ACP-LIST-105", after === undefined ? pass : fail(`the page answering ${quoteText(hs.lists[lastAt]?.line.text ?? "")} had no nextCursor, and the client went on with ${quoteText(after.line.text)}`));
  }
}
