/**
 * The answers to our requests: a response settles the pending call its id
 * names — its error as an {@link RpcError} (a `-32800` to a call we cancelled
 * names our cause), its result checked with the result marker chosen when the
 * request was sent — after that session's earlier notifications were handled
 * (`lanes.ts`). A response for an id we stopped waiting for is dropped
 * quietly; one for an id we never sent, with a diagnostic.
 */
import { ErrorCode, RequestCancelledError, RpcError } from "../errors.ts";
import { isRequestId } from "../jsonrpc/classify.ts";
import { check } from "../validation/check.ts";
import type { Outbound } from "./outbound.ts";
import type { PendingCall } from "./pending.ts";

/** Settles the pending call a response answers; unknown ids are dropped with a diagnostic. */
export function answerPending<P>(out: Outbound<P>, body: Record<string, unknown>): boolean {
  const call = out.pending.take(body.id);
  if (!call) {
    if (typeof body.id === "number" && out.abandoned.delete(body.id)) return false;
    out.core.report("unknown_response", `response for unknown request id ${JSON.stringify(body.id)} dropped`);
    return false;
  }
  out.inbound.responseSettled();
  const error = body.error;
  if (error !== undefined) {
    const e = error as { code?: unknown; message?: unknown; data?: unknown } | null;
    const rpc = e !== null && typeof e === "object" && Number.isInteger(e.code) && typeof e.message === "string" ? peerError(call, e.code as number, e.message, e.data) : RpcError.internal("Malformed error response from peer", { error });
    settle(out, call, false, rpc);
    return true;
  }
  const result = body.result;
  const row = call.row;
  if (row?.result !== undefined) {
    // Results keep unknown enum values (a newer peer's stopReason) in repair mode: forward compatibility.
    const outcome = check(row.result, result, row.resultType as string, out.core.protocol.leniency, out.leniency, "keep");
    if (outcome !== undefined) {
      if (!outcome.ok) {
        out.core.report("invalid_result", `invalid result for "${call.wire}"`, { errors: outcome.errors });
        settle(out, call, false, RpcError.invalidResult(call.wire, out.core.peerSide, outcome.errors));
        return true;
      }
      out.core.report("repaired", `repaired the result of "${call.wire}"`, { repairs: outcome.repairs });
    }
  }
  if (out.core.side === "client" && row?.lifecycle !== undefined) out.state.answered(row, result, call.sessionId, "client");
  settle(out, call, true, result);
  return true;
}

/**
 * A response-shaped body with both `result` and `error` (JSON-RPC 2.0 §5
 * allows exactly one): rejects the pending call its id names with an
 * error saying so, rather than leaving it waiting. Returns false when the
 * id names no call (the caller reports it as an unknown response).
 */
export function rejectInvalidResponse<P>(out: Outbound<P>, body: Record<string, unknown>): boolean {
  if (!isRequestId(body.id) || !Object.prototype.hasOwnProperty.call(body, "result") || body.error === undefined) return false;
  const call = out.pending.take(body.id);
  if (!call) return typeof body.id === "number" && out.abandoned.delete(body.id);
  out.inbound.responseSettled();
  const message = `Invalid response to "${call.wire}" from the ${out.core.peerSide}: it has both "result" and "error" (JSON-RPC 2.0 §5 allows exactly one)`;
  out.core.report("invalid_result", message, { id: call.id });
  settle(out, call, false, RpcError.internal(message, { result: body.result, error: body.error }));
  return true;
}

/**
 * Settles after that session's earlier notifications were handled, except
 * those the call may be awaited by (the rule is in `lanes.ts`).
 */
function settle<P>(out: Outbound<P>, call: PendingCall, ok: boolean, value: unknown): void {
  // No session, or no busy lane: nothing of the session is waiting, settle now (the pipeline says which).
  out.inbound.settleInLane(call.sessionId, call.sentDuring, ok ? () => call.resolve(value) : () => call.reject(value));
}

/** The peer's error answer; a `-32800` to a call we cancelled names our cause ({@link RequestCancelledError}). */
function peerError(call: PendingCall, code: number, message: string, data: unknown): RpcError {
  if (code === ErrorCode.RequestCancelled && call.cancelCause !== undefined) return new RequestCancelledError(call.cancelCause, message, data);
  return new RpcError(code, message, data);
}
