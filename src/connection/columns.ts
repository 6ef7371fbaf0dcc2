/**
 * The connection-side meaning of the table's newer columns (method-table.ts):
 * where `initialize` carries the capabilities (`capabilityFields`), caller
 * gates (`callerCapability`), per-object gates (`objectCapability`), turns
 * that outlive their answer (`turnEnd`), repeated `initialize` (`repeatable`)
 * and rows kept out of batches (`unbatched`). Each function reads the row, never
 * a wire name, so every table gets the behaviour its rows ask for.
 */
import type { Row, Router } from "../row.ts";
import type { CancelCause } from "./cancel-cause.ts";
import { hasCapability } from "./capabilities.ts";

type AnyRow = Row<unknown, unknown> | Row<never, never>;

/** The capabilities an `initialize` row's params (`which: "params"`) or result carry; `{}` when absent. */
export function capabilitiesIn(row: AnyRow | undefined, which: "params" | "result", value: unknown): Record<string, unknown> {
  const field = row?.capabilityFields?.[which] ?? (which === "params" ? "clientCapabilities" : "agentCapabilities");
  const caps = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[field] : undefined;
  return typeof caps === "object" && caps !== null ? (caps as Record<string, unknown>) : {};
}

/** True unless the row has a `callerCapability` that `callerCapabilities` does not advertise. */
export function callerAllowed(row: AnyRow | undefined, callerCapabilities: unknown): boolean {
  return row?.callerCapability === undefined || hasCapability(callerCapabilities, row.callerCapability);
}

/**
 * Per connection state of the newer columns, kept beside the connection core
 * (a WeakMap, so the core carries no field for tables that never use them).
 */
export interface ColumnState {
  /** A request other than `initialize` arrived: a `repeatable` initialize may not come again. */
  otherRequestSeen: boolean;
  /** Agent side: the running turn of each session whose request row has `turnEnd`. */
  readonly turns: Map<string, Turn>;
  /** Client side: per `objectCapability` update kind, object id → its latest advertised capability value. */
  readonly objects: Map<string, Map<string, unknown>>;
}

/** A turn that outlives its answer: the call whose signal it keeps live, and how it ends. */
interface Turn {
  readonly call: { cancel(cause: CancelCause): void; abortForClose(): void };
  readonly end: NonNullable<Row["turnEnd"]>;
}

const states = new WeakMap<object, ColumnState>();

/** The column state of the connection `core`, created on first use. */
export function columnState(core: object): ColumnState {
  let state = states.get(core);
  if (state === undefined) {
    state = { otherRequestSeen: false, turns: new Map(), objects: new Map() };
    states.set(core, state);
  }
  return state;
}

/**
 * Whether an inbound request for `row` passes the `repeatable` rule: a second
 * `initialize` is refused once another request came, when the row says it may
 * only repeat until then. Tables without the column keep their behaviour.
 */
export function admitInitialize(core: object, row: AnyRow | undefined, initialized: boolean): boolean {
  const state = states.get(core);
  if (row?.lifecycle !== "initialize") {
    if (initialized) columnState(core).otherRequestSeen = true;
    return true;
  }
  return !(row.repeatable === "until_first_request" && state?.otherRequestSeen === true);
}

/** Agent side: keeps the call of a `turnEnd` row open after its answer, as its session's running turn. */
export function openTurn(core: object, row: AnyRow | undefined, sessionId: string | undefined, call: { cancel(cause: CancelCause): void; abortForClose(): void }): void {
  if (row?.turnEnd === undefined || sessionId === undefined) return;
  columnState(core).turns.set(sessionId, { call, end: row.turnEnd });
}

/** Agent side, inbound `session/cancel`: aborts the session's running turn (its handler's `ctx.signal`). */
export function cancelTurn(core: object, sessionId: string, cause: CancelCause): void {
  const turns = states.get(core)?.turns;
  const turn = turns?.get(sessionId);
  if (turn === undefined) return;
  turns?.delete(sessionId);
  turn.call.cancel(cause);
}

/** Agent side, sending `wire`: when it is the notification that ends its session's running turn, forgets that turn. */
export function endTurn(core: object, wire: string, params: unknown): void {
  const turns = states.get(core)?.turns;
  if (turns === undefined || turns.size === 0) return;
  const sessionId = (params as { sessionId?: unknown } | null)?.sessionId;
  const turn = typeof sessionId === "string" ? turns.get(sessionId) : undefined;
  if (turn !== undefined && turn.end.notification === wire && matches(params, turn.end.match)) turns.delete(sessionId as string);
}

/** Close: aborts every running turn's signal. */
export function closeTurns(core: object): void {
  const turns = states.get(core)?.turns;
  if (turns === undefined) return;
  for (const turn of turns.values()) turn.call.abortForClose();
  turns.clear();
}

/** Per router, the rows with an `objectCapability` (the requests the client sends), computed once. */
const gatedRows = new WeakMap<Router, readonly AnyRow[]>();

function objectRows(router: Router): readonly AnyRow[] {
  let rows = gatedRows.get(router);
  if (rows === undefined) gatedRows.set(router, (rows = router.rows.agent.filter((r) => r.objectCapability !== undefined)));
  return rows;
}

/**
 * Client side, receiving a notification: records the capability each object
 * a `session/update` announces for every `objectCapability` row (omitted:
 * unchanged; `null` or a missing path: cleared — ACP v2 tool calls and
 * terminals). Tables without such rows pay one lookup.
 */
export function observeObjects(core: object, router: Router, params: unknown): void {
  const rows = objectRows(router);
  if (rows.length === 0) return;
  const update = (params as { update?: unknown } | null)?.update;
  if (typeof update !== "object" || update === null) return;
  const tag = (update as { sessionUpdate?: unknown }).sessionUpdate;
  for (const row of rows) {
    const gate = row.objectCapability;
    if (gate === undefined || gate.update !== tag) continue;
    const id = (update as Record<string, unknown>)[gate.id];
    if (typeof id !== "string") continue;
    const first = gate.path[0] as string;
    if (!Object.prototype.hasOwnProperty.call(update, first)) continue;
    let objects = columnState(core).objects.get(gate.update);
    if (objects === undefined) columnState(core).objects.set(gate.update, (objects = new Map()));
    objects.set(id, valueAt(update, gate.path));
  }
}

/** Client side, before sending a request whose row has `objectCapability`: undefined when allowed, else why not. */
export function objectRefusal(core: object, row: AnyRow | undefined, params: unknown): string | undefined {
  const gate = row?.objectCapability;
  if (gate === undefined) return undefined;
  const id = (params as Record<string, unknown> | null)?.[gate.id];
  const value = typeof id === "string" ? states.get(core)?.objects.get(gate.update)?.get(id) : undefined;
  if (value !== undefined && value !== null && value !== false) return undefined;
  return `${gate.id} ${JSON.stringify(id)} does not advertise ${gate.path.join(".")} in its latest ${gate.update}`;
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const key of path) {
    if (typeof at !== "object" || at === null || !Object.prototype.hasOwnProperty.call(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

function matches(params: unknown, match: Readonly<Record<string, string>>): boolean {
  for (const [path, expected] of Object.entries(match)) if (valueAt(params, path.split(".")) !== expected) return false;
  return true;
}
