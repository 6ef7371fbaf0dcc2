/**
 * The client-side rows of the v2 catalogue that every keyword sentence of the
 * stable v2 pages and schema added, judged on a v2 client's finished runs:
 * the paths, MCP servers and prompts it sends, the session methods it calls
 * (after initialize; session/delete never, since check's agent advertises no
 * session.delete), the `_meta` trace context it writes, the custom
 * capabilities it should advertise once it serves a `_` request, and the
 * rows that restate another in other words (decided by the same
 * observation). A row about something only an agent sends (stop reasons,
 * tool calls, plans, config options, auth methods) is n/a on a client's
 * card, with why.
 */
import { isAbsolute } from "node:path";
import { fail, na, pass, type Scorecard, type Verdict } from "../check/score.ts";
import { traceContextUses } from "../check/trace-context.ts";
import type { RunResult } from "./run.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** v2 client rows that restate another row: the same observation decides both. */
const RESTATED: readonly (readonly [string, string, string])[] = [
  ["ACP-AUTH-304", "ACP-AUTH-302", "the same rule as the schema and migration guide state it"],
  ["ACP-CANCEL-314", "ACP-CANCEL-382", "the same rule as the tool-call page states it"],
  ["ACP-CANCEL-315", "ACP-CANCEL-383", "the same rule as the migration guide and schema state it"],
];

/** Rows whose subject only an agent sends, n/a on a client's card. */
const AGENT_ONLY: Readonly<Record<string, string>> = {
  "ACP-AUTH-306": "auth methods",
  "ACP-PROMPT-322": "stop reasons",
  "ACP-PERM-305": "permission options",
  "ACP-TOOL-304": "tool calls",
  "ACP-TOOL-305": "tool calls",
  "ACP-PLAN-302": "plans",
  "ACP-PLAN-304": "plans",
  "ACP-PLAN-305": "plans",
  "ACP-CONFIG-310": "config options",
  "ACP-CONFIG-313": "config options",
  "ACP-EXT-310": "commands",
  "ACP-EXT-312": "icons",
};

/** Scores the added v2 client rows on the connected runs' traffic. */
export function judgeAddedV2ClientRows(card: Scorecard, runs: readonly RunResult[]): void {
  const lines = runs.flatMap((r) => r.peer.lines);
  const sent = (method: string) => lines.filter((l) => l.body?.method === method).map((l) => ({ l, p: isObj(l.body?.params) ? l.body.params : {} }));
  const quoted = (text: string) => (text.length > 2048 ? `${text.slice(0, 2048)}… (${text.length} bytes)` : text);
  const each = <T extends { l: { text: string } }>(id: string, items: readonly T[], none: string, bad: (x: T) => string | undefined): void => {
    if (items.length === 0) return card.score(id, na(none));
    for (const x of items) {
      const why = bad(x);
      if (why !== undefined) return card.score(id, fail(`${why}: the client sent ${quoted(x.l.text)}`));
    }
    card.score(id, pass);
  };
  for (const [id, what] of Object.entries(AGENT_ONLY)) card.score(id, na(`the client sends no ${what}: this binds an agent`));
  card.all(["ACP-AUTH-305", "ACP-AUTH-307"], na("check's v2 agent lists no auth methods, so the client has none to pass to auth/login"));
  card.all(["ACP-LIST-304", "ACP-LIST-305"], na("check's v2 agent hands out no session/list cursor"));
  card.score("ACP-SESSION-325", na("check's agent never answers session/close with -32002, so how the client reads one does not show"));
  card.score("ACP-ELICIT-314", na("check's v2 agent sends no elicitation"));

  const news = sent("session/new");
  const resumes = sent("session/resume");
  const closes = sent("session/close");
  const listed = [...sent("session/list"), ...sent("session/delete")];
  const initAt = lines.findIndex((l) => l.body?.method === "initialize");
  each("ACP-INIT-311", listed, "the client called neither session/list nor session/delete", (x) => (initAt === -1 || lines.indexOf(x.l) < initAt ? `${String(x.l.body?.method)} before initialize` : undefined));
  each("ACP-DELETE-301", sent("session/delete"), "the client called no session/delete, which check's agent never advertises", () => "session/delete although check's agent did not advertise session.delete");
  if (sent("session/delete").length === 0 && news.length > 0) card.score("ACP-DELETE-301", pass);
  each("ACP-SESSION-305", [...resumes, ...closes], "the client called neither session/resume nor session/close", (x) =>
    typeof x.p.sessionId !== "string" ? "no sessionId" : x.l.body?.method === "session/resume" && typeof x.p.cwd !== "string" ? "session/resume without the session's cwd" : undefined,
  );
  const cwds = [...news, ...resumes].filter((x) => x.p.cwd !== undefined);
  each("ACP-SESSION-313", cwds, "the client sent no session cwd", (x) => (typeof x.p.cwd === "string" && isAbsolute(x.p.cwd) ? undefined : `the cwd ${JSON.stringify(x.p.cwd)} is not absolute`));
  const dirs = [...news, ...resumes].filter((x) => Array.isArray(x.p.additionalDirectories) && x.p.additionalDirectories.length > 0);
  each("ACP-SESSION-312", dirs, "the client sent no additionalDirectories", (x) => ((x.p.additionalDirectories as unknown[]).every((d) => typeof d === "string" && isAbsolute(d)) ? undefined : "an additionalDirectories entry that is not absolute"));
  each("ACP-PATH-301", [...cwds, ...dirs], "the client sent no path", (x) =>
    typeof x.p.cwd === "string" && isAbsolute(x.p.cwd) && (!Array.isArray(x.p.additionalDirectories) || x.p.additionalDirectories.every((d) => typeof d === "string" && isAbsolute(d))) ? undefined : "a path that is not absolute",
  );
  const servers = [...news, ...resumes].flatMap((x) => (Array.isArray(x.p.mcpServers) ? x.p.mcpServers.filter(isObj).map((s) => ({ l: x.l, s })) : []));
  each("ACP-SESSION-318", servers, "the client declared no MCP server", (x) => (typeof x.s.type === "string" && (["stdio", "http", "sse"].includes(x.s.type) || x.s.type.startsWith("_")) ? undefined : `an MCP server whose type is ${JSON.stringify(x.s.type)}`));
  each(
    "ACP-SESSION-321",
    servers.filter((x) => Array.isArray(x.s.env)),
    "the client declared no MCP server with env entries",
    (x) => {
      const names = (x.s.env as unknown[]).map((e) => (isObj(e) ? e.name : undefined));
      return new Set(names).size === names.length ? undefined : "two env entries of one MCP server share a name";
    },
  );
  const prompts = sent("session/prompt");
  each("ACP-PROMPT-319", prompts, "the client sent no prompt", (x) => (Array.isArray(x.p.prompt) && x.p.prompt.length === 0 ? "an empty prompt array" : undefined));
  const KNOWN_BLOCKS = new Set(["text", "image", "audio", "resource_link", "resource"]);
  const blocks = prompts.flatMap((x) => (Array.isArray(x.p.prompt) ? x.p.prompt.filter(isObj).map((b) => ({ l: x.l, type: b.type })) : []));
  const odd = blocks.find((b) => typeof b.type === "string" && !KNOWN_BLOCKS.has(b.type) && !b.type.startsWith("_"));
  const enumVerdict: Verdict =
    blocks.length === 0 ? na("the client sent no content block") : odd === undefined ? pass : na(`a content block type ${JSON.stringify(odd.type)} is neither known nor _-prefixed: a custom type without its _ or a later schema's, which the traffic cannot tell apart (noted, not charged)`);
  card.score("ACP-PROMPT-323", enumVerdict);
  card.score("ACP-EXT-306", enumVerdict);
  const traces = lines.flatMap((l) => traceContextUses(l.body).map((u) => ({ ...u, l })));
  each("ACP-META-301", traces, "the client wrote none of the _meta keys reserved for W3C trace context", (t) => t.problem);
  // A client that serves one of check's `_` requests with a result has an extension, which it should advertise in its capabilities' _meta.
  const served = runs.flatMap((r) => r.peer.lines.filter((l) => l.body !== undefined && l.body.method === undefined && "result" in l.body && r.peer.sent.some((s) => s.id === l.body?.id && s.method.startsWith("_"))));
  const init = lines.find((l) => l.body?.method === "initialize");
  const caps = isObj(init?.body?.params) && isObj((init.body.params as Obj).capabilities) ? ((init.body.params as Obj).capabilities as Obj) : {};
  card.score(
    "ACP-EXT-305",
    served.length === 0
      ? na("the client served none of check's custom `_` requests with a result: no extension seen")
      : isObj(caps._meta) && Object.keys(caps._meta).length > 0
        ? pass
        : fail(`the client served a custom \`_\` request with a result (${quoted(served[0]!.text)}), but advertises nothing under capabilities._meta`),
  );
  for (const [id, from, why] of RESTATED) card.restate?.(id, from, why);
}
