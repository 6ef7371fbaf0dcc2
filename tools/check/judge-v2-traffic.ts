/**
 * The v2 rows of `check` that the agent's traffic decides by itself, read
 * from every line of the v2 run (the prompts, the cancel, the exercise turns
 * of probes-v2-depth.ts): message ids on every message update, the running
 * state before a turn's idle one, error stop reasons, background work
 * snapshots, tool calls, terminals, plans, diffs' git patches, commands,
 * icons, permission options, auth method entries, config option lists, W3C
 * trace context, absolute paths, and the open enums' custom values.
 *
 * A custom value must begin with `_`; an unknown value without one is either
 * a custom value named wrongly or a variant of an ACP schema later than the
 * one check knows (@agentclientprotocol/sdk 2.4.0's), and the traffic cannot
 * tell which: it is noted, and the row passes only when every value seen is
 * known or begins with `_` (n/a otherwise). A row the traffic never touched
 * is n/a with what was missing.
 *
 * This module judges message ids, turn states, stop reasons, background
 * work, the other open enums (and ACP-EXT-306 over all of them), trace
 * context and elicitations; tool calls, terminals, patches and paths are
 * judged in judge-v2-tools.ts; plans, commands, icons, permission options,
 * auth methods and config options in judge-v2-offers.ts; the reading and the
 * open-enum rule they share are in judge-v2-kit.ts.
 */
import type { AgentLine } from "./driver.ts";
import { quote, type Run } from "./kit.ts";
import { fail, na, pass, type Verdict } from "./score.ts";
import { isObj, type Obj } from "./depth-kit.ts";
import { traceContextUses } from "./trace-context.ts";
import { arr, each, known, MESSAGE_KINDS, ofKind, openEnum, STANDARD_STATES, updates, type EnumTally } from "./judge-v2-kit.ts";
import { judgeV2Offers } from "./judge-v2-offers.ts";
import { judgeV2Tools } from "./judge-v2-tools.ts";

/** Judges the v2 rows the whole traffic decides; `lines` are every agent line of the v2 run. */
export function judgeV2Traffic(run: Run, lines: readonly AgentLine[], init: Obj): void {
  const tally: EnumTally = { seen: 0, odd: undefined };
  const all = updates(lines);
  const messages = all.filter((x) => MESSAGE_KINDS.has(String(x.u.sessionUpdate))).map((x) => ({ ...x, line: x.l }));
  each(run, "ACP-PROMPT-305", messages, "the agent sent no message update or chunk", (x) => (typeof x.u.messageId === "string" ? undefined : `a ${String(x.u.sessionUpdate)} update without a messageId`));

  // Per session: a turn's idle state_update that ends foreground work comes after a running (or requires_action) one.
  const states = ofKind(lines, "state_update");
  const turns: { line: AgentLine; sawRunning: boolean }[] = [];
  const running = new Map<unknown, boolean>();
  for (const s of states) {
    const state = s.u.state;
    if (state === "running" || state === "requires_action") running.set(s.sessionId, true);
    else if (state === "idle" && s.u.stopReason !== undefined && s.u.stopReason !== null) {
      turns.push({ line: s.l, sawRunning: running.get(s.sessionId) === true });
      running.set(s.sessionId, false);
    }
  }
  each(run, "ACP-PROMPT-304", turns, "no turn ended with an idle state_update", (t) => (t.sawRunning ? undefined : "a turn went idle with a stop reason, and no state_update running or requires_action came before it in that session"));
  const nonStandard = states.filter((s) => !STANDARD_STATES.has(String(s.u.state)));
  run.card.score(
    "ACP-PROMPT-315",
    states.length === 0
      ? na("the agent sent no state_update")
      : nonStandard.length === 0
        ? pass
        : turns.length > 0
          ? pass
          : fail(`check's client advertised no state beyond the standard ones, and the agent reported ${JSON.stringify(nonStandard[0]!.u.state)} without ever going idle: ${quote(run.d, nonStandard[0]!.l)}`),
  );
  const errors = states.filter((s) => s.u.stopReason === "error").map((s) => ({ ...s, line: s.l }));
  each(run, "ACP-PROMPT-314", errors, "no turn ended with the error stop reason", (s) => (isObj(s.u.error) ? undefined : "a turn ended with the error stop reason and no error object"));
  const withBackground = states.filter((s) => s.u.background !== undefined && s.u.background !== null);
  if (withBackground.length === 0) run.card.score("ACP-PROMPT-318", na("the agent reported no background work"));
  else {
    const sessions = new Set(withBackground.map((s) => s.sessionId));
    const first = new Map<unknown, number>(withBackground.map((s) => [s.sessionId, states.indexOf(s)]));
    const dropped = states.find((s, i) => sessions.has(s.sessionId) && i > (first.get(s.sessionId) ?? Infinity) && (s.u.background === undefined || s.u.background === null));
    run.card.score("ACP-PROMPT-318", dropped === undefined ? pass : fail(`the agent reported background work in this session, then a state_update without it: ${quote(run.d, dropped.l)}`));
  }

  judgeV2Tools(run, lines, tally);
  const commands = judgeV2Offers(run, lines, init, tally);

  // Command input types, stop reasons, content block types: the other open enums the agent writes.
  openEnum(
    run,
    "ACP-EXT-310",
    "command input type",
    commands.flatMap((x) => (isObj(x.c.input) ? [{ value: x.c.input.type, line: x.line }] : [])),
    known("AvailableCommandInput", "type"),
    tally,
  );
  const stops = states.flatMap((s) => (s.u.stopReason === undefined || s.u.stopReason === null ? [] : [{ value: s.u.stopReason, line: s.l }]));
  openEnum(run, "ACP-PROMPT-322", "stop reason", stops, known("IdleStateUpdate", "stopReason"), tally);
  const blocks = all.filter((x) => MESSAGE_KINDS.has(String(x.u.sessionUpdate))).flatMap((x) => (isObj(x.u.content) ? [x.u.content] : arr(x.u.content)).map((c) => ({ value: c.type, line: x.l })));
  openEnum(run, "ACP-PROMPT-323", "content block type", blocks, known("ContentBlock", "type"), tally);
  run.card.score("ACP-EXT-306", tally.seen === 0 ? na("the agent sent no value of an open enum") : tally.odd === undefined ? pass : na(`a ${tally.odd.what} ${JSON.stringify(tally.odd.value)} is neither known nor _-prefixed (see that row): noted, not charged`));

  // W3C trace context in _meta, and the agent's elicitations (check's v2 client advertises none).
  const traces = lines.flatMap((l) => traceContextUses(l.body).map((u) => ({ ...u, line: l })));
  each(run, "ACP-META-301", traces, "the agent wrote none of the _meta keys reserved for W3C trace context", (t) => (t.problem === undefined ? undefined : `in the agent's _meta, ${t.problem}`));
  const elicits = lines.filter((l) => l.body?.method === "elicitation/create" && l.body.id !== undefined);
  run.card.score("ACP-ELICIT-305", elicits.length === 0 ? pass : fail(`check's client advertised no elicitation mode, yet the agent sent ${quote(run.d, elicits[0]!)}`));
  // The elicitation rows that bind an agent's elicitations: check's v2 client advertises no mode, so none may come (ACP-ELICIT-305).
  run.card.all(["ACP-ELICIT-316", "ACP-ELICIT-318", "ACP-ELICIT-320", "ACP-ELICIT-321", "ACP-ELICIT-322", "ACP-CANCEL-313"], na("check's v2 client advertises no elicitation mode, so an agent sends it no elicitation to judge"));
}

/** Rows of side both whose subject only a client sends: n/a on an agent's card, with why. */
export function clientOnlySubjects(run: Run): void {
  const v: Verdict = na("the agent sends no MCP server objects: this binds the client, which builds them");
  run.card.all(["ACP-SESSION-318", "ACP-SESSION-321"], v);
}
