/**
 * The types a proxy is written with: its hooks (by handler method name, for
 * each direction), what a hook can do besides returning, and the proxy
 * `defineProxy` builds.
 */
import type { HandlerContext } from "../context.ts";
import type { AgentHandler, ClientHandler } from "./generated/handlers.ts";

/** What a hook can do besides returning: forward, and send more either way. */
export interface ProxyContext<P, R> {
  /** Passes `params` (these or rewritten) on, and resolves with the answer (undefined for a notification). */
  forward(params: P): Promise<R>;
  /** Sends a request to the successor (the agent side of the chain) through the conductor. */
  toAgent: ProxySender;
  /** Sends a request or notification to the predecessor (the client side). */
  toClient: ProxySender;
  /** Aborted when the call is cancelled (its `reason.cause` says how) or the connection closes. */
  readonly signal: AbortSignal;
  /** `params.sessionId` when the params carry one. */
  readonly sessionId: string | undefined;
}

/** Sends arbitrary methods one way along the chain. */
export interface ProxySender {
  /** Sends request `method`; resolves with its answer's result, rejects with its error. Aborting `signal` cancels it on this hop. */
  request(method: string, params?: unknown, options?: { signal?: AbortSignal }): Promise<unknown>;
  /** Sends notification `method`. */
  notify(method: string, params?: unknown): Promise<void>;
}

/** A hook in place of handler method `F`: its params, and a {@link ProxyContext} whose `forward` gives the answer `F` returns. */
export type ProxyHook<F> = F extends (params: infer P, ctx: never) => infer R ? (params: P, ctx: ProxyContext<P, Awaited<R>>) => R | Promise<Awaited<R>> : never;
/** Optional hooks for the methods of handler `H`, by name. */
export type ProxyHookSet<H> = { readonly [K in keyof H]?: ProxyHook<NonNullable<H[K]>> };

/** The hooks of a proxy: by handler method name, for each direction. */
export interface ProxyHooks {
  /** What the predecessor sends (client → agent direction), by the agent handler's method name. */
  readonly fromClient?: ProxyHookSet<Omit<AgentHandler, "initializeProxy" | "fromSuccessor" | "fromSuccessorNotification" | "extMethod" | "extNotification">>;
  /** What the successor sends (agent → client direction), by the client handler's method name. */
  readonly fromAgent?: ProxyHookSet<Omit<ClientHandler, "toSuccessor" | "toSuccessorNotification" | "extMethod" | "extNotification">>;
}

export type AnyHook = (params: unknown, ctx: ProxyContext<unknown, unknown>) => unknown;
/** The context the proxy table's connection hands a handler. */
export type Ctx = HandlerContext<unknown>;
/** What a proxy's handler sends through: its connection to the conductor, any wire (`connectProxy` attaches it). */
export interface ProxyOutbound {
  /** Sends request `wire` to the conductor. */
  request(wire: string, params: unknown, options?: { signal?: AbortSignal }): Promise<unknown>;
  /** Sends notification `wire` to the conductor. */
  notify(wire: string, params: unknown): Promise<void>;
}

/**
 * A proxy built by `defineProxy`: its handler, and where it sends. Serve it once: on its own
 * stream (`connectProxy`, `serveProxyStdio`), or hosted in a conductor's process (`conduct`'s
 * components, `acp-router conduct --proxy-module`), which serves a proxy of its own built from
 * {@link DefinedProxy.hooks}.
 */
export interface DefinedProxy {
  /** The hooks it was built from. */
  readonly hooks: ProxyHooks;
  /** The handler of the proxy table's agent side: serve it with the proxy table's `connectAgent`. */
  readonly handler: AgentHandler;
  /** Gives the handler the connection it sends through (before any message arrives). */
  attach(outbound: ProxyOutbound): void;
}
