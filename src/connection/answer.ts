/**
 * Answering requests, exactly once (DESIGN §4.11): a handler's result, its
 * failure (a cancelled call's row result, else `-32800`; anything thrown that
 * is not an `RpcError` as `-32603`), a refusal, the answer to a line that is
 * no usable message, and the answers a close or an outbound `session/cancel`
 * owes the calls still running. An answer goes to the transport, or into the
 * batch it belongs to.
 */
import type { RequestId } from "../context.ts";
import { ErrorCode, RpcError, type ErrorObject } from "../errors.ts";
import { encodeLine, encodeResult, errorMessage } from "../jsonrpc/messages.ts";
import type { UnusableAnswer } from "../jsonrpc/unusable.ts";
import { reportUnhandled } from "./advertised.ts";
import type { BatchSink, InboundCall } from "./call.ts";
import type { Pipeline } from "./pipeline-state.ts";
import { reportHandlerError } from "./report.ts";

export function succeed<P>(inbound: Pipeline<P>, call: InboundCall<P>, value: unknown): void {
  if (call.answered) return;
  const row = call.row;
  // After session/cancel the turn answers as cancelled (ACP prompt-turn: the agent MUST
  // respond with the cancelled stop reason), keeping the handler's other fields.
  if (call.sessionCancelled) value = withOnCancel(value, row?.onCancel);
  call.answered = true;
  inbound.inFlight.delete(call.requestId as RequestId);
  if (row !== undefined && inbound.host.side === "agent") {
    if (row.lifecycle !== undefined) {
      const advertised = inbound.state.answered(row, value, call.sessionId, "agent");
      if (advertised !== undefined) reportUnhandled(inbound.host, inbound.handler, "agent", advertised);
    }
    if (row.turnEnd !== undefined) inbound.state.turnOpened(row, call.sessionId, call);
  }
  let line: string;
  try {
    line = encodeResult(call.requestId as RequestId, value);
  } catch (error) {
    reportHandlerError(inbound, `the result of "${call.wire}" cannot be encoded as JSON`, error);
    line = encodeLine(errorMessage(call.requestId as RequestId, RpcError.internalError().toJSON()));
  }
  writeAnswer(inbound, line, call.batch);
}

export function fail<P>(inbound: Pipeline<P>, call: InboundCall<P>, error: unknown): void {
  if (call.answered) return;
  if (call.cancelled && (!(error instanceof RpcError) || error.code === ErrorCode.RequestCancelled)) {
    const onCancel = call.row?.onCancel;
    if (onCancel !== undefined) return succeed(inbound, call, onCancel);
    error = RpcError.requestCancelled();
  }
  call.answered = true;
  inbound.inFlight.delete(call.requestId as RequestId);
  if (!(error instanceof RpcError)) reportHandlerError(inbound, `handler of "${call.wire}" threw`, error);
  reject(inbound, call.requestId as RequestId, RpcError.from(error, inbound.exposeErrors).toJSON(), call.batch);
}

/** Answers a rejected message; `id` was chosen by the rejection-id rule (DESIGN §4.3). */
export function reject<P>(inbound: Pipeline<P>, id: RequestId | null, error: ErrorObject, batch: BatchSink | undefined): void {
  writeAnswer(inbound, encodeLine(errorMessage(id, error)), batch);
}

/** Answers a message that is not a usable one, as `jsonrpc/unusable.ts` says (undefined: never answered). */
export function rejectUnusable<P>(inbound: Pipeline<P>, answer: UnusableAnswer | undefined, batch: BatchSink | undefined): void {
  if (answer !== undefined) reject(inbound, answer.id, answer.error, batch);
}

/** Writes an answer line, or hands it to the batch it belongs to. */
export function writeAnswer<P>(inbound: Pipeline<P>, line: string, batch: BatchSink | undefined): void {
  if (inbound.isClosed) return;
  if (batch) batch.add(line.slice(0, -1));
  else inbound.host.send(line);
}

/** `value` with the row's `onCancel` fields laid over it (both objects), else `onCancel` itself when there is one. */
function withOnCancel(value: unknown, onCancel: unknown): unknown {
  if (onCancel === undefined || typeof onCancel !== "object" || onCancel === null) return value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return onCancel;
  return { ...value, ...onCancel };
}

/**
 * Outbound `session/cancel` (client side): every pending inbound call of
 * that session whose row has an `onCancel` result (permission requests) is
 * answered with it now, and its signal aborted.
 */
export function answerOwnSessionCancelled<P>(inbound: Pipeline<P>, sessionId: string): void {
  for (const call of [...inbound.inFlight.values()]) {
    if (call.sessionId !== sessionId || call.row?.onCancel === undefined) continue;
    call.cancel("session_cancel");
    succeed(inbound, call, call.row.onCancel);
  }
}

/**
 * A clean close (the peer ended its input, or this side closed): a request
 * still running is cancelled internally, and ACP asks the same answer as
 * for `$/cancel_request` (cancellation.mdx, "Internal Cancellation":
 * SHOULD): its row's `onCancel` result, else -32800. Written now, while
 * the connection can still write, before the pipeline closes.
 */
export function answerCancelledAtEnd<P>(inbound: Pipeline<P>): void {
  for (const call of [...inbound.inFlight.values()]) {
    call.cancel("connection_closed");
    fail(inbound, call, RpcError.requestCancelled());
  }
}
