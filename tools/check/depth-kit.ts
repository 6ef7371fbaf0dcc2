/**
 * What the deeper v1 probes of `check` share (probes-depth.ts and the files it
 * calls): reading updates, requests and config option lists out of the
 * agent's lines.
 */
import type { AgentLine } from "./driver.ts";

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The client information check sends in every initialize. */
export const CLIENT_INFO = { name: "acp-router-check", version: "0.1.0" };

/** The session/update lines among `lines` (of one update kind when given), with the update and its session id. */
export const updatesOf = (lines: readonly AgentLine[], kind?: string) =>
  lines.flatMap((l) => {
    const p = l.body?.method === "session/update" ? l.body.params : undefined;
    const u = isObj(p) ? p.update : undefined;
    return isObj(u) && (kind === undefined || u.sessionUpdate === kind) ? [{ line: l, update: u, sessionId: isObj(p) ? p.sessionId : undefined }] : [];
  });
/** The requests among `lines` whose method starts with `prefix`. */
export const requestsOf = (lines: readonly AgentLine[], prefix: string) => lines.filter((l) => typeof l.body?.method === "string" && l.body.id !== undefined && (l.body.method as string).startsWith(prefix));
/** A line's params object (empty when it has none). */
export const paramsOf = (l: AgentLine): Obj => (isObj(l.body?.params) ? l.body.params : {});

/** Every config option list the agent sent (answers and config_option_update), with where it came from. */
export function configLists(lines: readonly AgentLine[]): { where: string; options: Obj[] }[] {
  const out: { where: string; options: Obj[] }[] = [];
  for (const l of lines) {
    const r = l.body?.result;
    if (isObj(r) && Array.isArray(r.configOptions)) out.push({ where: `an answer: ${l.text.slice(0, 160)}`, options: r.configOptions.filter(isObj) });
  }
  for (const { update, line } of updatesOf(lines, "config_option_update")) if (Array.isArray(update.configOptions)) out.push({ where: `a config_option_update: ${line.text.slice(0, 160)}`, options: update.configOptions.filter(isObj) });
  return out;
}
