/** The context every handler call receives. */
import type { RequestOptions } from "./peer-caller.ts";
import type { TraceContext } from "./tracing/hook.ts";

/** A JSON-RPC request id as acp-router accepts it: a string or a safe integer. */
export type RequestId = string | number;

/**
 * What {@link ExtensionCaller.request} reads of a `defineExtension` request
 * definition (`ExtensionRequest`, which has this shape): its kind, wire and
 * phantom types. Written out here so this module imports no extension code.
 */
export interface ExtensionRequestShape {
  readonly kind: "request";
  readonly wire: `_${string}`;
  /** Type-level only: what the caller sends and what it receives. */
  readonly types?: { readonly paramsInput: unknown; readonly result: unknown };
}

/** What {@link ExtensionCaller.notify} reads of a `defineExtension` notification definition (`ExtensionNotification`). */
export interface ExtensionNotificationShape {
  readonly kind: "notification";
  readonly wire: `_${string}`;
  /** Type-level only: what the sender passes. */
  readonly types?: { readonly paramsInput: unknown };
}

/**
 * Sends extension methods (`_`-prefixed wires) to the other side of a
 * connection: what `conn.request` / `conn.notify` do for extensions, offered
 * to handlers as `ctx.request` / `ctx.notify` (the table's own methods go
 * through the typed `ctx.peer`).
 */
export interface ExtensionCaller {
  /**
   * Sends a request defined with `defineExtension` (an `ExtensionRequest`):
   * params typed by its params validator, the result validated by its result
   * validator (an invalid one rejects with `-32603` "Invalid result …").
   * Rejects without sending (`-32601`) when the extension has a `capability`
   * the peer did not advertise.
   */
  request<E extends ExtensionRequestShape>(extension: E, params: NonNullable<E["types"]>["paramsInput"], options?: RequestOptions): Promise<NonNullable<E["types"]>["result"]>;
  /** Sends an extension request (`_`-prefixed wire, passed unchanged); the result is not validated, so `R` is the caller's claim. */
  request<R = unknown>(wire: `_${string}`, params: object, options?: RequestOptions): Promise<R>;
  /** Sends a notification defined with `defineExtension` (an `ExtensionNotification`), params typed by its validator; gated as `request` is. */
  notify<E extends ExtensionNotificationShape>(extension: E, params: NonNullable<E["types"]>["paramsInput"]): Promise<void>;
  /** Sends an extension notification (`_`-prefixed wire, passed unchanged). */
  notify(wire: `_${string}`, params: object): Promise<void>;
}

/**
 * What a handler method receives besides its params: cancellation, ids, the
 * peer proxy, the extension caller and the negotiated capabilities, typed by
 * the table (each generated folder's `AgentContext` / `ClientContext` fills
 * in its peer and capability types). The same on every transport (stdio,
 * memory, Web streams, Streamable HTTP, WebSocket): each is one connection.
 *
 * ```ts
 * const ping = defineExtension({ wire: "_acme/ping", params: z.object({ n: z.number() }), result: z.object({ n: z.number() }) });
 * const agent: AgentHandler = {
 *   // …
 *   async prompt({ sessionId }, ctx) {
 *     await ctx.peer.sessionUpdate({ sessionId, update: … });   // a table method: the typed peer
 *     const { n } = await ctx.request(ping, { n: 1 });           // an extension: typed and validated
 *     await ctx.notify("_acme/seen", { n });                     // a raw `_` wire: untyped
 *     return { stopReason: "end_turn" };
 *   },
 * };
 * ```
 */
export interface HandlerContext<Peer, AgentCapabilities = unknown, ClientCapabilities = unknown> extends ExtensionCaller {
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
  /** Typed proxy for calling the other side's table methods. Extension methods: `request` / `notify` ({@link ExtensionCaller}). */
  readonly peer: Peer;
  /** The agent's capabilities as negotiated by `initialize` (undefined before). */
  readonly agentCapabilities: AgentCapabilities | undefined;
  /** The client's capabilities as negotiated by `initialize` (undefined before). */
  readonly clientCapabilities: ClientCapabilities | undefined;
  /**
   * The W3C trace context the message carried in `_meta` (`traceparent`,
   * `tracestate`, `baggage`), read when the connection has the `tracing`
   * option; undefined without it, or when the message carried none.
   */
  readonly traceContext: TraceContext | undefined;
}
