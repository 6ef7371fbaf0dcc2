/**
 * A request or a notification past the first gates, one path for both: the
 * gates of its kind (`admit.ts`), decode with leniency, what the state learns
 * from it, then its call — a notification in its session's lane, a request
 * in flight (after its session's earlier notifications) and run
 * (`run-handler.ts`), answered once (`answer.ts`).
 */
import type { RequestId } from "../context.ts";
import { wireError } from "../errors.ts";
import { sessionIdOf } from "../jsonrpc/session-id.ts";
import { decodeParams } from "../validation/check.ts";
import { admitNotification, refuseRequest } from "./admit.ts";
import { reject } from "./answer.ts";
import { InboundCall, type BatchSink } from "./call.ts";
import type { AnyRow, Body, Pipeline } from "./pipeline-state.ts";
import { report } from "./report.ts";
import { begin, run, runNotification } from "./run-handler.ts";

/**
 * A request or a notification, one path for both: the row, the gates of its
 * kind, decode, what the state learns from it, then its call — answered
 * (requests) or delivered in its session's lane (notifications).
 */
export function processCall<P>(inbound: Pipeline<P>, body: Body, kind: "request" | "notification", row: AnyRow | undefined, batch: BatchSink | undefined): void {
  const wire = body.method as string;
  const request = kind === "request";
  const id = request ? (body.id as RequestId) : undefined;
  if (request) {
    batch?.expect();
    const refused = refuseRequest(inbound, body, wire, id as RequestId, row, batch !== undefined);
    if (refused !== undefined) return reject(inbound, id as RequestId, refused, batch);
  }
  const params = body.params ?? {};
  if (!request && !admitNotification(inbound, params, wire, row)) return;
  if (row !== undefined) {
    const outcome = decodeParams(inbound.host.protocol, row, params, inbound.leniency);
    if (outcome !== undefined) {
      if (!outcome.ok) {
        if (request) return reject(inbound, id as RequestId, wireError.invalidParams({ errors: outcome.errors }), batch);
        return report(inbound, "invalid_notification", `dropped "${wire}" with invalid params`, { errors: outcome.errors });
      }
      report(inbound, "repaired", `repaired the params of "${wire}"`, request ? { id, repairs: outcome.repairs } : { repairs: outcome.repairs });
    }
  }
  const sessionId = sessionIdOf(params);
  // What the state learns from params: the agent, the client capabilities `initialize` offers;
  // the client, per-object capabilities its updates announce (only tables with such rows).
  const state = inbound.state;
  if (row !== undefined && (request ? row.lifecycle === "initialize" : state.tracksObjects)) state.received(row, params);
  // A client's notification for a session it never opened is delivered anyway; said only to a listener.
  if (!request && inbound.diagnostic !== undefined && sessionId !== undefined && inbound.host.side === "client" && !state.knowsSession(sessionId)) {
    report(inbound, "unknown_session", `"${wire}" for session ${JSON.stringify(sessionId)}, which no session/new, load or resume introduced; delivered anyway`);
  }
  // A notification runs in its session's lane (those without a session share one): at once
  // when the lane is idle, else after the notifications queued before it.
  const lane = request ? undefined : (sessionId ?? "");
  const call = new InboundCall(inbound, wire, id, sessionId, row, batch, lane);
  if (lane !== undefined) {
    if (!inbound.lanes.runNow(lane, runNotification, inbound, call, params)) inbound.lanes.run(lane, () => runNotification(inbound, call, params));
    return;
  }
  if (row?.cancelsSession && sessionId !== undefined) inbound.cancelSession(sessionId, "session_close");
  if (inbound.inFlight.size >= inbound.maxInFlight) {
    call.answered = true;
    return reject(inbound, id as RequestId, wireError.tooManyInFlight(inbound.maxInFlight), batch);
  }
  // A request of a session starts only after that session's earlier notifications were handled
  // (DESIGN §7; the no-deadlock exception is in `lanes.ts`); while it waits it is in flight:
  // `$/cancel_request`, `session/cancel` and close reach it. No busy lane means nothing to wait
  // for: the common case allocates no closure.
  if (sessionId !== undefined && inbound.lanes.size > 0 && inbound.lanes.queueRequest(sessionId, () => begin(inbound, call, params))) {
    inbound.inFlight.set(id as RequestId, call);
    return;
  }
  run(inbound, call, params);
}
