/**
 * What one connection has negotiated (DESIGN §11, "State"): initialized,
 * authenticated, the protocol version, both sides' capabilities, the sessions
 * a client learned, the agent's running turns, the client's per-object
 * capabilities, and whether a repeatable `initialize` may still come.
 *
 * One module owns it and is its only writer: every field is private and
 * changes only through the methods below, each named after the fact the
 * pipeline step that learned it reports (`initializeOffered`,
 * `answered`, `updateSeen`, …). Everything else reads it through
 * {@link StateView}. `test/connection/structure.test.ts` fails when another
 * file assigns to these facts or keeps them beside the connection.
 */
import type { Row } from "../row.ts";
import type { CancelCause } from "./cancel-cause.ts";
import { sessionIdOf } from "../jsonrpc/session-id.ts";

/** Advertised capabilities as the connection holds them: the object `initialize` carried. */
export type Capabilities = Readonly<Record<string, unknown>>;

type AnyRow = Row<unknown, unknown> | Row<never, never>;

/** The read side of the negotiated state: what gates, handlers and tools may look at. */
export interface StateView {
  /** `initialize` completed (agent: answered with success; client: its result arrived). */
  readonly initialized: boolean;
  /** `authenticate` succeeded and no `logout` followed. */
  readonly authenticated: boolean;
  /** The `protocolVersion` the `initialize` answer named; undefined before. */
  readonly protocolVersion: number | undefined;
  /** The agent's capabilities, once the agent advertised them. */
  readonly agentCapabilities: Capabilities | undefined;
  /** The client's capabilities, once the client advertised them. */
  readonly clientCapabilities: Capabilities | undefined;
  /** Client side: whether session/new, load or resume introduced `sessionId`. */
  knowsSession(sessionId: string): boolean;
  /** Client side: the latest capability value the `update` kind advertised for object `id` (`objectCapability` rows); undefined when none. */
  objectCapability(update: string, id: string): unknown;
}

/** The call a running turn keeps: its handler's signal stays live until the turn ends. */
export interface TurnCall {
  cancel(cause: CancelCause): void;
  abortForClose(): void;
}

/** A turn that outlives its answer (`turnEnd` rows): the call whose signal it keeps live, and how it ends. */
interface Turn {
  readonly call: TurnCall;
  readonly end: NonNullable<Row["turnEnd"]>;
}

/** The one owner and writer of a connection's negotiated state. */
export class ConnectionState implements StateView {
  private isInitialized = false;
  private isAuthenticated = false;
  private version: number | undefined;
  private agentCaps: Capabilities | undefined;
  private clientCaps: Capabilities | undefined;
  /** Agent side: the client capabilities of the `initialize` being answered, adopted once it succeeds. */
  private offeredClientCaps: Capabilities | undefined;
  /** A request other than `initialize` arrived after it: a `repeatable` initialize may not come again. */
  private otherRequestSeen = false;
  /** Client side: sessions introduced by session/new, load or resume. */
  private readonly sessions = new Set<string>();
  /** Agent side: the running turn of each session whose request row has `turnEnd`. */
  private readonly turns = new Map<string, Turn>();
  /** Client side: per `objectCapability` update kind, object id → its latest advertised capability value. */
  private readonly objects = new Map<string, Map<string, unknown>>();
  /** The rows whose sends are gated per object (`objectCapability`), from the connection's table. */
  private readonly objectRows: readonly AnyRow[];

  constructor(objectRows: readonly AnyRow[]) {
    this.objectRows = objectRows;
  }

  // ── reading (StateView) ────────────────────────────────────────────

  get initialized(): boolean {
    return this.isInitialized;
  }

  get authenticated(): boolean {
    return this.isAuthenticated;
  }

  get protocolVersion(): number | undefined {
    return this.version;
  }

  get agentCapabilities(): Capabilities | undefined {
    return this.agentCaps;
  }

  get clientCapabilities(): Capabilities | undefined {
    return this.clientCaps;
  }

  knowsSession(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  /** Client side, a table with `objectCapability` rows: notifications' params teach per-object capabilities (see `received`). */
  get tracksObjects(): boolean {
    return this.objectRows.length > 0;
  }

  objectCapability(update: string, id: string): unknown {
    return this.objects.get(update)?.get(id);
  }

  /** Whether a `repeatable` initialize row may still be answered (it may repeat until the first other request). */
  admitsInitialize(row: AnyRow): boolean {
    return !(row.repeatable === "until_first_request" && this.otherRequestSeen);
  }

  // ── the facts the pipeline learns (the only writes) ──────────────────

  /** Agent side: an inbound request other than `initialize` passed the initialization gate. */
  requestSeen(): void {
    if (this.isInitialized) this.otherRequestSeen = true;
  }

  /**
   * A request or notification of `row` was decoded with `params`. An agent's
   * `initialize`: its client capabilities count once it is answered with
   * success. A client's notification: the per-object capabilities an update
   * announces are recorded (`objectCapability` rows).
   */
  received(row: AnyRow, params: unknown): void {
    if (row.lifecycle === "initialize") this.offeredClientCaps = capabilitiesIn(row, "params", params);
    else this.updateSeen(params);
  }

  /** Client side: this client sends `initialize` with these params (its capabilities are what it advertised). */
  initializeSent(row: AnyRow, params: unknown): Capabilities {
    return (this.clientCaps = capabilitiesIn(row, "params", params));
  }

  /**
   * A request of `row` was answered with success (agent side: our answer;
   * client side: the agent's result): records what its `lifecycle` changes.
   * `sessionId` is the request's own. Returns the agent's capabilities when
   * this answer completed `initialize` (for the caller's advertised ⇒ handled check).
   */
  answered(row: AnyRow, result: unknown, sessionId: string | undefined, side: "agent" | "client"): Capabilities | undefined {
    switch (row.lifecycle) {
      case "initialize": {
        this.isInitialized = true;
        const version = (result as { protocolVersion?: unknown } | null)?.protocolVersion;
        this.version = typeof version === "number" ? version : undefined;
        this.agentCaps = capabilitiesIn(row, "result", result);
        if (side === "agent") this.clientCaps = this.offeredClientCaps ?? {};
        return this.agentCaps;
      }
      case "authenticate":
        this.isAuthenticated = true;
        return undefined;
      case "logout":
        this.isAuthenticated = false;
        return undefined;
      case "opens_session":
      case "closes_session": {
        if (side !== "client") return undefined;
        const id = sessionIdOf(result) ?? sessionId;
        if (id === undefined) return undefined;
        if (row.lifecycle === "opens_session") this.sessions.add(id);
        else this.sessions.delete(id);
        return undefined;
      }
      default:
        return undefined;
    }
  }

  /** Agent side: the call of a `turnEnd` row was answered; it stays its session's running turn until the turn-ending notification. */
  turnOpened(row: AnyRow, sessionId: string | undefined, call: TurnCall): void {
    if (row.turnEnd === undefined || sessionId === undefined) return;
    this.turns.set(sessionId, { call, end: row.turnEnd });
  }

  /** Agent side, inbound `session/cancel`: aborts the session's running turn (its handler's `ctx.signal`). */
  turnCancelled(sessionId: string, cause: CancelCause): void {
    const turn = this.turns.get(sessionId);
    if (turn === undefined) return;
    this.turns.delete(sessionId);
    turn.call.cancel(cause);
  }

  /** Agent side, sending notification `wire`: when it ends its session's running turn, that turn is over. */
  notificationSent(wire: string, params: unknown): void {
    if (this.turns.size === 0) return;
    const sessionId = sessionIdOf(params);
    const turn = sessionId !== undefined ? this.turns.get(sessionId) : undefined;
    if (turn !== undefined && turn.end.notification === wire && matches(params, turn.end.match)) this.turns.delete(sessionId as string);
  }

  /**
   * Client side, receiving a notification: records the capability each object
   * a `session/update` announces for every `objectCapability` row (omitted:
   * unchanged; `null` or a missing path: cleared — ACP v2 tool calls and
   * terminals). Tables without such rows pay one length check.
   */
  private updateSeen(params: unknown): void {
    if (this.objectRows.length === 0) return;
    const update = (params as { update?: unknown } | null)?.update;
    if (typeof update !== "object" || update === null) return;
    const tag = (update as { sessionUpdate?: unknown }).sessionUpdate;
    for (const row of this.objectRows) {
      const gate = row.objectCapability;
      if (gate === undefined || gate.update !== tag) continue;
      const id = (update as Record<string, unknown>)[gate.id];
      if (typeof id !== "string") continue;
      const first = gate.path[0] as string;
      if (!Object.prototype.hasOwnProperty.call(update, first)) continue;
      let objects = this.objects.get(gate.update);
      if (objects === undefined) this.objects.set(gate.update, (objects = new Map()));
      objects.set(id, valueAt(update, gate.path));
    }
  }

  /** Close: aborts every running turn's signal and forgets them. */
  closed(): void {
    for (const turn of this.turns.values()) turn.call.abortForClose();
    this.turns.clear();
  }
}

/** The capabilities an `initialize` row's params (`which: "params"`) or result carry; `{}` when absent. */
export function capabilitiesIn(row: AnyRow | undefined, which: "params" | "result", value: unknown): Capabilities {
  const field = row?.capabilityFields?.[which] ?? (which === "params" ? "clientCapabilities" : "agentCapabilities");
  const caps = typeof value === "object" && value !== null ? (value as Record<string, unknown>)[field] : undefined;
  return typeof caps === "object" && caps !== null ? (caps as Capabilities) : {};
}

/** The value at `path` (own properties only), or undefined. */
export function valueAt(value: unknown, path: readonly string[]): unknown {
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
