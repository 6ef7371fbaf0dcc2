/**
 * What every probe of `check` shares: the driver and scorecard of the run,
 * steps that do not run once the agent is gone, and the wording of evidence
 * (an answer shown short, "no answer within 30 s", an agent that exited).
 */
import type { AgentLine, Driver } from "./driver.ts";
import { fail, notRun, type Scorecard, type Verdict } from "./score.ts";

/** Options of one run, as `check` parsed them. */
export interface RunOptions {
  /** The absolute directory sent as the session's cwd. */
  readonly cwd: string;
  /** `--auth METHOD_ID`: authenticate with this method before session/new. */
  readonly auth: string | undefined;
  /** `--protocol`: the version to ask for; undefined negotiates (v2 first, then v1). */
  readonly protocol: 1 | 2 | undefined;
  /** Starts another run of the same agent command (the capabilities run, version fallback), named `label` in the record; absent: one run only. */
  readonly spawn?: ((label: string) => Driver) | undefined;
  /** `--strict-ids`: read the schema's int64 annotation as part of the id-echo MUST (probes-ids.ts). */
  readonly strictIds?: boolean | undefined;
}

export interface Run {
  readonly d: Driver;
  card: Scorecard;
  readonly options: RunOptions;
  /** Monitor indices of agent lines a probe judged itself (answers to its hostile lines): the monitor's rules are not applied to them again. */
  readonly judged: Set<number>;
  /** v2: why the agent's initialize answer is not a v2 InitializeResponse (probes-v2-init.ts); rows that fail because of it link to ACP-INIT-382. */
  notV2?: string | undefined;
  /** A session whose text prompt was answered with a result (set by the session probes): shutdown leaves a turn of it pending. */
  turnSession?: string | undefined;
  /** Why the session/new depth probe got no session (its answer, described), set by it: the lifecycle rows are n/a with it. */
  noSession?: string | undefined;
  /** Request ids whose wait expired, with the rows whose evidence says so (late answers are noted at the end). */
  readonly watched: { readonly row: string; readonly id: number | string; readonly evidence: string; readonly judge?: ((late: Record<string, unknown>, after: string) => Verdict) | undefined }[];
}

type Body = Record<string, unknown> | undefined;

/** The longest line evidence quotes whole, in bytes: 2 KB. A longer line is quoted up to there, with the record line holding all of it. */
export const QUOTE_BYTES = 2048;

/**
 * A line as evidence quotes it: whole up to {@link QUOTE_BYTES}, else its first 2 KB, its size and the line of the
 * record file (`--record`) that holds it whole.
 */
export function quote(d: Driver, line: { readonly text: string; readonly index: number }): string {
  return quoteText(line.text, d.recordLine(line.index));
}

/** A line's text as evidence quotes it (see {@link quote}); `recordLine` is where the record file holds it whole, when one is kept. */
export function quoteText(text: string, recordLine?: number): string {
  const size = Buffer.byteLength(text);
  if (size <= QUOTE_BYTES) return text;
  const head = Buffer.from(text)
    .subarray(0, QUOTE_BYTES)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  return `${head}… (${size} bytes; ${recordLine === undefined ? "the rest is not shown" : `the whole line is line ${recordLine} of the record file`})`;
}

/** "check sent <line>; the agent answered <line>" (or "…; no answer came"), each line quoted. */
export function exchange(d: Driver, sent: { readonly text: string; readonly index: number } | undefined, answer: { readonly text: string; readonly index: number } | undefined, peer = "the agent"): string {
  const out = sent === undefined ? "" : `check sent ${quote(d, sent)}`;
  const back = answer === undefined ? `no answer came from ${peer}` : `${peer} answered ${quote(d, answer)}`;
  return out === "" ? back : `${out}; ${back}`;
}

/** A message (or any value) as evidence shows it: its JSON, whole up to {@link QUOTE_BYTES}, else its first 2 KB and its size. */
export const show = (v: unknown): string => (v === undefined ? "no answer" : quoteText(JSON.stringify(v) ?? String(v)));
export const errorOf = (a: Body): { code?: unknown; message?: unknown; data?: unknown } | undefined => (typeof a?.error === "object" && a.error !== null ? (a.error as { code?: unknown; message?: unknown; data?: unknown }) : undefined);
export const errorCode = (a: Body): unknown => errorOf(a)?.code;
/** `error -32000 "Authentication required"`, for evidence. */
export const describeError = (a: Body): string => {
  const e = errorOf(a);
  return `error ${String(e?.code)}${typeof e?.message === "string" ? ` ${JSON.stringify(e.message.slice(0, 120))}` : ""}`;
};
export const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(1))} s`;

/** Why a probe did not run: the agent exited during an earlier one. */
export const deathReason = (d: Driver): string => {
  const x = d.death!;
  return `the agent exited (${x.signal !== null ? `signal ${x.signal}` : `code ${String(x.code)}`}) during the "${x.probe}" probe`;
};

/**
 * The verdict for a request that got no answer: not run if the agent exited
 * meanwhile, else a fail "no answer within N s". At the end of the run a late
 * answer withdraws that fail (probes.ts `finish`): only a request never
 * answered before the agent closed or the run ended stays failed. `judge`
 * decides on the late answer's content where it matters (a cancelled turn's
 * stop reason); by default a result passes and an error is n/a.
 */
export function silent(run: Run, row: string, id: number | string = run.d.lastRequestId, what = "no answer", judge?: (late: Record<string, unknown>, after: string) => Verdict): Verdict {
  if (run.d.death !== undefined) return notRun(deathReason(run.d));
  const evidence = `${what} within ${seconds(run.d.timeout)}`;
  run.watched.push({ row, id, evidence, judge });
  return fail(evidence);
}

/** Runs `probe` unless the agent is gone (then its rows are not run, with the reason). */
export async function step(run: Run, name: string, ids: readonly string[], probe: () => Promise<void>): Promise<void> {
  if (run.d.death !== undefined) {
    run.card.all(ids, notRun(deathReason(run.d)));
    return;
  }
  run.d.probe = name;
  await probe();
  if (run.d.death !== undefined) for (const id of ids) if (!run.card.has(id)) run.card.score(id, notRun(deathReason(run.d)));
}

/** An answer line (no method) with this id. */
export const answerOf =
  (id: unknown) =>
  (l: AgentLine): boolean =>
    l.body !== undefined && l.body.id === id && l.body.method === undefined;
/** A response-shaped line: no method, and an id member (possibly null) or none at all. */
export const isResponse = (l: AgentLine): boolean => l.body !== undefined && l.body.method === undefined;

/** A session/update notification for `sessionId`. */
export const updateFor =
  (sessionId: string) =>
  (l: AgentLine): boolean =>
    l.body?.method === "session/update" && (l.body.params as { sessionId?: unknown } | undefined)?.sessionId === sessionId;

/**
 * Sends `write()` (a line expecting no answer or an unusual one), then a
 * sentinel request that every agent answers; resolves with the lines the
 * agent wrote in between that `match`. The wait ends when the sentinel is
 * answered plus 1 s (answers to one line come in order in practice), or at the timeout.
 */
export async function withSentinel(run: Run, write: () => void, match: (l: AgentLine) => boolean): Promise<{ found: AgentLine[]; sentinel: Body }> {
  const from = run.d.lines.length;
  write();
  const pending = run.d.request("_acp-router.check/sentinel", {});
  const sentinelId = run.d.lastRequestId;
  const sentinel = await pending;
  const test = (l: AgentLine) => l.body?.id !== sentinelId && match(l);
  if (sentinel !== undefined) await run.d.waitFor(test, run.d.quiet, from);
  const found = run.d.lines.slice(from).filter(test);
  for (const l of found) run.judged.add(l.index);
  return { found, sentinel };
}

/**
 * The session/update kinds that are conversation or turn content: messages, thoughts, tool calls, plans (v1's
 * chunk names and v2's). What session/load replays and session/resume must not; what may not follow a cancelled
 * v2 turn's idle update. Session metadata (titles, commands, modes, usage) is none of these and may come at any time.
 */
export const CONVERSATION_KINDS: ReadonlySet<string> = new Set(["user_message", "user_message_chunk", "agent_message", "agent_message_chunk", "agent_thought", "agent_thought_chunk", "tool_call", "tool_call_update", "plan"]);
/** The sessionUpdate kind of a session/update line. */
export const updateKind = (l: AgentLine): string => String((l.body?.params as { update?: { sessionUpdate?: unknown } } | undefined)?.update?.sessionUpdate);
/** A session/update line that carries conversation or turn content. */
export const isConversation = (l: AgentLine): boolean => CONVERSATION_KINDS.has(updateKind(l));
