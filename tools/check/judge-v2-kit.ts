/**
 * How check's v2 traffic judges read an agent's lines (judge-v2-traffic.ts,
 * judge-v2-tools.ts, judge-v2-offers.ts): its session/update payloads, by
 * kind; the known values of the v2 schema's open enums and the one rule that
 * judges them (a custom value begins with `_`; an unknown plain one is noted,
 * never charged, since a later schema may define it); and a row scored over
 * a list of items, failing on the first bad one with its line quoted.
 */
import type { AgentLine } from "./driver.ts";
import { quote, type Run } from "./kit.ts";
import { fail, na, pass } from "./score.ts";
import { isObj, type Obj } from "./depth-kit.ts";
import { SCHEMA_DEFS } from "./schema-defs.ts";

/** The known values of an open enum of the v2 schema: its `const`s, or its variants' `discriminator` consts. */
export function known(name: string, discriminator?: string): ReadonlySet<string> {
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
export const updates = (lines: readonly AgentLine[]) =>
  lines.flatMap((l) => {
    const p = l.body?.method === "session/update" && isObj(l.body.params) ? l.body.params : undefined;
    return p !== undefined && isObj(p.update) ? [{ l, sessionId: p.sessionId, u: p.update }] : [];
  });
export const ofKind = (lines: readonly AgentLine[], kind: string) => updates(lines).filter((x) => x.u.sessionUpdate === kind);
export const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

export const MESSAGE_KINDS = new Set(["agent_message", "agent_message_chunk", "user_message", "user_message_chunk", "agent_thought", "agent_thought_chunk"]);
export const STANDARD_STATES = new Set(["idle", "running", "requires_action"]);

/** What the open-enum rows saw, for ACP-EXT-306 (the general rule): values seen, and the first unknown plain one. */
export interface EnumTally {
  seen: number;
  odd: { readonly value: unknown; readonly line: AgentLine; readonly what: string } | undefined;
}

/** Judges the open-enum row `id`: every value seen known or `_`-prefixed passes; an unknown plain value is noted; none seen is n/a. */
export function openEnum(run: Run, id: string, what: string, values: readonly { value: unknown; line: AgentLine }[], knownValues: ReadonlySet<string>, tally?: EnumTally): void {
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
export function each<T extends { line: AgentLine }>(run: Run, id: string, items: readonly T[], none: string, bad: (x: T) => string | undefined): void {
  if (items.length === 0) return run.card.score(id, na(none));
  for (const x of items) {
    const why = bad(x);
    if (why !== undefined) return run.card.score(id, fail(`${why}: ${quote(run.d, x.line)}`));
  }
  run.card.score(id, pass);
}
