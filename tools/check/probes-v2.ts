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
import { authenticate, describeMethods, mergeMethods } from "./auth.ts";
import { describeError, errorCode, isConversation, quote, type Run, seconds, show, silent, step, updateFor, updateKind } from "./kit.ts";
import { v2DepthProbes, V2_DEPTH_ROWS } from "./probes-v2-depth.ts";
import { mcpProbe } from "./probes-mcp.ts";
import { V2_WIRE, wireProbes } from "./probes-wire.ts";
import { BATCH_ROWS, batchProbes } from "./probes-v2-batches.ts";
import { fail, na, pass } from "./score.ts";
import type { AgentLine } from "./driver.ts";
import { ErrorCode } from "../../src/errors.ts";
import { gate } from "../../src/connection/gate.ts";
import { protocol as v2 } from "../../src/v2/generated/protocol.ts";

const SESSION_ROWS = ["ACP-SESSION-301", "ACP-PROMPT-301", "ACP-PROMPT-302", "ACP-PROMPT-303", "ACP-CANCEL-302", "ACP-CANCEL-303", "ACP-CANCEL-306", "ACP-SESSION-302", "ACP-SESSION-323"];
/** Rows the v2 traffic decides at the end, and MAY rows (n/a: a permission no behaviour breaks). */
const DEPTH_ROWS = ["ACP-INIT-382", "ACP-INIT-383", "ACP-TRANSPORT-382", "ACP-TRANSPORT-301", "ACP-JSONRPC-301", "ACP-JSONRPC-303", "ACP-JSONRPC-310", "ACP-INIT-304", "ACP-INIT-306", "ACP-AUTH-301", "ACP-EXT-304", "ACP-JSONRPC-304", "ACP-EXT-301"];
/** Every row the v2 probes score (besides the wire probes'). */
export const V2_ROWS = [...BATCH_ROWS, ...SESSION_ROWS, ...DEPTH_ROWS, ...V2_DEPTH_ROWS, "ACP-SESSION-320"];

const isIdle = (l: AgentLine) => (l.body?.params as { update?: { sessionUpdate?: unknown; state?: unknown } } | undefined)?.update?.sessionUpdate === "state_update" && (l.body?.params as { update: { state?: unknown } }).update.state === "idle";
const stopOf = (l: AgentLine) => (l.body?.params as { update: { stopReason?: unknown } }).update.stopReason;

export async function v2Probes(run: Run, init: Record<string, unknown>): Promise<void> {
  const { d, card } = run;
  await wireProbes(run, V2_WIRE);

  await batchProbes(run);

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
    const user = d.lines
      .slice(from)
      .filter(updateFor(sid))
      .map((l) => (l.body?.params as { update?: { sessionUpdate?: unknown; messageId?: unknown } }).update)
      .filter((u) => u?.sessionUpdate === "user_message" || u?.sessionUpdate === "user_message_chunk");
    if (typeof messageId === "string")
      card.score("ACP-PROMPT-303", user.some((u) => u?.messageId === messageId) ? pass : fail(`no user_message update carried the prompt's messageId ${JSON.stringify(messageId)}${user.length > 0 ? ` (user updates carried ${show(user.map((u) => u?.messageId))})` : ""}`));
    card.score("ACP-PROMPT-302", idle === undefined ? silent(run, "ACP-PROMPT-302", d.lastRequestId, "no idle state_update") : typeof stopOf(idle) === "string" ? pass : fail(`the turn's idle state_update has no stopReason: ${quote(d, idle)}`));
    if (idle !== undefined) uncancelledStop = stopOf(idle);
    if (idle !== undefined)
      hello = {
        stop: stopOf(idle),
        live: d.lines
          .slice(from, d.lines.indexOf(idle))
          .filter(updateFor(sid))
          .map((l) => (l.body?.params as { update: Record<string, unknown> }).update),
      };
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
    card.score(
      "ACP-CANCEL-302",
      idle === undefined
        ? silent(run, "ACP-CANCEL-302", d.lastRequestId, "after session/cancel on a running turn, no idle state_update")
        : stop === "cancelled"
          ? pass
          : sameAsUncancelled
            ? na(`the cancelled turn went idle with stopReason ${JSON.stringify(stop)}, as the same kind of prompt did uncancelled: the turn failed on its own, which shows nothing about the cancel`)
            : fail(`check sent session/cancel while the turn was running (a session/update showed it: ${quote(d, first)}); the turn went idle with stopReason ${JSON.stringify(stop)}: ${quote(d, idle)}. After aborting, the agent MUST send an idle state_update with the cancelled stop reason`),
    );
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
    card.score(
      "ACP-SESSION-323",
      idleBefore !== undefined && stopOf(idleBefore) === "cancelled"
        ? pass
        : fail(
            `check sent session/close for a session whose turn was running (${quote(d, running)}); ${idleBefore === undefined ? `the close was answered ${quote(d, d.answerTo(d.lastRequestId)!)} before any idle state_update` : `the idle state_update before the answer says ${JSON.stringify(stopOf(idleBefore))}, not "cancelled"`}`,
          ),
    );
    card.score(
      "ACP-SESSION-302",
      later.length > 0
        ? fail(`the closed session's turn went on after the session/close answer: ${quote(d, later[0]!)}`)
        : idle !== undefined && stopOf(idle) !== "cancelled"
          ? fail(`the closed session's running turn went idle with stopReason ${JSON.stringify(stopOf(idle))}, not "cancelled"`)
          : pass,
    );
  });

  await v2DepthProbes(run, init, sid, hello);
  run.turnSession = hello !== undefined ? sid : undefined;
  await mcpProbe(run, true);
  run.turnSession = undefined;
}
