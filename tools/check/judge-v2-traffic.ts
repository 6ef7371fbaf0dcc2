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
 */
import { isAbsolute } from "node:path";
import type { AgentLine } from "./driver.ts";
import { quote, type Run } from "./kit.ts";
import { fail, na, pass, type Verdict } from "./score.ts";
import { isObj, type Obj } from "./depth-kit.ts";
import { traceContextUses } from "./trace-context.ts";
import { SCHEMA_DEFS } from "./schema-defs.ts";

/** The known values of an open enum of the v2 schema: its `const`s, or its variants' `discriminator` consts. */
function known(name: string, discriminator?: string): ReadonlySet<string> {
  const defs = SCHEMA_DEFS[2].stable;
  if (defs === undefined) throw new Error("check needs @agentclientprotocol/sdk's schema/v2/schema.json to judge v2 open enums");
  const out = new Set<string>();
  for (const v of defs[name]?.anyOf ?? []) {
    const c = discriminator === undefined ? v.const : v.properties?.[discriminator]?.const;
    if (typeof c === "string") out.add(c);
  }
  return out;
}

/** The session/update payloads of `lines`, with their line. */
const updates = (lines: readonly AgentLine[]) =>
  lines.flatMap((l) => {
    const p = l.body?.method === "session/update" && isObj(l.body.params) ? l.body.params : undefined;
    return p !== undefined && isObj(p.update) ? [{ l, sessionId: p.sessionId, u: p.update }] : [];
  });
const ofKind = (lines: readonly AgentLine[], kind: string) => updates(lines).filter((x) => x.u.sessionUpdate === kind);
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

const MESSAGE_KINDS = new Set(["agent_message", "agent_message_chunk", "user_message", "user_message_chunk", "agent_thought", "agent_thought_chunk"]);
const STANDARD_STATES = new Set(["idle", "running", "requires_action"]);

/** What the open-enum rows saw, for ACP-EXT-306 (the general rule): values seen, and the first unknown plain one. */
interface EnumTally {
  seen: number;
  odd: { readonly value: unknown; readonly line: AgentLine; readonly what: string } | undefined;
}

/** Judges the open-enum row `id`: every value seen known or `_`-prefixed passes; an unknown plain value is noted; none seen is n/a. */
function openEnum(run: Run, id: string, what: string, values: readonly { value: unknown; line: AgentLine }[], knownValues: ReadonlySet<string>, tally?: EnumTally): void {
  const strings = values.filter((v) => typeof v.value === "string");
  if (strings.length === 0) return run.card.score(id, na(`the agent sent no ${what}`));
  const odd = strings.find((v) => !knownValues.has(v.value as string) && !(v.value as string).startsWith("_"));
  if (tally !== undefined) {
    tally.seen += strings.length;
    if (odd !== undefined) tally.odd ??= { ...odd, what };
  }
  if (odd === undefined) return run.card.score(id, pass);
  run.card.score(
    id,
    na(`a ${what} ${JSON.stringify(odd.value)} is neither a value of the v2 schema check knows (@agentclientprotocol/sdk 2.4.0) nor _-prefixed: a custom value without its _ or a variant of a later schema, which the traffic cannot tell apart (noted, not charged): ${quote(run.d, odd.line)}`),
  );
}

/** Scores `id` by `bad` over `items`: n/a when there are none, fail quoting the first bad one, else pass. */
function each<T extends { line: AgentLine }>(run: Run, id: string, items: readonly T[], none: string, bad: (x: T) => string | undefined): void {
  if (items.length === 0) return run.card.score(id, na(none));
  for (const x of items) {
    const why = bad(x);
    if (why !== undefined) return run.card.score(id, fail(`${why}: ${quote(run.d, x.line)}`));
  }
  run.card.score(id, pass);
}

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

  // Tool calls, terminals, diffs.
  const tools = ofKind(lines, "tool_call_update").map((x) => ({ ...x, line: x.l }));
  const firstReport = tools.filter((t, i) => tools.findIndex((o) => o.u.toolCallId === t.u.toolCallId) === i);
  each(run, "ACP-TOOL-302", firstReport, "the agent reported no tool call", (t) => (typeof t.u.title === "string" && t.u.title !== "" ? undefined : `the first report of tool call ${JSON.stringify(t.u.toolCallId)} has no title`));
  openEnum(
    run,
    "ACP-TOOL-304",
    "tool kind",
    tools.map((t) => ({ value: t.u.kind, line: t.l })),
    known("ToolKind"),
    tally,
  );
  openEnum(
    run,
    "ACP-TOOL-305",
    "tool call status",
    tools.map((t) => ({ value: t.u.status, line: t.l })),
    known("ToolCallStatus"),
    tally,
  );
  const finals = new Set(["completed", "failed", "cancelled"]);
  each(
    run,
    "ACP-CANCEL-317",
    tools.filter((t) => finals.has(String(t.u.status))),
    "no tool call reached a final status",
    (t) => (isObj(t.u.capabilities) && t.u.capabilities.cancel !== undefined && t.u.capabilities.cancel !== null ? "a tool call in a final status still advertises capabilities.cancel" : undefined),
  );
  const locations = tools.flatMap((t) => arr(t.u.locations).map((loc) => ({ loc, line: t.l })));
  const terminals = ofKind(lines, "terminal_update").map((x) => ({ ...x, line: x.l }));
  const subjects = lines
    .filter((l) => l.body?.method === "session/request_permission")
    .flatMap((l) => {
      const subject = isObj(l.body?.params) ? (l.body.params as Obj).subject : undefined;
      return isObj(subject) && subject.type === "command" ? [{ subject, line: l }] : [];
    });
  each(run, "ACP-TOOL-306", subjects, "the agent asked no permission for a command", (x) => (typeof x.subject.cwd === "string" && isAbsolute(x.subject.cwd) ? undefined : `a command permission subject's cwd ${JSON.stringify(x.subject.cwd)} is not absolute`));
  each(
    run,
    "ACP-TERM-303",
    terminals.filter((t) => t.u.cwd !== undefined && t.u.cwd !== null),
    "no terminal update gave a cwd",
    (t) => (typeof t.u.cwd === "string" && isAbsolute(t.u.cwd) ? undefined : `a terminal cwd ${JSON.stringify(t.u.cwd)} is not absolute`),
  );
  // A terminal id stays one terminal's: after its exit, an update naming another command under the same id reuses it.
  const exited = new Map<unknown, unknown>();
  const reused = terminals.find((t) => {
    const was = exited.get(t.u.terminalId);
    if (t.u.exitStatus !== undefined && t.u.exitStatus !== null) exited.set(t.u.terminalId, JSON.stringify(t.u.command ?? null));
    return was !== undefined && t.u.command !== undefined && t.u.command !== null && JSON.stringify(t.u.command) !== was;
  });
  run.card.score("ACP-TERM-301", terminals.length === 0 ? na("the agent reported no terminal") : reused === undefined ? pass : fail(`terminal ${JSON.stringify(reused.u.terminalId)} exited and its id came back for another command: ${quote(run.d, reused.l)}`));
  const firstTerminal = terminals.filter((t, i) => terminals.findIndex((o) => o.u.terminalId === t.u.terminalId) === i);
  each(run, "ACP-TERM-302", firstTerminal, "the agent reported no terminal", (t) => (typeof t.u.command === "string" || (isObj(t.u.command) && Object.keys(t.u.command).length > 0) ? undefined : `the first update of terminal ${JSON.stringify(t.u.terminalId)} gives no command`));
  const patches = tools.flatMap((t) =>
    arr(t.u.content)
      .filter((c) => c.type === "diff")
      .flatMap((c) => (isObj(c.patch) && typeof c.patch.text === "string" ? [{ text: c.patch.text, line: t.l }] : [])),
  );
  each(run, "ACP-DIFF-304", patches, "the agent sent no git patch", (p) => (/^(?:diff --git (?!\/)|--- a\/|\+\+\+ b\/|rename (?:from|to) (?!\/)|copy (?:from|to) (?!\/))/m.test(p.text) ? "a git patch path is not absolute or carries a/ or b/" : undefined));
  each(run, "ACP-DIFF-305", patches, "the agent sent no git patch", (p) => (/^(?:From [0-9a-f]{7,} |Subject: |Date: )/m.test(p.text) ? "a git patch carries commit metadata or an email envelope" : undefined));
  const paths = [...locations.filter((x) => typeof x.loc.path === "string").map((x) => ({ path: x.loc.path, line: x.line })), ...patches.flatMap((p) => [...p.text.matchAll(/^diff --git (\S+)/gm)].map((m) => ({ path: m[1], line: p.line })))];
  each(run, "ACP-PATH-301", paths, "the agent sent no file path (tool call locations, patches)", (x) => (typeof x.path === "string" && isAbsolute(x.path) ? undefined : `the path ${JSON.stringify(x.path)} is not absolute`));

  // Plans.
  const plans = ofKind(lines, "plan_update").map((x) => ({ ...x, line: x.l, plan: isObj(x.u.plan) ? x.u.plan : {} }));
  run.card.score("ACP-PLAN-301", plans.length > 0 ? pass : na("the agent reported no plan in answer to the exercise prompts"));
  each(run, "ACP-PLAN-303", plans, "the agent reported no plan", (p) => (typeof p.plan.planId === "string" ? undefined : "a plan_update whose plan has no planId"));
  openEnum(
    run,
    "ACP-PLAN-302",
    "plan content type",
    plans.map((p) => ({ value: p.plan.type, line: p.l })),
    known("PlanUpdateContent", "type"),
    tally,
  );
  const entries = plans.flatMap((p) => arr(p.plan.entries).map((e) => ({ e, line: p.l })));
  openEnum(
    run,
    "ACP-PLAN-304",
    "plan entry priority",
    entries.map((x) => ({ value: x.e.priority, line: x.line })),
    known("PlanEntryPriority"),
    tally,
  );
  openEnum(
    run,
    "ACP-PLAN-305",
    "plan entry status",
    entries.map((x) => ({ value: x.e.status, line: x.line })),
    known("PlanEntryStatus"),
    tally,
  );
  const ids = new Set(plans.map((p) => p.plan.planId));
  run.card.score("ACP-PLAN-306", plans.length < 2 ? na(plans.length === 0 ? "the agent reported no plan" : "one plan update only: no progress to report") : ids.size < plans.length ? pass : na("each plan update carried a new planId: no plan was updated"));
  each(
    run,
    "ACP-PLAN-307",
    plans.filter((p) => Array.isArray(p.plan.entries)),
    "the agent reported no item-based plan",
    (p) => (arr(p.plan.entries).every((e) => typeof e.content === "string" && typeof e.status === "string") ? undefined : "a plan update whose entries lack their content or status"),
  );

  // Commands, icons, permission options, auth methods, config options.
  const commands = ofKind(lines, "available_commands_update").flatMap((x) => arr(x.u.availableCommands).map((c) => ({ c, line: x.l })));
  each(
    run,
    "ACP-EXT-311",
    commands.filter((x) => typeof x.c.name === "string"),
    "the agent advertised no command",
    (x) => {
      const name = x.c.name as string;
      return /\s/.test(name) ? `the command name ${JSON.stringify(name)} has whitespace` : commands.filter((o) => o.line === x.line && o.c.name === name).length > 1 ? `the command name ${JSON.stringify(name)} is listed twice` : undefined;
    },
  );
  const icons = lines.flatMap((l) => ([...l.text.matchAll(/"icons?"\s*:/g)].length > 0 ? iconSources(l.body).map((src) => ({ src, line: l })) : []));
  each(run, "ACP-EXT-312", icons, "the agent sent no icon", (x) => (/^(https:|data:)/.test(x.src) ? undefined : `the icon src ${JSON.stringify(x.src.slice(0, 80))} is neither https: nor data:`));
  const permissions = lines.filter((l) => l.body?.method === "session/request_permission").map((l) => ({ line: l, options: arr((l.body?.params as Obj | undefined)?.options) }));
  each(run, "ACP-PERM-304", permissions, "the agent asked no permission", (p) => (new Set(p.options.map((o) => o.optionId)).size === p.options.length ? undefined : "two permission options share an optionId"));
  openEnum(
    run,
    "ACP-PERM-305",
    "permission option kind",
    permissions.flatMap((p) => p.options.map((o) => ({ value: o.kind, line: p.line }))),
    known("PermissionOptionKind"),
    tally,
  );
  const methods = arr(init.authMethods);
  const initLine = lines.find((l) => isObj(l.body?.result) && "protocolVersion" in (l.body.result as Obj)) ?? lines[0];
  if (initLine !== undefined) {
    openEnum(
      run,
      "ACP-AUTH-306",
      "auth method type",
      methods.map((m) => ({ value: m.type, line: initLine })),
      known("AuthMethod", "type"),
      tally,
    );
    const terminal = methods.filter((m) => m.type === "terminal");
    run.card.score("ACP-AUTH-308", methods.length === 0 ? na("the agent lists no authMethods") : terminal.length === 0 ? pass : fail(`check's client did not enable terminal authentication, yet the agent lists the terminal method ${JSON.stringify(terminal[0]!.methodId)}: ${quote(run.d, initLine)}`));
    const envs = terminal.filter((m) => Array.isArray(m.env)).map((m) => arr(m.env).map((e) => e.name));
    run.card.score("ACP-AUTH-309", envs.length === 0 ? na("no terminal auth method with env entries") : envs.every((n) => new Set(n).size === n.length) ? pass : fail(`a terminal auth method's env names repeat: ${quote(run.d, initLine)}`));
  }
  const lists = lines.flatMap((l) => {
    const r = isObj(l.body?.result) ? l.body.result : undefined;
    const u = l.body?.method === "session/update" && isObj(l.body.params) && isObj(l.body.params.update) && l.body.params.update.sessionUpdate === "config_option_update" ? l.body.params.update : undefined;
    const src = r ?? u;
    return src !== undefined && "configOptions" in src ? [{ options: src.configOptions, line: l }] : [];
  });
  each(run, "ACP-CONFIG-313", lists, "the agent sent no configOptions", (x) => (Array.isArray(x.options) ? undefined : `configOptions is ${JSON.stringify(x.options)}, not an array`));
  const options = lists.flatMap((x) => arr(x.options).map((o) => ({ o, line: x.line })));
  openEnum(
    run,
    "ACP-CONFIG-310",
    "config option type",
    options.map((x) => ({ value: x.o.type, line: x.line })),
    known("SessionConfigOption", "type"),
    tally,
  );
  const selects = options.filter((x) => x.o.type === "select");
  const values = (o: Obj) =>
    arr(o.options)
      .flatMap((v) => (Array.isArray(v.options) ? arr(v.options) : [v]))
      .map((v) => v.value);
  each(run, "ACP-CONFIG-301", options, "the agent offered no config option", (x) =>
    x.o.currentValue === undefined || x.o.currentValue === null
      ? `config option ${JSON.stringify(x.o.configId)} has no current value`
      : x.o.type === "select" && !values(x.o).includes(x.o.currentValue)
        ? `select option ${JSON.stringify(x.o.configId)}'s current value is none of its values`
        : undefined,
  );
  each(run, "ACP-CONFIG-312", selects, "the agent offered no select option", (x) => {
    const v = values(x.o);
    return v.length === 0 ? `select option ${JSON.stringify(x.o.configId)} has no value` : new Set(v).size !== v.length ? `select option ${JSON.stringify(x.o.configId)} repeats a value` : undefined;
  });

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

/** The `src` of every icon object anywhere in a message. */
function iconSources(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) for (const x of v) iconSources(x, out);
  else if (isObj(v)) {
    for (const [k, x] of Object.entries(v)) {
      if ((k === "icon" || k === "icons") && (isObj(x) || Array.isArray(x))) for (const i of Array.isArray(x) ? x : [x]) if (isObj(i) && typeof i.src === "string") out.push(i.src);
      iconSources(x, out);
    }
  }
  return out;
}

/** Rows of side both whose subject only a client sends: n/a on an agent's card, with why. */
export function clientOnlySubjects(run: Run): void {
  const v: Verdict = na("the agent sends no MCP server objects: this binds the client, which builds them");
  run.card.all(["ACP-SESSION-318", "ACP-SESSION-321"], v);
}
