/**
 * Running a handler: the one call into handlers (the row's `invoke`, or
 * `extMethod` / `extNotification` for an unregistered `_` method), through
 * the `tracing` hook when there is one; a notification in its session's lane
 * (finished when its handler settles); a request at once or when its lane
 * lets it start, answered by `answer.ts`.
 */
import type { RequestId } from "../context.ts";
import { dispatch } from "../decode.ts";
import { RpcError } from "../errors.ts";
import { traceContextOf, type Tracing } from "../tracing/hook.ts";
import { fail, succeed } from "./answer.ts";
import type { InboundCall } from "./call.ts";
import { isThenable } from "./lanes.ts";
import type { Pipeline } from "./pipeline-state.ts";
import { reportHandlerError } from "./report.ts";

export function runNotification<P>(inbound: Pipeline<P>, call: InboundCall<P>, params: unknown): unknown {
  if (inbound.isClosed) return undefined;
  const result = callHandler(inbound, call, params);
  if (result === THREW) return undefined;
  if (!isThenable(result)) {
    finishNotification(inbound, call);
    return undefined;
  }
  return result.then(
    () => finishNotification(inbound, call),
    (error: unknown) => {
      finishNotification(inbound, call);
      throw error;
    },
  );
}

function finishNotification<P>(inbound: Pipeline<P>, call: InboundCall<P>): void {
  call.answered = true;
  // Only a call whose handler read `ctx.signal` was added (looking up the others would hash each call).
  if (call.signalled) inbound.liveNotifications.delete(call);
}

/** Marks a handler that threw synchronously (its error already handled). */
const THREW: unique symbol = Symbol("threw");

/**
 * The one call into handlers: the row's `invoke`, or `extMethod` /
 * `extNotification` for an unregistered `_` method. A synchronous throw
 * fails a request, or is reported for a notification.
 */
function callHandler<P>(inbound: Pipeline<P>, call: InboundCall<P>, params: unknown): unknown {
  try {
    const tracing = inbound.tracing;
    if (tracing !== undefined) return traced(tracing, inbound, call, params);
    return dispatch(call.row, inbound.handler, call.wire, params, call);
  } catch (error) {
    if (call.requestId !== undefined) fail(inbound, call, error);
    else {
      finishNotification(inbound, call);
      reportHandlerError(inbound, "a notification handler threw", error);
    }
    return THREW;
  }
}

/** A handler call through the `tracing` hook, with the context the message carried. */
function traced<P>(tracing: Tracing, inbound: Pipeline<P>, call: InboundCall<P>, params: unknown): unknown {
  call.traceContext = traceContextOf(params);
  const kind = call.requestId === undefined ? "notification" : "request";
  return tracing.inbound({ method: call.wire, kind, side: inbound.host.side, sessionId: call.sessionId, requestId: call.requestId }, call.traceContext, () => dispatch(call.row, inbound.handler, call.wire, params, call));
}

/** Starts a request that waited in its session's lane, unless it was answered or cancelled meanwhile. */
export function begin<P>(inbound: Pipeline<P>, call: InboundCall<P>, params: unknown): void {
  if (call.answered) return;
  if (call.cancelled) return fail(inbound, call, RpcError.requestCancelled());
  run(inbound, call, params);
}

export function run<P>(inbound: Pipeline<P>, call: InboundCall<P>, params: unknown): void {
  const result = callHandler(inbound, call, params);
  if (result === THREW) return;
  if (isThenable(result)) {
    inbound.inFlight.set(call.requestId as RequestId, call);
    // The peer waited on this answer: a watchdog counts its silence again from now.
    result.then(
      (value) => {
        succeed(inbound, call, value);
        inbound.host.watchdog?.answered();
      },
      (error: unknown) => {
        fail(inbound, call, error);
        inbound.host.watchdog?.answered();
      },
    );
  } else succeed(inbound, call, result);
}
