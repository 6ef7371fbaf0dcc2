/**
 * What SDK handlers call the peer through: `AgentContext` (an agent's way to
 * the client), `ClientContext` (a client's way to the agent) and the
 * `TerminalHandle` an agent's `createTerminal` gives. Each wraps the core's
 * sender for one connection, so every call meets the core's outbound gate,
 * result validation, cancellation and ordering.
 */
import { requestOptions, type Sender } from "./sender.ts";
import { RequestError } from "./request-error.ts";
import type { SendRequestOptions, JsonRpcId } from "./wire-types.ts";
import { SessionBuilder } from "./sessions.ts";
import type { SessionRoutes } from "./session-routes.ts";
import type { ProtocolTypes } from "acp-router/runtime";
import type { InitializationSnapshot, V2Initialization } from "./v2-initialization.ts";
import { sdkSender, type SideHooks } from "./connection-hooks.ts";

/** The params type of a method-map entry (`{ params; result }`), or of a notification map's value. */
export type ParamsOf<E> = E extends { params: infer P } ? P : E;
/** The result type of a method-map entry. */
export type ResultOf<E> = E extends { result: infer R } ? R : never;
/** The wire names of a method map. */
export type WireOf<M> = keyof M & string;
/** `Method`, unless it names a method of `Known`: the untyped overloads take only other (extension) methods, so a table method's wrong params never fall through to them. */
export type OtherMethod<Method extends string, Known> = Method extends WireOf<Known> ? never : Method;

export type { Sender };

/** Each connection's `closed` promise, by connection object (set when the app wraps the connection). */
const closedOf = new WeakMap<object, Promise<unknown>>();

/**
 * The symbol an ACP context answers its connection through: what the SDK's
 * `HasConnectionContext` requires, so only real contexts are accepted.
 */
export const connectionContextOf: unique symbol = Symbol("acp.connectionContextOf");

/** An `AgentContext` or `ClientContext`: the MCP-over-ACP provider and caller find the connection behind it. */
export interface HasConnectionContext {
  /** @hidden */
  [connectionContextOf](): object;
}

/** The connection object behind `context` (stable for the connection's lifetime: its hooks, `SideHooks`). */
export function connectionOfContext(context: HasConnectionContext): object {
  const connection = PeerContext.connectionOf(context);
  if (connection === undefined) throw new TypeError("expected an AgentContext or ClientContext of a connection");
  return connection;
}

/** Records that `connection` settles with `closed`. @internal */
export function setConnectionClosed(context: object, closed: Promise<unknown>): void {
  const connection = PeerContext.connectionOf(context);
  if (connection !== undefined) closedOf.set(connection, closed);
}

/** Settles when the connection behind `connection` closed (never, when unknown). */
export function connectionClosed(connection: object): Promise<unknown> {
  return closedOf.get(connection) ?? new Promise(() => {});
}

/** The sender behind a context, as SDK code sees it (sdkSender: the SDK's error for a closed connection, paced notifications), for the session helpers and the terminal handle. */
export function contextSender(context: object): Sender {
  const sender = PeerContext.senderOf(context);
  if (sender === undefined) throw new TypeError("not a context created by a connection");
  return sender;
}

/** The v2 initialization lifecycle of a context's connection (v2 connections only). */
function lifecycleOf(context: object): V2Initialization | undefined {
  return (PeerContext.connectionOf(context) as SideHooks | undefined)?.initialization;
}

/**
 * Calls and notifications to the peer, with the id of the inbound request being handled, if any.
 * On a v2 connection they wait for the `initialize` exchange (refused `-32600` when none is on its
 * way), as the SDK's v2 contexts do.
 */
abstract class PeerContext {
  readonly #requestId: JsonRpcId | undefined;
  /** The core's sender (a connection, or a handler's `ctx`). */
  readonly #sender: Sender;
  /** The connection's hooks: one object per connection, shared by all its contexts (the MCP helpers key their state by it). */
  readonly #connection: object;
  /** `#sender` as SDK code sees it, made on first use. */
  #sdk: Sender | undefined;
  protected constructor(sender: Sender, requestId: JsonRpcId | undefined, connection: object) {
    this.#sender = sender;
    this.#connection = connection;
    this.#requestId = requestId;
  }
  /** The connection behind `value`, when it is a context. @internal */
  static connectionOf(value: object): object | undefined {
    return typeof value === "object" && value !== null && #connection in value ? value.#connection : undefined;
  }
  /** The sender behind `value` as SDK code sees it, when it is a context. @internal */
  static senderOf(value: object): Sender | undefined {
    if (typeof value !== "object" || value === null || !(#sender in value)) return undefined;
    return (value.#sdk ??= sdkSender(value.#sender, value.#connection as SideHooks));
  }
  /** @hidden The connection behind this context. */
  [connectionContextOf](): object {
    return connectionOfContext(this);
  }
  /** The id of the request whose handler got this context; undefined on a connection's own context. */
  get requestId(): JsonRpcId | undefined {
    return this.#requestId;
  }
  /** The v2 `initialize` exchange, once the connection is initialized (v2 connections only). */
  get initialized(): Promise<InitializationSnapshot> | undefined {
    return lifecycleOf(this)?.initialized;
  }
  /** Sends a request to the peer and resolves with its result (the SDK's untyped form; the typed overloads are in the entry's `.d.ts`). */
  request(method: string, params?: unknown, options?: SendRequestOptions): Promise<unknown> {
    const lifecycle = (this.#connection as SideHooks).initialization;
    if (lifecycle === undefined) return contextSender(this).request(method, params ?? {}, requestOptions(options));
    return lifecycle.waitUntilInitialized(method).then(() => contextSender(this).request(method, params ?? {}, requestOptions(options)));
  }
  /** Sends a notification to the peer. */
  notify(method: string, params?: unknown): Promise<void> {
    const hooks = this.#connection as SideHooks;
    // The hot path (an agent's session updates): the core's sender itself when nothing paces it.
    if (hooks.initialization === undefined) return hooks.pace === undefined ? this.#sender.notify(method, params ?? {}) : contextSender(this).notify(method, params ?? {});
    return hooks.initialization.waitUntilInitialized(method).then(() => contextSender(this).notify(method, params ?? {}));
  }
}

/** An agent's handle on the client: requests, notifications and terminals, typed by the table `T`. */
export class AgentContext<T extends ProtocolTypes = ProtocolTypes> extends PeerContext {
  /** @internal Built by the connection. */
  static create<T extends ProtocolTypes>(sender: Sender, requestId: JsonRpcId | undefined, connection: object): AgentContext<T> {
    return new AgentContext<T>(sender, requestId, connection);
  }
  /** Sends a request the client handles; resolves with its result. */
  override request<W extends WireOf<T["clientMethods"]>>(method: W, params: ParamsOf<T["clientMethods"][W]>, options?: SendRequestOptions): Promise<ResultOf<T["clientMethods"][W]>>;
  /** Sends any other request (an extension); the result type is the caller's claim. */
  override request<Response = unknown, Params = unknown, Method extends string = string>(method: OtherMethod<Method, T["clientMethods"]>, params?: Params, options?: SendRequestOptions): Promise<Response>;
  override request(method: string, params?: unknown, options?: SendRequestOptions): Promise<unknown> {
    return super.request(method, params, options);
  }
  /** Sends a notification the client handles. */
  override notify<W extends WireOf<T["clientNotifications"]>>(method: W, params: ParamsOf<T["clientNotifications"][W]>): Promise<void>;
  /** Sends any other notification (an extension). */
  override notify<Params = unknown, Method extends string = string>(method: OtherMethod<Method, T["clientNotifications"]>, params?: Params): Promise<void>;
  override notify(method: string, params?: unknown): Promise<void> {
    return super.notify(method, params);
  }
  /** `terminal/create`, then a handle on the new terminal. */
  async createTerminal(params: { sessionId: string; command: string; [key: string]: unknown }, options?: SendRequestOptions): Promise<TerminalHandle> {
    const sender = contextSender(this);
    const { terminalId } = (await sender.request("terminal/create", params, requestOptions(options))) as { terminalId: string };
    return TerminalHandle.create(sender, params.sessionId, terminalId);
  }
}

/** A client's handle on the agent: requests, notifications and the session helpers, typed by the table `T`. */
export class ClientContext<T extends ProtocolTypes = ProtocolTypes> extends PeerContext {
  readonly #routes: SessionRoutes;
  private constructor(sender: Sender, requestId: JsonRpcId | undefined, routes: SessionRoutes, connection: object) {
    super(sender, requestId, connection);
    this.#routes = routes;
  }
  /** @internal Built by the connection. */
  static create<T extends ProtocolTypes>(sender: Sender, requestId: JsonRpcId | undefined, routes: SessionRoutes, connection: object): ClientContext<T> {
    return new ClientContext<T>(sender, requestId, routes, connection);
  }
  /** Sends a request the agent handles; resolves with its result. */
  override request<W extends WireOf<T["agentMethods"]>>(method: W, params: ParamsOf<T["agentMethods"][W]>, options?: SendRequestOptions): Promise<ResultOf<T["agentMethods"][W]>>;
  /** Sends any other request (an extension); the result type is the caller's claim. */
  override request<Response = unknown, Params = unknown, Method extends string = string>(method: OtherMethod<Method, T["agentMethods"]>, params?: Params, options?: SendRequestOptions): Promise<Response>;
  override request(method: string, params?: unknown, options?: SendRequestOptions): Promise<unknown> {
    const lifecycle = lifecycleOf(this);
    if (lifecycle !== undefined && method === "initialize") return this.#initialize(lifecycle, params, options);
    lifecycle?.noteRequest();
    const answer = super.request(method, params, options);
    // Closing or deleting a session the agent does not know leaves the same end state: ACP
    // recommends treating its -32002 as success, and the SDK resolves such a call with {}.
    if (method !== "session/close" && method !== "session/delete") return answer;
    return answer.catch((error: unknown) => {
      if ((error as { code?: unknown } | null)?.code === -32002) return {};
      throw error;
    });
  }
  /** Sends a notification the agent handles. */
  override notify<W extends WireOf<T["agentNotifications"]>>(method: W, params: ParamsOf<T["agentNotifications"][W]>): Promise<void>;
  /** Sends any other notification (an extension). */
  override notify<Params = unknown, Method extends string = string>(method: OtherMethod<Method, T["agentNotifications"]>, params?: Params): Promise<void>;
  override notify(method: string, params?: unknown): Promise<void> {
    return super.notify(method, params);
  }
  /**
   * The client's side of the v2 `initialize` exchange: the params are copied now (`protocolVersion`
   * set to 2; params that cannot be copied, or an exchange already on its way, throw at once), the
   * answer recorded. An error answer leaves the connection uninitialized (send `initialize` again);
   * an answer that cannot be used (another version) fails initialization and closes the connection.
   */
  #initialize(lifecycle: V2Initialization, params: unknown, options: SendRequestOptions | undefined): Promise<unknown> {
    const outgoing = { ...(typeof params === "object" && params !== null && !Array.isArray(params) ? params : {}), protocolVersion: 2 };
    lifecycle.begin(outgoing);
    const wire = structuredClone(outgoing);
    return contextSender(this)
      .request("initialize", wire, requestOptions(options))
      .then(
        (response) => {
          const version = (response as { protocolVersion?: unknown } | null)?.protocolVersion;
          if (version !== 2) {
            const error = RequestError.invalidRequest({ expectedProtocolVersion: 2, receivedProtocolVersion: version }, "The v2 API only supports protocol version 2");
            lifecycle.fail(error);
            (PeerContext.connectionOf(this) as SideHooks | undefined)?.close?.(error);
            throw error;
          }
          lifecycle.complete(response);
          return response;
        },
        (error: unknown) => {
          lifecycle.failAttempt();
          throw error;
        },
      );
  }
  /** A `session/new` builder for `cwd` (or for a whole request); its `start()` gives an `ActiveSession`. */
  buildSession(cwdOrRequest: string | { cwd: string; [key: string]: unknown }): SessionBuilder {
    return SessionBuilder.create(contextSender(this), this.#routes, cwdOrRequest, (PeerContext.connectionOf(this) as SideHooks | undefined)?.signal);
  }
}

// Node 20 has Symbol.asyncDispose; the registered symbol is TypeScript's fallback elsewhere.
const asyncDispose: typeof Symbol.asyncDispose = Symbol.asyncDispose ?? (Symbol.for("Symbol.asyncDispose") as typeof Symbol.asyncDispose);

/** A terminal on the client: each method sends one `terminal/*` request for it. */
export class TerminalHandle {
  /** The client's `terminalId`. */
  id: string;
  readonly #sessionId: string;
  readonly #sender: Sender;
  private constructor(sender: Sender, sessionId: string, id: string) {
    this.#sender = sender;
    this.#sessionId = sessionId;
    this.id = id;
  }
  /** @internal */
  static create(sender: Sender, sessionId: string, id: string): TerminalHandle {
    return new TerminalHandle(sender, sessionId, id);
  }
  #call(wire: string): Promise<never> {
    return this.#sender.request(wire, { sessionId: this.#sessionId, terminalId: this.id }) as Promise<never>;
  }
  /** `terminal/output`. */
  currentOutput(): Promise<{ output: string; truncated: boolean; exitStatus?: unknown }> {
    return this.#call("terminal/output");
  }
  /** `terminal/wait_for_exit`. */
  waitForExit(): Promise<{ exitCode?: number | null; signal?: string | null }> {
    return this.#call("terminal/wait_for_exit");
  }
  /** `terminal/kill`. */
  kill(): Promise<Record<string, unknown>> {
    return this.#call("terminal/kill");
  }
  /** `terminal/release`. */
  release(): Promise<Record<string, unknown>> {
    return this.#call("terminal/release");
  }
  /** Releases the terminal (`await using`). */
  async [asyncDispose](): Promise<void> {
    await this.release();
  }
}
