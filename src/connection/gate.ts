/**
 * The one capability gate (DESIGN §11, "Gate"): whether a message of a row
 * may travel, given what both sides advertised. The same pure function
 * serves inbound requests and notifications, outbound requests and
 * notifications, extension sends, and the tools (`inspect`, `check`,
 * `check --client`), so every refusal reads the same and names the field by
 * the protocol's own capability field names (v1 `agentCapabilities.…` /
 * `clientCapabilities.…`, v2 `capabilities.…`).
 *
 * What the caller does with a refusal is its own: an inbound request answers
 * `-32601` with the message as `data.reason`, an inbound notification is
 * dropped with a diagnostic, an outbound call rejects without sending, a tool
 * reports a violation.
 */
import type { Row } from "../row.ts";

type Side = "agent" | "client";

/** What the gate reads of a protocol: the `initialize` fields that carry each side's capabilities. */
export interface GateProtocol {
  /** `params`: the field of `initialize`'s params with the client's capabilities; `result`: of its result, with the agent's. */
  readonly capabilityFields: { readonly params: string; readonly result: string };
}

/** What the gate reads of the negotiated state (a connection's `StateView`, or a tool's own record of a session it watches). */
export interface GateState {
  readonly agentCapabilities: unknown;
  readonly clientCapabilities: unknown;
  /** The latest capability an object advertised (`objectCapability` rows); a state that does not track objects leaves it out, and those gates are then not judged. */
  objectCapability?(update: string, id: string): unknown;
}

/** The gate columns of a row: a table row, or an extension definition (`capability` only). */
export type GateRow = Pick<Row, "wire" | "capability"> & Partial<Pick<Row, "callerCapability" | "objectCapability">>;

/** Why a message may not travel. */
export interface Refusal {
  /** The capability that was missing, by the protocol's field names: `agentCapabilities.loadSession`, `capabilities.session.list`; for a per-object gate, the object's path. */
  readonly capability: string;
  /** One line: `agentCapabilities.loadSession was not advertised by the agent`. */
  readonly message: string;
}

/**
 * The one gate. `handler` is the direction: the side that handles the
 * message (inbound: this connection's own side; outbound: its peer). Checks,
 * in order: the row's `capability` in the handling side's capabilities, its
 * `callerCapability` in the calling side's, and (when `params` are given and
 * the state tracks objects) its `objectCapability` for the object `params`
 * name. Fails closed: a capability never advertised is missing.
 */
export function gate(protocol: GateProtocol, state: GateState, row: GateRow, handler: Side, params?: unknown): Refusal | undefined {
  if (row.capability !== undefined && !hasCapability(capabilitiesOf(state, handler), row.capability)) return missing(protocol, handler, row.capability);
  const caller: Side = handler === "agent" ? "client" : "agent";
  if (row.callerCapability !== undefined && !hasCapability(capabilitiesOf(state, caller), row.callerCapability)) return missing(protocol, caller, row.callerCapability);
  const object = row.objectCapability;
  if (object !== undefined && params !== undefined && state.objectCapability !== undefined) {
    const id = (params as Record<string, unknown> | null)?.[object.id];
    const value = typeof id === "string" ? state.objectCapability(object.update, id) : undefined;
    if (value === undefined || value === null || value === false) {
      return { capability: `${object.update}.${object.path.join(".")}`, message: `${object.id} ${JSON.stringify(id)} does not advertise ${object.path.join(".")} in its latest ${object.update}` };
    }
  }
  return undefined;
}

/** `capabilities.session.list` (v2) / `agentCapabilities.loadSession` (v1): a path in `side`'s capabilities, named by the protocol's fields. */
export function capabilityName(protocol: GateProtocol, side: Side, path: readonly string[]): string {
  return `${side === "agent" ? protocol.capabilityFields.result : protocol.capabilityFields.params}.${path.join(".")}`;
}

/**
 * True when the value at `path` was advertised: present and neither `false`
 * nor `null`. Fails closed: missing objects mean not advertised. Own
 * properties only, so `__proto__` paths find nothing.
 */
export function hasCapability(capabilities: unknown, path: readonly string[]): boolean {
  let value = capabilities;
  for (const key of path) {
    if (typeof value !== "object" || value === null || !Object.prototype.hasOwnProperty.call(value, key)) return false;
    value = (value as Record<string, unknown>)[key];
  }
  return value !== undefined && value !== null && value !== false;
}

function capabilitiesOf(state: GateState, side: Side): unknown {
  return side === "agent" ? state.agentCapabilities : state.clientCapabilities;
}

function missing(protocol: GateProtocol, side: Side, path: readonly string[]): Refusal {
  const capability = capabilityName(protocol, side, path);
  return { capability, message: `${capability} was not advertised by the ${side}` };
}
