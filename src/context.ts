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
   * Aborted when the call is cancelled (`$/cancel_request`, or `session/cancel`
   * for that session's handlers) or the connection closes. Created on first
   * read, so handlers that never look at it cost nothing.
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
