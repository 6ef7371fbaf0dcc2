/**
 * Validation of decoded params and results: the fast path is one call of a
 * generated validator; the slow path repairs lenient locations (unless
 * strict) and otherwise reports one error per instance location.
 */
import { isLenientAt, repairOnce, type LeniencyGraph, type Repair, type Undo } from "./leniency.ts";
import { setAsideUnknownValues } from "./unknown-values.ts";
import type { Validator, ValidatorError } from "./validator.ts";

/** How a receiver treats the schema's lenient locations. `repair` is the default, as the reference SDKs do. */
export type Leniency = "repair" | "strict";

/**
 * What `repair` mode does with an enum value the schema does not know: `keep`
 * passes it through with a `kept_unknown` entry (results: a newer peer's
 * `stopReason`); `reject` (the default, used for params) treats it as any
 * other error. `strict` mode always rejects.
 */
export type UnknownValues = "keep" | "reject";

/** One validation error, per instance location. */
export interface FieldError {
  /** JSON Pointer into the params (`/prompt/0/type`); `""` is the params object itself. */
  readonly path: string;
  readonly message: string;
}

/** The outcome of a failed fast path. */
export type CheckOutcome = { readonly ok: true; readonly repairs: readonly Repair[] } | { readonly ok: false; readonly errors: readonly FieldError[] };

/** Most errors listed in one answer; the rest are summarised in the last entry. */
export const MAX_FIELD_ERRORS = 20;

/**
 * Most repair rounds before giving up: 16. Each round re-validates and repairs
 * at least one location, innermost first, so a round is needed per nesting
 * level of lenient locations on one path.
 */
export const MAX_REPAIR_ROUNDS = 16;

/**
 * Validates `data` against `validator`. Returns undefined when valid as it
 * is (the fast path: one validator call, no allocation); otherwise the
 * repairs made (data is modified in place; unknown enum values kept when
 * `unknownValues` is `keep`) or the errors.
 */
export function check(validator: Validator, data: unknown, root: string, graph: LeniencyGraph, leniency: Leniency, unknownValues: UnknownValues = "reject"): CheckOutcome | undefined {
  if (validator(data)) return undefined;
  const first = validator.errors ?? [];
  if (leniency === "repair" && typeof data === "object" && data !== null) {
    const done = new Set<string>();
    let repairs: Repair[] = [];
    const undo: Undo[] = [];
    let errors = first;
    for (let round = 0; round < MAX_REPAIR_ROUNDS; round++) {
      if (unknownValues === "keep") {
        // Recomputed each round: a dropped item before a kept value shifts its path.
        const kept = new Map<string, Repair>();
        errors = setAsideUnknownValues(data, errors, kept, (pointer) => isLenientAt(graph, root, data, pointer));
        if (errors.length === 0) return { ok: true, repairs: [...repairs, ...kept.values()] };
      }
      const made = repairOnce(graph, root, data, errors, done, undo);
      if (!made) break;
      repairs.push(...made);
      if (validator(data)) {
        if (undo.length > 0 && undo.length <= MAX_UNDO) repairs = keepNeeded(validator, data, repairs, undo);
        return { ok: true, repairs };
      }
      errors = validator.errors ?? [];
    }
  }
  return { ok: false, errors: fieldErrors(first) };
}

/**
 * Most field repairs {@link keepNeeded} re-checks one by one: 16. A union
 * reports errors from every branch, so a field a wrong branch complained
 * about may have been repaired needlessly; beyond 16 (hostile input) the
 * repairs stand as made, to bound the work.
 */
export const MAX_UNDO = 16;

/**
 * Takes back each field repair, newest first, that the value does not need
 * (still valid with the field as the peer sent it: a `mimeType: null` the
 * image branch of a union rejected in a valid resource link). Returns the
 * repairs that remain.
 */
function keepNeeded(validator: Validator, data: unknown, repairs: Repair[], undo: readonly Undo[]): Repair[] {
  const undone = new Set<Repair>();
  for (let i = undo.length - 1; i >= 0; i--) {
    const u = undo[i] as Undo;
    const now = u.parent[u.key];
    const had = Object.prototype.hasOwnProperty.call(u.parent, u.key);
    if (u.had) u.parent[u.key] = u.old;
    else delete u.parent[u.key];
    if (validator(data)) undone.add(u.repair);
    else if (had) u.parent[u.key] = now;
    else delete u.parent[u.key];
  }
  return undone.size === 0 ? repairs : repairs.filter((r) => !undone.has(r));
}

/** Groups validator errors into one entry per instance location. */
export function fieldErrors(errors: readonly ValidatorError[]): FieldError[] {
  const byPath = new Map<string, string[]>();
  for (const e of errors) {
    const missing = e.keyword === "required" ? e.params.missingProperty : undefined;
    const path = typeof missing === "string" ? `${e.instancePath}/${missing.replace(/~/g, "~0").replace(/\//g, "~1")}` : e.instancePath;
    const message = typeof missing === "string" ? "is required" : (e.message ?? e.keyword);
    const list = byPath.get(path);
    if (!list) byPath.set(path, [message]);
    else if (!list.includes(message)) list.push(message);
  }
  const out: FieldError[] = [];
  for (const [path, messages] of byPath) {
    if (out.length === MAX_FIELD_ERRORS) {
      out.push({ path: "", message: `and ${byPath.size - MAX_FIELD_ERRORS} more locations` });
      break;
    }
    out.push({ path, message: messages.join("; ") });
  }
  return out;
}

/**
 * Validates (and, in `repair` mode, repairs in place) the params of a table
 * row found by the caller — the decode step of the inbound pipeline and of
 * `decode()`: `undefined` when valid as sent — the fast path allocates
 * nothing — else the repairs made or the errors per location. `params` is
 * the message's params with an absent one read as `{}`.
 * @internal
 */
export function decodeParams(protocol: { readonly leniency: LeniencyGraph }, row: { readonly params: Validator; readonly paramsType: string }, params: unknown, mode: Leniency): CheckOutcome | undefined {
  return check(row.params, params, row.paramsType, protocol.leniency, mode);
}
