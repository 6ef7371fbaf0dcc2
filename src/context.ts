/** The context every handler call receives. */

/** A JSON-RPC request id as acp-router accepts it: a string or a safe integer. */
export type RequestId = string | number;

/**
 * What a handler method receives besides its params: cancellation, ids, the
 * peer proxy and the negotiated capabilities, typed by the table (each
 * generated folder's `AgentContext` / `ClientContext` fills in its peer and
 * capability types).
 */
export interface HandlerContext<Peer, AgentCapabilities = unknown, ClientCapabilities = unknown> {
  /**
   * Aborted when the call is cancelled or the connection closes. Its `reason`
   * is a `CancelReason` (an `AbortError` `DOMException`) whose `cause` says
   * why: `"cancel_request"` (the peer's `$/cancel_request` for this request),
   * `"session_cancel"` (`session/cancel` for this session; on the client side,
   * this client sending it), `"session_close"` (`session/close`, or another
   * row flagged `cancelsSession`, for this session) or `"connection_closed"`.
   * The first cause wins. (`"timeout"` names only an outbound call's timeout:
   * acp-router never times out a handler.) Created on first read, so handlers
   * that never look at it cost nothing.
   */
  readonly signal: AbortSignal;
  /** The request's id (a string or a safe integer); undefined for notifications. */
  readonly requestId: string | number | undefined;
  /** `params.sessionId` when the params carry one. */
  readonly sessionId: string | undefined;
  /** Typed proxy for calling the other side. */
  readonly peer: Peer;
  /** The agent's capabilities as negotiated by `initialize` (undefined before). */
  readonly agentCapabilities: AgentCapabilities | undefined;
  /** The client's capabilities as negotiated by `initialize` (undefined before). */
  readonly clientCapabilities: ClientCapabilities | undefined;
}
