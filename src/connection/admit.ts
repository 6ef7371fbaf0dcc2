/**
 * What a message meets before decode (DESIGN §4.4-4.8): a request's gates in
 * order (batch membership, envelope, duplicate id, initialization, the one
 * capability gate, authentication), a notification's (the connection-routed
 * rows, unknown methods, the capability gate).
 */
import type { RequestId } from "../context.ts";
import { wireError, type ErrorObject } from "../errors.ts";
import { checkEnvelope } from "../jsonrpc/envelope.ts";
import { sessionIdOf } from "../jsonrpc/session-id.ts";
import { isExtensionWire } from "../row.ts";
import { gate } from "./gate.ts";
import type { AnyRow, Body, Pipeline } from "./pipeline-state.ts";
import { report } from "./report.ts";

/**
 * The gates a request meets before decode, in DESIGN §4's order: batch
 * membership, envelope, duplicate id, initialization, the capability gate,
 * authentication. The error to answer, or undefined to go on. A request
 * with no row is an unregistered `_` method for `extMethod`, or unknown.
 */
export function refuseRequest<P>(inbound: Pipeline<P>, body: Body, wire: string, id: RequestId, row: AnyRow | undefined, inBatch: boolean): ErrorObject | undefined {
  if (inBatch && row?.unbatched) return wireError.unbatched(wire);
  const envelope = checkEnvelope(body);
  if (envelope !== undefined) return envelope;
  if (inbound.inFlight.has(id)) return wireError.duplicateId();
  const state = inbound.state;
  if (row?.lifecycle !== "initialize") {
    if (!state.initialized && inbound.initializeFirst) return wireError.notInitialized();
    if (inbound.hasRepeatable) state.requestSeen();
  } else if (!state.admitsInitialize(row)) return wireError.repeatedInitialize();
  if (row === undefined) {
    const handler = inbound.handler as { extMethod?: unknown };
    return (inbound.anyCustomMethod || isExtensionWire(wire)) && typeof handler.extMethod === "function" ? undefined : wireError.methodNotFound(wire);
  }
  const refusal = gate(inbound.host.protocol, state, row, inbound.host.side);
  if (refusal !== undefined) return wireError.methodNotFound(wire, refusal.message);
  if (row.auth && inbound.authRequired && !state.authenticated) return wireError.authRequired();
  return undefined;
}

/**
 * What a notification meets before decode: the connection-routed rows
 * (`$/cancel_request`, `session/cancel`: handled here, never decoded,
 * DESIGN §4.5), unknown methods (ignored; unregistered `_` ones go to
 * `extNotification`) and the capability gate (dropped with a diagnostic).
 * True when it goes on to decode and delivery.
 */
export function admitNotification<P>(inbound: Pipeline<P>, params: unknown, wire: string, row: AnyRow | undefined): boolean {
  if (row?.layer === "protocol") {
    inbound.cancelRequest((params as { requestId?: unknown } | null)?.requestId);
    return false;
  }
  if (row?.layer === "session_control") {
    const sessionId = sessionIdOf(params);
    if (sessionId === undefined) report(inbound, "invalid_notification", `dropped "${wire}" without a string sessionId`);
    else inbound.cancelSession(sessionId);
    return false;
  }
  if (row === undefined || row.invoke === undefined) {
    const handler = inbound.handler as { extNotification?: unknown };
    if (row === undefined && (inbound.anyCustomMethod || isExtensionWire(wire)) && typeof handler.extNotification === "function" && isObject(params)) return true;
    report(inbound, "unknown_notification", `ignored notification "${wire}"`);
    return false;
  }
  const refusal = gate(inbound.host.protocol, inbound.state, row, inbound.host.side);
  if (refusal === undefined) return true;
  report(inbound, "gated_notification", `dropped "${wire}": ${refusal.message}`);
  return false;
}

function isObject(value: unknown): value is Body {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
