/**
 * Shape comparison for `inspect replay`: two JSON values are compared by
 * structure, not by free text. Objects must have the same keys, values the
 * same JSON types, array items the same shape (a list's length is data: a
 * list that grew is compared item by item, not by length); strings are compared only when
 * they look like protocol tokens (`end_turn`, `allow_once`: lower-case
 * snake_case words) and do not sit under a free-text key (`text`, `title`,
 * `message`…). Values under id keys (`id`, `sessionId`, `toolCallId`…) are
 * generated: they are never compared, and each recorded → replayed pair is
 * learnt so later client messages can use the replayed agent's ids.
 */

/** One place where the replayed value differs from the recorded one. */
export interface ShapeDiff {
  /** Where, as a dotted path from the compared root (`result.stopReason`, `result.sessions[0]`). */
  readonly path: string;
  /** What the recording had there and what the replay has, described briefly. */
  readonly recorded: string;
  readonly replayed: string;
}

/** Recorded generated id → the replayed agent's id in the same place. */
export type IdMap = Map<string, string>;

/** Keys whose string values are prose, compared only by type. */
const FREE_TEXT: ReadonlySet<string> = new Set(["text", "title", "description", "message", "name", "content", "thought", "version", "data"]);

/** A protocol token: a short lower-case snake_case word. */
const TOKEN = /^[a-z][a-z0-9_]{0,39}$/;

/** True when `key` names a generated id (`id`, `sessionId`, `toolCallId`, `terminalId`…). */
export function isIdKey(key: string): boolean {
  return key === "id" || key.endsWith("Id");
}

/** Compares `replayed` with `recorded` below `path`; learns id pairs into `ids`. Each difference is reported once, at the shallowest place it shows. */
export function compareShape(recorded: unknown, replayed: unknown, path: string, ids: IdMap): ShapeDiff[] {
  const out: ShapeDiff[] = [];
  walk(recorded, replayed, path, "", ids, out);
  return out;
}

function walk(a: unknown, b: unknown, path: string, key: string, ids: IdMap, out: ShapeDiff[]): void {
  const ta = typeOf(a);
  const tb = typeOf(b);
  if (ta !== tb) {
    out.push({ path, recorded: describe(a), replayed: describe(b) });
    return;
  }
  if (ta === "string") {
    if (isIdKey(key)) {
      if (a !== b && !ids.has(a as string)) ids.set(a as string, b as string);
    } else if (!FREE_TEXT.has(key) && (TOKEN.test(a as string) || TOKEN.test(b as string)) && a !== b) out.push({ path, recorded: JSON.stringify(a), replayed: JSON.stringify(b) });
    return;
  }
  if (ta === "array") {
    const xa = a as unknown[];
    const xb = b as unknown[];
    if (xa.length === xb.length) {
      xa.forEach((item, i) => walk(item, xb[i], `${path}[${i}]`, key, ids, out));
      return;
    }
    // A list that grew or shrank (an agent that persists sessions lists more each run): its
    // length is data, not shape. Each replayed item is compared with the recorded item at its
    // index (the last one past the end), and no id pair is learnt, since items may not correspond.
    if (xa.length === 0) return;
    const unpaired: IdMap = new Map();
    xb.forEach((item, i) => walk(xa[Math.min(i, xa.length - 1)], item, `${path}[${i}]`, key, unpaired, out));
    return;
  }
  if (ta === "object") {
    const oa = a as Record<string, unknown>;
    const ob = b as Record<string, unknown>;
    for (const k of Object.keys(oa)) {
      const at = path === "" ? k : `${path}.${k}`;
      if (!Object.prototype.hasOwnProperty.call(ob, k)) out.push({ path: at, recorded: describe(oa[k]), replayed: "absent" });
      else walk(oa[k], ob[k], at, k, ids, out);
    }
    for (const k of Object.keys(ob)) {
      if (!Object.prototype.hasOwnProperty.call(oa, k)) out.push({ path: path === "" ? k : `${path}.${k}`, recorded: "absent", replayed: describe(ob[k]) });
    }
  }
}

/** The JSON type of a value: `object`, `array`, `string`, `number`, `boolean`, `null` (or `undefined` for a missing value). */
export function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/** A short description of a value for a report: tokens and numbers as themselves, other values by type. */
export function describe(v: unknown): string {
  const t = typeOf(v);
  if (t === "string") return TOKEN.test(v as string) ? JSON.stringify(v) : "a string";
  if (t === "number" || t === "boolean" || t === "null") return JSON.stringify(v);
  if (t === "array") return `an array of ${(v as unknown[]).length}`;
  if (t === "object") return "an object";
  return "absent";
}

/** `value` with every string that is a learnt recorded id replaced by its replayed id; `changed` says whether any was. */
export function substituteIds(value: unknown, ids: IdMap): { readonly value: unknown; readonly changed: boolean } {
  if (ids.size === 0) return { value, changed: false };
  let changed = false;
  const map = (v: unknown): unknown => {
    if (typeof v === "string") {
      const to = ids.get(v);
      if (to === undefined) return v;
      changed = true;
      return to;
    }
    if (Array.isArray(v)) return v.map(map);
    if (typeof v === "object" && v !== null) {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) Object.defineProperty(o, k, { value: map(x), enumerable: true, writable: true, configurable: true });
      return o;
    }
    return v;
  };
  const out = map(value);
  return { value: out, changed };
}
