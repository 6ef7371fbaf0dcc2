/**
 * The v2 rows of what an agent offers, read from the whole traffic: plans,
 * slash commands, icons, permission options, auth methods and config
 * options. Returns the commands it saw, whose input types are an open enum
 * judged with the others.
 */
import type { AgentLine } from "./driver.ts";
import { quote, type Run } from "./kit.ts";
import { fail, na, pass } from "./score.ts";
import { isObj, type Obj } from "./depth-kit.ts";
import { arr, each, known, ofKind, openEnum, type EnumTally } from "./judge-v2-kit.ts";

/** Judges the plan, command, icon, permission, auth method and config option rows of the v2 traffic; the commands seen. */
export function judgeV2Offers(run: Run, lines: readonly AgentLine[], init: Obj, tally: EnumTally): { c: Obj; line: AgentLine }[] {
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
  return commands;
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
