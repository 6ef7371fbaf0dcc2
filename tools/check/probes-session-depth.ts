/**
 * The session/new probes of check's deeper v1 run (no client capability
 * advertised): `_meta` and unknown fields accepted, a stdio MCP server
 * accepted, session ids unique, config options (a current value each, a set
 * answered with the whole list, mode-like options and modes kept in step),
 * and session/cancel never answered. Resolves with the session it made, for
 * the lifecycle probes (probes-session-lifecycle.ts).
 */
import { describeError, errorCode, isResponse, quoteText, type Run, show, silent, step, withSentinel } from "./kit.ts";
import { fail, na, pass } from "./score.ts";
import { ErrorCode } from "../../src/errors.ts";
import { configLists, isObj, type Obj } from "./depth-kit.ts";

/** The rows the session/new depth probes score. */
export const SESSION_NEW_ROWS = ["ACP-META-001", "ACP-META-102", "ACP-MCP-101", "ACP-MCP-102", "ACP-EXT-101", "ACP-SESSION-002", "ACP-CONFIG-101", "ACP-CONFIG-002", "ACP-CONFIG-111", "ACP-CONFIG-114", "ACP-CANCEL-205"];

/** The session/new probes of the main run; resolves with the first session made, if any. */
export async function sessionNewDepth(run: Run): Promise<string | undefined> {
  const { d, card } = run;
  const cwd = run.options.cwd;
  let sid: string | undefined;
  const ids: string[] = [];
  await step(run, "session/new depth", SESSION_NEW_ROWS, async () => {
    const meta = { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "acp-router.check": { nested: [1, null, { deep: true }], odd: "" } };
    const created = await d.request("session/new", { cwd, mcpServers: [], _meta: meta });
    if (created === undefined) return card.score("ACP-META-102", silent(run, "ACP-META-102"));
    if (created.error !== undefined) {
      run.noSession = `session/new was answered ${describeError(created)}`;
      return card.all(SESSION_NEW_ROWS, na(run.noSession));
    }
    const result = isObj(created.result) ? created.result : {};
    if (typeof result.sessionId !== "string") {
      run.noSession = `session/new answered ${show(created)}`;
      return card.all(SESSION_NEW_ROWS, na(run.noSession));
    }
    sid = result.sessionId;
    ids.push(sid);
    card.all(["ACP-META-001", "ACP-META-102"], pass);
    const stdio = { name: "acp-router-check", command: process.execPath, args: ["-e", ""], env: [] };
    const withMcp = await d.request("session/new", { cwd, mcpServers: [stdio] });
    if (withMcp === undefined) card.score("ACP-MCP-101", silent(run, "ACP-MCP-101"));
    else if (errorCode(withMcp) === ErrorCode.InvalidParams) card.all(["ACP-MCP-101", "ACP-MCP-102"], fail(`session/new with a stdio MCP server was refused: ${describeError(withMcp)}`));
    else if (withMcp.error !== undefined) card.all(["ACP-MCP-101", "ACP-MCP-102"], na(`session/new with a stdio MCP server (one that exits at once) was answered ${describeError(withMcp)}`));
    else {
      card.all(["ACP-MCP-101", "ACP-MCP-102"], pass);
      const id = (withMcp.result as { sessionId?: unknown } | undefined)?.sessionId;
      if (typeof id === "string") ids.push(id);
    }
    const unknown = await d.request("session/new", { cwd, mcpServers: [], acpRouterCheckFutureField: { since: "a later version" } });
    if (unknown === undefined) card.score("ACP-EXT-101", silent(run, "ACP-EXT-101"));
    else if (unknown.error !== undefined) card.score("ACP-EXT-101", errorCode(unknown) === ErrorCode.InvalidParams ? fail(`session/new with an unknown field was refused: ${describeError(unknown)}`) : na(`session/new with an unknown field was answered ${describeError(unknown)}`));
    else {
      card.score("ACP-EXT-101", pass);
      const id = (unknown.result as { sessionId?: unknown } | undefined)?.sessionId;
      if (typeof id === "string") ids.push(id);
    }
    card.score("ACP-SESSION-002", new Set(ids).size === ids.length ? pass : fail(`session/new answered the same sessionId twice: ${show(ids)}`));

    // Config options: a current value each, a set answered with the whole list, an invalid value refused.
    const options = Array.isArray(result.configOptions) ? result.configOptions.filter(isObj) : [];
    if (options.length === 0) card.all(["ACP-CONFIG-101", "ACP-CONFIG-002", "ACP-CONFIG-111", "ACP-CONFIG-114"], na("session/new offered no config options"));
    else {
      const missing = options.filter((o) => o.currentValue === undefined || o.currentValue === null);
      card.score("ACP-CONFIG-101", missing.length === 0 ? pass : fail(`config option ${show(missing[0]!.id)} has no currentValue`));
      const select = options.find((o) => o.type === "select" && Array.isArray(o.options) && o.options.some((x) => isObj(x) && x.value !== o.currentValue));
      if (select === undefined) card.score("ACP-CONFIG-002", na("no select option with a second value to set"));
      else {
        const value = (select.options as Obj[]).find((x) => isObj(x) && x.value !== select.currentValue)!.value;
        const set = await d.request("session/set_config_option", { sessionId: sid, configId: select.id, value });
        const after = isObj(set?.result) && Array.isArray(set.result.configOptions) ? set.result.configOptions.filter(isObj) : undefined;
        const allIds = options.map((o) => o.id);
        if (set === undefined) card.score("ACP-CONFIG-002", silent(run, "ACP-CONFIG-002"));
        else if (set.error !== undefined) card.score("ACP-CONFIG-002", fail(`session/set_config_option ${show(select.id)} = ${show(value)} (a value it offered) was answered ${describeError(set)}`));
        else
          card.score(
            "ACP-CONFIG-002",
            after !== undefined && allIds.every((id) => after.some((o) => o.id === id)) && after.find((o) => o.id === select.id)?.currentValue === value ? pass : fail(`session/set_config_option ${show(select.id)} = ${show(value)} was answered ${show(set)}, not the complete list with the new value`),
          );
        const bad = await d.request("session/set_config_option", { sessionId: sid, configId: select.id, value: "acp-router-check-no-such-value" });
        if (bad?.result !== undefined) card.notes.push(`session/set_config_option with a value the option does not offer was accepted: ${show(bad)}`);
      }
      const modeLike = options.find((o) => o.category === "mode");
      const modes = isObj(result.modes) ? result.modes : undefined;
      card.score("ACP-CONFIG-111", modeLike === undefined ? na("no config option of category mode") : modes !== undefined ? pass : fail(`config option ${show(modeLike.id)} is mode-like, but session/new sent no modes`));
      if (modeLike === undefined || modes === undefined || !Array.isArray(modes.availableModes)) card.score("ACP-CONFIG-114", na("the agent does not offer both modes and a mode config option"));
      else {
        const target = (modes.availableModes as Obj[]).find((m) => isObj(m) && m.id !== modes.currentModeId)?.id;
        const at = d.lines.length;
        const set = target === undefined ? undefined : await d.request("session/set_mode", { sessionId: sid, modeId: target });
        if (set?.result === undefined) card.score("ACP-CONFIG-114", na(`session/set_mode was answered ${show(set)}`));
        else {
          await d.waitFor(() => false, d.quiet, at);
          const synced = configLists(d.lines.slice(at)).some((l) => l.options.some((o) => o.id === modeLike.id && o.currentValue === target));
          card.score("ACP-CONFIG-114", synced ? pass : fail(`after session/set_mode ${show(target)}, no config option update put ${show(modeLike.id)} at that value`));
        }
      }
    }

    // session/cancel is a notification: never answered.
    const cancel = await withSentinel(
      run,
      () => d.notify("session/cancel", { sessionId: sid }),
      (l) => isResponse(l) && (l.body?.id === null || l.body?.id === undefined),
    );
    card.score("ACP-CANCEL-205", cancel.found.length > 0 ? fail(`session/cancel was answered: ${quoteText(cancel.found[0]!.text)}`) : cancel.sentinel !== undefined ? pass : silent(run, "ACP-CANCEL-205"));
  });
  return sid;
}
