/**
 * Why a handler's `ctx.signal` was aborted or an outbound call was cancelled,
 * so a handler can treat a user's cancel differently from a closing session
 * (a grace period for one, none for the other).
 */

/**
 * The cause of a cancellation:
 * - `cancel_request`: the peer sent `$/cancel_request` for this request (or, for an
 *   outbound call, the caller's own `signal` aborted and we sent it);
 * - `session_cancel`: `session/cancel` for the call's session;
 * - `session_close`: `session/close` for the call's session (its running work is cancelled first);
 * - `connection_closed`: the connection closed (either side, or the stream ended);
 * - `timeout`: an outbound call's `timeoutMs` (or `requestTimeoutMs`) elapsed;
 * - `unresponsive`: the watchdog gave up on an outbound call: the peer sent
 *   nothing for `silenceMs` while it was in flight (`ConnectionOptions.watchdog`).
 */
export type CancelCause = "cancel_request" | "session_cancel" | "session_close" | "connection_closed" | "timeout" | "unresponsive";

const messages: Readonly<Record<CancelCause, string>> = {
  cancel_request: "The request was cancelled ($/cancel_request)",
  session_cancel: "The session's turn was cancelled (session/cancel)",
  session_close: "The session was closed (session/close)",
  connection_closed: "The connection closed",
  timeout: "The request timed out",
  unresponsive: "The peer sent nothing for the watchdog's silenceMs",
};

/**
 * The `reason` of an aborted `ctx.signal`: an `AbortError` (so
 * `signal.throwIfAborted()` and `name === "AbortError"` checks keep working)
 * whose `cause` names why. One shared instance per cause.
 *
 *   ctx.signal.addEventListener("abort", () => {
 *     if ((ctx.signal.reason as CancelReason).cause === "session_cancel") finishGracefully();
 *   });
 */
export class CancelReason extends DOMException {
  /** Why the signal was aborted. */
  declare readonly cause: CancelCause;
  constructor(cause: CancelCause) {
    super(messages[cause], "AbortError");
    Object.defineProperty(this, "cause", { value: cause, enumerable: true });
  }
}

/** The shared reason of each cause (a signal's reason is read, never mutated). */
export const cancelReasons: Readonly<Record<CancelCause, CancelReason>> = {
  cancel_request: new CancelReason("cancel_request"),
  session_cancel: new CancelReason("session_cancel"),
  session_close: new CancelReason("session_close"),
  connection_closed: new CancelReason("connection_closed"),
  timeout: new CancelReason("timeout"),
  unresponsive: new CancelReason("unresponsive"),
};
