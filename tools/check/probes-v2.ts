/**
 * The v2 probes of `check`, scored with docs/conformance-catalogue-v2.json:
 * the session-independent wire probes under their v2 ids, batches (an empty
 * one, two requests, notifications only, an invalid entry), then, with
 * `--auth` first (`auth/login`), session/new and session/list
 * (ACP-SESSION-301), a prompt acknowledged by its answer and completed by
 * an idle state_update (ACP-PROMPT-301/302), session/cancel on a turn shown
 * running (its idle update must say "cancelled": ACP-CANCEL-302) and
 * `$/cancel_request` right behind a prompt (it is still answered: ACP-CANCEL-303).
 */
import { properties } from "./probes-traffic-v1.ts";
import { authenticate, describeMethods, mergeMethods } from "./auth.ts";
import { answerOf, describeError, errorCode, exchange, isConversation, quote, quoteText, type Run, seconds, show, silent, step, updateFor, updateKind, withSentinel } from "./kit.ts";
import { authRow, versionProbes } from "./probes-v2-init.ts";
import { v2DepthProbes, V2_DEPTH_ROWS } from "./probes-v2-depth.ts";
import { mcpProbe } from "./probes-mcp.ts";
import { clientOnlySubjects, judgeV2Traffic } from "./judge-v2-traffic.ts";
import { V2_WIRE, wireProbes } from "./probes-wire.ts";
import { fail, na, pass } from "./score.ts";
import type { AgentLine, Driver } from "./driver.ts";
import { ErrorCode } from "../../src/errors.ts";
import { gate } from "../../src/connection/gate.ts";
import { protocol as v2 } from "../../src/v2/generated/protocol.ts";

const SESSION_ROWS = ["ACP-SESSION-301", "ACP-PROMPT-301", "ACP-PROMPT-302", "ACP-PROMPT-303", "ACP-CANCEL-302", "ACP-CANCEL-303", "ACP-CANCEL-306", "ACP-SESSION-302", "ACP-SESSION-323"];
/** Rows the v2 traffic decides at the end, and MAY rows (n/a: a permission no behaviour breaks). */
const DEPTH_ROWS = ["ACP-INIT-382", "ACP-INIT-383", "ACP-TRANSPORT-382", "ACP-TRANSPORT-301", "ACP-JSONRPC-301", "ACP-JSONRPC-303", "ACP-JSONRPC-310", "ACP-INIT-304", "ACP-INIT-306", "ACP-AUTH-301", "ACP-EXT-304", "ACP-JSONRPC-304", "ACP-EXT-301"];
const BATCH_ROWS = ["ACP-JSONRPC-305", "ACP-JSONRPC-306", "ACP-JSONRPC-308", "ACP-JSONRPC-309", "ACP-JSONRPC-312"];
/** Every row the v2 probes score (besides the wire probes'). */
export const V2_ROWS = [...BATCH_ROWS, ...SESSION_ROWS, ...DEPTH_ROWS, ...V2_DEPTH_ROWS, "ACP-SESSION-320"];

const array = (l: AgentLine): unknown[] | undefined => {
  try {
    const v = JSON.parse(l.text) as unknown;
    return Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
};
const isIdle = (l: AgentLine) => (l.body?.params as { update?: { sessionUpdate?: unknown; state?: unknown } } | undefined)?.update?.sessionUpdate === "state_update" && (l.body?.params as { update: { state?: unknown } }).update.state === "idle";
const stopOf = (l: AgentLine) => (l.body?.params as { update: { stopReason?: unknown } }).update.stopReason;

export async function v2Probes(run: Run, init: Record<string, unknown>): Promise<void> {
  const { d, card } = run;
  await wireProbes(run, V2_WIRE);

  await step(run, "batches", BATCH_ROWS, async () => {
    // A refusal of the whole batch is one error with id null (the official SDK's "JSON-RPC batches are not supported").
    const refusal = (l: AgentLine) => l.body?.id === null && l.body.method === undefined;
    const batch = async (text: string, ids: readonly number[], wait: (l: AgentLine) => boolean) => {
      const from = d.lines.length;
      const at = d.written.length;
      d.write(`${text}\n`);
      const answer = await d.waitFor((l) => array(l) !== undefined || refusal(l) || ids.some((id) => answerOf(id)(l)) || wait(l), d.timeout, from);
      return { answer, sent: d.written[at] };
    };
    const empty = await withSentinel(run, () => d.write("[]\n"), (l) => array(l) !== undefined || refusal(l));
    const e = empty.found[0];
    const sentEmpty = d.written.find((w) => w.text === "[]");
    card.score("ACP-JSONRPC-305", e === undefined ? fail(`${exchange(d, sentEmpty, undefined)}${empty.sentinel !== undefined ? ", while the request check sent after it was answered" : ""}; an empty array gets one -32600 with id null`) : array(e) !== undefined ? fail(`${exchange(d, sentEmpty, e)}: an array, not one -32600 with id null`) : errorCode(e.body) === ErrorCode.InvalidRequest ? pass : fail(`${exchange(d, sentEmpty, e)}: not -32600`));
    const two = `[{"jsonrpc":"2.0","id":5001,"method":"_acp-router.check/a","params":{}},{"jsonrpc":"2.0","id":5002,"method":"_acp-router.check/b","params":{}}]`;
    const both = await batch(two, [5001, 5002], () => false);
    const items = both.answer === undefined ? undefined : array(both.answer);
    card.score("ACP-JSONRPC-306", both.answer === undefined ? silent(run, "ACP-JSONRPC-306", 5001, `${exchange(d, both.sent, undefined)} (a batch of two requests)`) : items?.length === 2 ? pass : fail(`${exchange(d, both.sent, both.answer)}: not one array of the two responses`));
    const notes = '[{"jsonrpc":"2.0","method":"_acp-router.check/note","params":{}}]';
    const quiet = await withSentinel(run, () => d.write(`${notes}\n`), (l) => array(l) !== undefined || (l.body?.method === undefined && (l.body?.id === null || l.body?.id === undefined)));
    // The row forbids the empty array; another answer to the whole batch (a refusal of batches) is not that, and is noted.
    const got = quiet.found[0];
    const sentNotes = d.written.find((w) => w.text === notes);
    if (got !== undefined && array(got)?.length !== 0) card.notes.push(`ACP-JSONRPC-308: ${exchange(d, sentNotes, got)}: not the empty array the row forbids, so noted`);
    card.score("ACP-JSONRPC-308", got === undefined || array(got)?.length !== 0 ? pass : fail(`${exchange(d, sentNotes, got)}: an empty array for a batch of notifications only`));
    const mixed = await batch(`[1,{"jsonrpc":"2.0","id":5003,"method":"_acp-router.check/c","params":{}}]`, [5003], () => false);
    const entries = mixed.answer === undefined ? undefined : array(mixed.answer);
    const invalid = entries?.some((x) => (x as { id?: unknown; error?: { code?: unknown } }).id === null && (x as { error?: { code?: unknown } }).error?.code === ErrorCode.InvalidRequest);
    card.score("ACP-JSONRPC-309", mixed.answer === undefined ? silent(run, "ACP-JSONRPC-309", 5003, `${exchange(d, mixed.sent, undefined)} (a batch with an invalid entry)`) : invalid === true && entries!.length === 2 ? pass : fail(`${exchange(d, mixed.sent, mixed.answer)}${refusal(mixed.answer) ? ": a refusal of the whole batch" : ""}, not an array with a -32600 for the invalid entry and the request's response`));
    // A batch answer holds no Response object for a notification (transports.mdx:65): the notifications-only batch above.
    const entries308 = got === undefined ? undefined : array(got);
    card.score("ACP-JSONRPC-312", got === undefined || entries308 === undefined || entries308.length === 0 ? pass : fail(`${exchange(d, sentNotes, got)}: an answer array holding a Response object for a notification`));
    // An agent whose initialize answer is not v2's speaks another version: its batch rows follow from that one fact.
    if (run.notV2 !== undefined) for (const id of ["ACP-JSONRPC-305", "ACP-JSONRPC-306"]) card.link(id, "ACP-INIT-382", "the agent answered protocol 2 with a v1 InitializeResponse, and v1 has no batches");
  });

  let methods = mergeMethods([], { authMethods: init.authMethods });
  if (run.options.auth !== undefined) {
    const why = await authenticate(run, methods, run.options.auth, "auth/login");
    if (why !== undefined) return card.all(SESSION_ROWS, na(why));
  }
  let sessionId: string | undefined;
  await step(run, "session/new", ["ACP-SESSION-301"], async () => {
    // The connection's own gate decides, in its words (`capabilities.session was not advertised by the agent`).
    const refusal = gate(v2, { agentCapabilities: init.capabilities, clientCapabilities: undefined }, v2.inboundRow("agent", "request", "session/new") ?? { wire: "session/new", capability: undefined }, "agent");
    if (refusal !== undefined) return card.all(SESSION_ROWS, na(refusal.message));
    const created = await d.request("session/new", { cwd: run.options.cwd, mcpServers: [] });
    if (created === undefined) return card.score("ACP-SESSION-301", silent(run, "ACP-SESSION-301"));
    if (errorCode(created) === ErrorCode.AuthRequired) {
      methods = mergeMethods(methods, (created.error as { data?: unknown }).data);
      return card.all(SESSION_ROWS, na(`authentication required (methods: ${describeMethods(methods)})`));
    }
    if (created.error !== undefined) return card.all(SESSION_ROWS, na(`session/new was answered ${describeError(created)}`));
    const id = (created.result as { sessionId?: unknown } | undefined)?.sessionId;
    if (typeof id !== "string") return card.all(SESSION_ROWS, fail(`capabilities.session is advertised but session/new answered ${show(created)}`));
    sessionId = id;
    const list = await d.request("session/list", {});
    card.score("ACP-SESSION-301", list === undefined ? silent(run, "ACP-SESSION-301") : Array.isArray((list.result as { sessions?: unknown } | undefined)?.sessions) ? pass : fail(`capabilities.session is advertised but session/list answered ${show(list)}`));
  });
  if (sessionId === undefined) return;
  const sid = sessionId;
  const prompt = (t: string) => ({ sessionId: sid, prompt: [{ type: "text", text: t }] });
  /** The stop reason the uncancelled "hello" turn went idle with: a cancelled turn ending the same way (an offline agent's "error") shows nothing about the cancel. */
  let uncancelledStop: unknown;
  /** The "hello" turn as it went live (its stop reason and updates), for the replay of session/resume (probes-v2-depth.ts). */
  let hello: { stop: unknown; live: Record<string, unknown>[] } | undefined;

  await step(run, "prompt", ["ACP-PROMPT-301", "ACP-PROMPT-302"], async () => {
    const from = d.lines.length;
    const ack = await d.request("session/prompt", prompt("hello"));
    if (ack === undefined) return card.score("ACP-PROMPT-301", silent(run, "ACP-PROMPT-301"));
    if (ack.error !== undefined) return card.all(["ACP-PROMPT-301", "ACP-PROMPT-302", "ACP-PROMPT-303", "ACP-CANCEL-302", "ACP-CANCEL-303", "ACP-CANCEL-306", "ACP-SESSION-302"], na(`session/prompt was answered ${describeError(ack)}`));
    const messageId = (ack.result as { messageId?: unknown } | undefined)?.messageId;
    card.score("ACP-PROMPT-301", typeof messageId === "string" ? pass : fail(`session/prompt was acknowledged with ${show(ack)}, no messageId`));
    const idle = await d.waitFor((l) => updateFor(sid)(l) && isIdle(l), d.timeout, from);
    const user = d.lines.slice(from).filter(updateFor(sid)).map((l) => (l.body?.params as { update?: { sessionUpdate?: unknown; messageId?: unknown } }).update).filter((u) => u?.sessionUpdate === "user_message" || u?.sessionUpdate === "user_message_chunk");
    if (typeof messageId === "string") card.score("ACP-PROMPT-303", user.some((u) => u?.messageId === messageId) ? pass : fail(`no user_message update carried the prompt's messageId ${JSON.stringify(messageId)}${user.length > 0 ? ` (user updates carried ${show(user.map((u) => u?.messageId))})` : ""}`));
    card.score("ACP-PROMPT-302", idle === undefined ? silent(run, "ACP-PROMPT-302", d.lastRequestId, "no idle state_update") : typeof stopOf(idle) === "string" ? pass : fail(`the turn's idle state_update has no stopReason: ${quote(d, idle)}`));
    if (idle !== undefined) uncancelledStop = stopOf(idle);
    if (idle !== undefined) hello = { stop: stopOf(idle), live: d.lines.slice(from, d.lines.indexOf(idle)).filter(updateFor(sid)).map((l) => (l.body?.params as { update: Record<string, unknown> }).update) };
  });

  await step(run, "session/cancel", ["ACP-CANCEL-302"], async () => {
    const from = d.lines.length;
    const ack = await d.request("session/prompt", prompt("slow"));
    if (ack?.result === undefined) return card.all(["ACP-CANCEL-302", "ACP-CANCEL-306"], na(`the prompt to cancel was answered ${show(ack)}`));
    const first = await d.waitFor((l) => updateFor(sid)(l), d.timeout, from);
    if (first === undefined || isIdle(first)) return card.all(["ACP-CANCEL-302", "ACP-CANCEL-306"], na(first === undefined ? `the turn sent no session/update within ${seconds(d.timeout)}` : "the turn went idle before it could be cancelled"));
    // The idle update of a fast turn can arrive right behind its first update:
    // already here before the cancel is sent, it ended a turn that saw no cancel.
    if (d.lines.slice(d.lines.indexOf(first) + 1).some((l) => updateFor(sid)(l) && isIdle(l))) return card.all(["ACP-CANCEL-302", "ACP-CANCEL-306"], na("the turn went idle before the cancel could be sent: too fast to judge"));
    const at = d.lines.length;
    d.notify("session/cancel", { sessionId: sid });
    const idle = await d.waitFor((l) => updateFor(sid)(l) && isIdle(l), d.timeout, at);
    const stop = idle === undefined ? undefined : stopOf(idle);
    const sameAsUncancelled = stop !== "cancelled" && stop === uncancelledStop && stop !== "end_turn";
    card.score("ACP-CANCEL-302", idle === undefined ? silent(run, "ACP-CANCEL-302", d.lastRequestId, "after session/cancel on a running turn, no idle state_update")
      : stop === "cancelled" ? pass
      : sameAsUncancelled ? na(`the cancelled turn went idle with stopReason ${JSON.stringify(stop)}, as the same kind of prompt did uncancelled: the turn failed on its own, which shows nothing about the cancel`)
      : fail(`check sent session/cancel while the turn was running (a session/update showed it: ${quote(d, first)}); the turn went idle with stopReason ${JSON.stringify(stop)}: ${quote(d, idle)}. After aborting, the agent MUST send an idle state_update with the cancelled stop reason`));
    if (idle === undefined) return card.score("ACP-CANCEL-306", na("no idle state_update after the cancel"));
    // No content or tool call update of the cancelled turn may follow its idle state_update (the next prompt is sent only after this wait);
    // session metadata (a title, commands, usage, modes) is not turn content and may come at any time.
    await d.waitFor(() => false, d.quiet, d.lines.length);
    const after = d.lines.slice(d.lines.indexOf(idle) + 1).filter(updateFor(sid));
    const content = after.filter(isConversation);
    if (after.length > content.length) card.notes.push(`ACP-CANCEL-306: after the idle state_update came ${after.length - content.length} update(s) that are not turn content (${[...new Set(after.filter((l) => !content.includes(l)).map(updateKind))].join(", ")}); not counted`);
    card.score("ACP-CANCEL-306", content.length === 0 ? pass : fail(`a content or tool call update followed the idle state_update that reported the cancellation: ${quote(d, content[0]!)}`));
  });

  await step(run, "$/cancel_request", ["ACP-CANCEL-303"], async () => {
    const answer = d.request("session/prompt", prompt("hello"));
    d.notify("$/cancel_request", { requestId: d.lastRequestId });
    const a = await answer;
    card.score("ACP-CANCEL-303", a === undefined ? silent(run, "ACP-CANCEL-303") : a.result !== undefined || errorCode(a) === ErrorCode.RequestCancelled ? pass : fail(`a request cancelled with $/cancel_request was answered ${describeError(a)}, neither a result nor -32800`));
    d.notify("session/cancel", { sessionId: sid });
  });

  await step(run, "session/close", ["ACP-SESSION-302", "ACP-SESSION-323"], async () => {
    const created = await d.request("session/new", { cwd: run.options.cwd, mcpServers: [] });
    const id = (created?.result as { sessionId?: unknown } | undefined)?.sessionId;
    if (typeof id !== "string") return card.score("ACP-SESSION-302", na(`session/new was answered ${show(created)}`));
    const from = d.lines.length;
    const ack = await d.request("session/prompt", { sessionId: id, prompt: [{ type: "text", text: "slow" }] });
    if (ack?.result === undefined) return card.score("ACP-SESSION-302", na(`the prompt was answered ${show(ack)}`));
    const running = await d.waitFor((l) => updateFor(id)(l), d.timeout, from);
    if (running === undefined || d.lines.slice(from).some((l) => updateFor(id)(l) && isIdle(l))) return card.score("ACP-SESSION-302", na("the turn was not shown running before it went idle"));
    const at = d.lines.length;
    const closed = await d.request("session/close", { sessionId: id });
    if (closed === undefined) return card.score("ACP-SESSION-302", silent(run, "ACP-SESSION-302"));
    if (closed.error !== undefined) return card.score("ACP-SESSION-302", fail(`session/close of a session with a running turn was answered ${describeError(closed)}`));
    const idle = await d.waitFor((l) => updateFor(id)(l) && isIdle(l), 2000, at);
    // Closing frees the session: the idle update may be skipped, but a turn still streaming after the close answer was not cancelled.
    await d.waitFor(() => false, d.quiet, d.lines.length);
    const answerAt = d.lines.indexOf(d.answerTo(d.lastRequestId)!);
    const later = d.lines.slice(answerAt + 1).filter((l) => updateFor(id)(l) && !isIdle(l));
    // When closing cancels running work, its idle state_update (cancelled) comes before the close's answer.
    const idleBefore = d.lines.slice(at, answerAt).find((l) => updateFor(id)(l) && isIdle(l));
    card.score("ACP-SESSION-323", idleBefore !== undefined && stopOf(idleBefore) === "cancelled" ? pass : fail(`check sent session/close for a session whose turn was running (${quote(d, running)}); ${idleBefore === undefined ? `the close was answered ${quote(d, d.answerTo(d.lastRequestId)!)} before any idle state_update` : `the idle state_update before the answer says ${JSON.stringify(stopOf(idleBefore))}, not "cancelled"`}`));
    card.score("ACP-SESSION-302", later.length > 0 ? fail(`the closed session's turn went on after the session/close answer: ${quote(d, later[0]!)}`) : idle !== undefined && stopOf(idle) !== "cancelled" ? fail(`the closed session's running turn went idle with stopReason ${JSON.stringify(stopOf(idle))}, not "cancelled"`) : pass);
  });

  await v2DepthProbes(run, init, sid, hello);
  run.turnSession = hello !== undefined ? sid : undefined;
  await mcpProbe(run, true);
  run.turnSession = undefined;
}

/** v2 rows that restate another row in other words (a second page, the schema): decided by the same observation, counted once. */
export const V2_RESTATED: readonly (readonly [string, string, string])[] = [
  ["ACP-PROMPT-308", "ACP-PROMPT-301", "the same rule as the migration guide and schema state it"],
  ["ACP-PROMPT-310", "ACP-PROMPT-303", "the same rule as the migration guide states it"],
  ["ACP-PROMPT-311", "ACP-PROMPT-302", "the same rule as the migration guide and schema state it"],
  ["ACP-PROMPT-312", "ACP-PROMPT-302", "the same idle state_update's stop reason"],
  ["ACP-CANCEL-316", "ACP-CANCEL-302", "the same rule as the migration guide states it"],
  ["ACP-AUTH-303", "ACP-AUTH-301", "the same rule as the schema states it"],
  ["ACP-INIT-308", "ACP-INIT-382", "the same initialize answer, judged against the v2 InitializeResponse"],
  ["ACP-CANCEL-309", "ACP-PERM-302", "the same permission request, answered cancelled after session/cancel: the agent stops waiting and does not proceed"],
];

/**
 * The v2 rows decided by a second start of the agent (initialize with a
 * version below every version: -32022 with data {requested, supported}) and
 * by the whole traffic: UTF-8, request ids, batches of lifecycle messages,
 * capabilities withheld, auth methods, custom root fields.
 */
export async function v2TrafficProbes(run: Run, init: Record<string, unknown>, spawn: ((label: string) => Driver) | undefined): Promise<void> {
  const { d, card } = run;
  card.all(["ACP-JSONRPC-304", "ACP-EXT-301"], na("a MAY: a permission, which no behaviour of the agent can break"));
  // check spoke to the agent over stdio throughout, and the agent answered.
  card.score("ACP-TRANSPORT-382", d.lines.length > 0 ? pass : na("the agent wrote nothing"));
  card.score("ACP-INIT-383", na("check's v2 client advertises no capability: one combination only is exercised"));
  await versionProbes(run, spawn);
  const lines = d.lines;
  // Bytes that are not UTF-8 break it; a U+FFFD character the agent sent as such (valid UTF-8, EF BF BD) does not.
  const bad = run.d.utf8.invalid;
  card.score("ACP-TRANSPORT-301", bad === undefined ? pass : fail(`the agent's stdout holds bytes that are not UTF-8 at byte ${bad.offset}: ${bad.hex}`));
  const requests = lines.filter((l) => typeof l.body?.method === "string" && l.body.id !== undefined);
  const badId = requests.find((l) => l.body?.id === null || (typeof l.body?.id === "number" && !Number.isInteger(l.body.id)));
  card.score("ACP-JSONRPC-301", requests.length === 0 ? na("the agent sent no request") : badId === undefined ? pass : fail(`the agent sent a request with id ${show(badId.body?.id)}`));
  const pending = new Set<unknown>();
  let reused: string | undefined;
  for (const l of lines) {
    if (typeof l.body?.method === "string" && l.body.id !== undefined) {
      if (pending.has(l.body.id)) reused ??= quote(d, l);
      pending.add(l.body.id);
    }
  }
  card.score("ACP-JSONRPC-303", requests.length < 2 ? na(requests.length === 0 ? "the agent sent no request" : "the agent sent one request") : reused === undefined ? pass : fail(`the agent reused a request id: ${reused}`));
  const lifecycle = lines.find((l) => l.text.startsWith("[") && /"method"\s*:\s*"(initialize|auth\/login|session\/new|session\/resume|session\/prompt)"/.test(l.text));
  card.score("ACP-JSONRPC-310", lifecycle === undefined ? pass : fail(`the agent batched a lifecycle message: ${quote(d, lifecycle)}`));
  const calls = requests.filter((l) => /^(fs|terminal|elicitation)\//.test(String(l.body?.method)));
  card.score("ACP-INIT-306", calls.length === 0 ? pass : fail(`check's client advertised no capability, yet the agent sent ${quote(d, calls[0]!)}`));
  await authRow(run, init, run.notV2);
  const extra: string[] = [];
  // A field another published ACP schema defines for the same type (v1's agentCapabilities, agentInfo) is protocol data of that
  // version, not a custom field: noted with the schema that has it (the same rule as v1's ACP-SCHEMA-002).
  const v1 = properties();
  const drift = new Set<string>();
  const judge = (type: string, k: string, where: string) => {
    if (v1?.get(type)?.has(k) === true) drift.add(`ACP-EXT-304: ${where} has the field ${JSON.stringify(k)}, which the v1 schema's ${type} defines: protocol data of another published version, not a custom field`);
    else extra.push(`${where} has the field ${JSON.stringify(k)}`);
  };
  for (const l of lines) {
    const r = l.body?.result as Record<string, unknown> | undefined;
    if (typeof r === "object" && r !== null && "protocolVersion" in r) for (const k of Object.keys(r)) if (!["protocolVersion", "capabilities", "authMethods", "info", "_meta"].includes(k)) judge("InitializeResponse", k, "the initialize answer");
    const p = l.body?.method === "session/update" ? (l.body.params as Record<string, unknown> | undefined) : undefined;
    if (p !== undefined) for (const k of Object.keys(p)) if (!["sessionId", "update", "_meta"].includes(k)) judge("SessionNotification", k, "a session/update's params");
  }
  card.notes.push(...drift);
  judgeV2Traffic(run, lines, init);
  clientOnlySubjects(run);
  // Extensions: a custom `_` request check sent that got a result shows an extension, which should be advertised in a capability's _meta.
  const served = d.lines.filter((l) => l.body?.method === undefined && l.body?.result !== undefined && typeof l.body.id === "number" && d.sent.get(l.body.id)?.startsWith("_") === true && d.sent.get(l.body.id) !== "_acp-router.check/sentinel");
  const caps = (init.capabilities ?? {}) as Record<string, unknown>;
  const advertised = typeof caps._meta === "object" && caps._meta !== null && Object.keys(caps._meta).length > 0;
  card.score("ACP-EXT-305", served.length === 0 ? na("the agent served none of check's custom `_` requests: no extension seen") : advertised ? pass : fail(`the agent served a custom \`_\` request with a result (${exchange(d, d.sentLine(served[0]!.body?.id as number), served[0])}), but advertises nothing under capabilities._meta`));
  card.score("ACP-INIT-309", typeof init.capabilities === "object" && init.capabilities !== null ? pass : fail("the initialize answer states no capabilities object"));
  for (const [id, from, why] of V2_RESTATED) card.restate?.(id, from, why);
  card.score("ACP-EXT-304", extra.length === 0 ? pass : fail(`custom fields at the root of spec types, which no published ACP schema defines (custom data goes in _meta): ${[...new Set(extra)].slice(0, 3).join("; ")}`));
}
