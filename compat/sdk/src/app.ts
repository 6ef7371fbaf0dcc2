/**
 * The SDK's builder apps (`agent()` / `client()`: `onRequest`,
 * `onNotification`, `onConnect`, `connect`, `connectWith`) over acp-router's
 * core, for any table. An app is a list of handlers by wire; connecting it
 * turns that list into the one handler object the core takes (a method per
 * table row, `extMethod` / `extNotification` for `_` wires), so every inbound
 * message goes through the core's pipeline (classification, envelope,
 * initialization, capability and auth gates, decode, ordering, cancellation)
 * before an SDK handler sees it.
 */
import type { Protocol } from "acp-router/runtime";
import { createAgentConnection, createClientConnection } from "acp-router/runtime";
import { memoryPair } from "acp-router";
import type { Transport } from "acp-router";
import type { HandlerContext } from "acp-router";
import type { ConnectionOptions } from "acp-router";
import { streamTransport, type Stream } from "./message-stream.ts";
import type { Sender } from "./sender.ts";
import { setConnectionClosed } from "./contexts.ts";
import { runHandler, type Registered } from "./run-handler.ts";
import { V2Initialization } from "./v2-initialization.ts";
import { closedErrorOf, type AppConnection, type DeferrableConnection, type SideHooks } from "./connection-hooks.ts";

export type { AppConnection, DeferrableConnection, SideHooks } from "./connection-hooks.ts";
import { ctxSender, logAsSdk, refuseOlderVersion, sessionCancelOnce } from "./sdk-behaviour.ts";
import type { AppOptions, MaybePromise, ParamsParser } from "./wire-types.ts";

/** Which side an app serves, and the names the SDK gives its peer context. */
type Side = "agent" | "client";
const peerKey = { agent: "client", client: "agent" } as const;

/**
 * The core's options that make a connection behave as the SDK's apps do: custom methods by any
 * name (the SDK accepts `onRequest("foo/bar", parser, handler)`; the core's default takes only `_`
 * names), and the SDK's log line for a dropped notification. The initialization gate is set per
 * app (`App.options`).
 */
const SDK_OPTIONS: ConnectionOptions = { customMethods: "any", onDiagnostic: logAsSdk };

/** Options of `connect(stream, options)`: `deferConnectHandlers` leaves the connect handlers to `startConnectHandlers` (a server runs them once `initialize` was answered). */
export interface ConnectOptions {
  readonly deferConnectHandlers?: boolean;
}

/** Shared by `AgentApp` and `ClientApp`: the registry and the connect logic, for one protocol. */
export abstract class App<Context extends object> {
  readonly #requests = new Map<string, Registered>();
  readonly #notifications = new Map<string, Registered>();
  readonly #connectHandlers: ((connection: never) => MaybePromise<void>)[] = [];
  readonly #side: Side;
  readonly #protocol: Protocol;
  /** The app's name (`agent({ name })`), for messages. */
  readonly name: string | undefined;

  protected constructor(side: Side, protocol: Protocol, options: AppOptions = {}) {
    this.#side = side;
    this.#protocol = protocol;
    this.name = options.name;
  }

  /** The protocol this app's connections speak (for the version router). @internal */
  get protocol(): Protocol {
    return this.#protocol;
  }

  /** Handles requests for `method` (`"*"`: every request nothing else handles); a custom method takes a params parser first. */
  protected addRequest(method: string, parserOrHandler: unknown, handler?: unknown): this {
    this.#register(this.#requests, "onRequest", method, parserOrHandler, handler);
    return this;
  }

  /** Handles notifications for `method`, as `addRequest` does requests. */
  protected addNotification(method: string, parserOrHandler: unknown, handler?: unknown): this {
    this.#register(this.#notifications, "onNotification", method, parserOrHandler, handler);
    return this;
  }

  /** Runs `handler` with each new connection before the connection reads its first message. */
  protected addConnectHandler(handler: (connection: never) => MaybePromise<void>): this {
    this.#connectHandlers.push(handler);
    return this;
  }

  #register(map: Map<string, Registered>, name: string, method: string, parserOrHandler: unknown, handler: unknown): void {
    if (typeof method !== "string") throw new TypeError(`${name}(method, handler): method must be a string; got ${typeof method}.`);
    const run = handler === undefined ? parserOrHandler : handler;
    if (typeof run !== "function") throw new TypeError(`${name}("${method}", …): the handler must be a function; got ${typeof run}.`);
    const parser = handler === undefined ? undefined : (parserOrHandler as ParamsParser<unknown>);
    const parse = parser === undefined ? undefined : typeof parser === "function" ? parser : parser.parse.bind(parser);
    map.set(method, { parse, handler: run as Registered["handler"] });
  }

  /**
   * The handler object the core takes: one method per row this side handles
   * (an unregistered row answers `-32601`, as the SDK does), plus the
   * extension fallbacks. `sender` is resolved lazily, so a router can open
   * the connection before the app sees it.
   */
  handlerFor(sender: () => Sender, hooks: SideHooks): object {
    const side = this.#side;
    const makeContext = (requestId: string | number | undefined, ctx: HandlerContext<unknown>) => this.context(ctxSender(ctx), requestId, hooks);
    const handler: Record<string, unknown> = {};
    const cancel = side === "agent" ? this.#notifications.get("session/cancel") : undefined;
    const cancelled = cancel === undefined ? undefined : sessionCancelOnce(cancel, (ctx) => makeContext(undefined, ctx));
    let first = hooks.beforeFirstCall;
    const dispatch = (kind: "request" | "notification", wire: string, params: unknown, ctx: HandlerContext<unknown>) => {
      if (first !== undefined) {
        const run = first;
        first = undefined;
        run(ctxSender(ctx));
      }
      if (kind === "notification") hooks.beforeNotification?.(wire, params, sender());
      if (kind === "request" && wire === "initialize") refuseOlderVersion(this.#protocol, params);
      const map = kind === "request" ? this.#requests : this.#notifications;
      const registered = map.get(wire) ?? map.get("*");
      if (cancelled !== undefined && ctx.sessionId !== undefined) cancelled.watch(ctx);
      const run = () => runHandler(registered, kind, wire, params, { ctx, requestId: ctx.requestId, peerKey: peerKey[side], peer: () => makeContext(ctx.requestId, ctx) });
      const lifecycle = hooks.initialization;
      if (lifecycle === undefined || side !== "agent" || kind !== "request") return run();
      if (wire !== "initialize") {
        lifecycle.noteRequest();
        return run();
      }
      // The agent's side of the v2 initialize exchange: recorded when its handler answered.
      lifecycle.begin(params);
      return Promise.resolve()
        .then(run)
        .then(
          (result: unknown) => {
            lifecycle.complete(result);
            return result;
          },
          (error: unknown) => {
            lifecycle.failAttempt();
            throw error;
          },
        );
    };
    for (const row of this.#protocol.rows[side]) {
      if (row.callback === undefined) continue;
      const { kind, wire } = row;
      handler[row.callback] = (params: unknown, ctx: HandlerContext<unknown>) => dispatch(kind, wire, params, ctx);
    }
    handler.extMethod = (wire: string, params: unknown, ctx: HandlerContext<unknown>) => dispatch("request", wire, params, ctx);
    handler.extNotification = (wire: string, params: unknown, ctx: HandlerContext<unknown>) => dispatch("notification", wire, params, ctx);
    return handler;
  }

  /** The context type of this side, over `sender`. @internal */
  protected abstract context(sender: Sender, requestId: string | number | undefined, hooks: SideHooks): Context;

  /** Opens a connection of this app over `transport`; its connect handlers run now unless `defer` (then `startConnectHandlers` runs them). @internal */
  open(transport: Transport, options: ConnectionOptions, hooks: SideHooks, defer = false): DeferrableConnection<Context> {
    let sender: Sender | undefined;
    const drained = (transport as { drained?: () => Promise<void> }).drained;
    if (typeof drained === "function") hooks.pace = () => drained.call(transport);
    const handler = this.handlerFor(() => sender as Sender, hooks);
    const conn = this.#side === "agent" ? createAgentConnection(this.#protocol, handler as never, transport, options) : createClientConnection(this.#protocol, handler as never, transport, options);
    sender = conn as unknown as Sender;
    const connection = this.wrap(conn, this.context(sender, undefined, hooks), hooks);
    let started = false;
    const deferrable = Object.assign(connection, {
      startConnectHandlers: () => {
        if (started) return;
        started = true;
        this.runConnectHandlers(connection);
      },
    });
    Object.defineProperty(deferrable, "startConnectHandlers", { enumerable: false });
    if (!defer) deferrable.startConnectHandlers();
    return deferrable;
  }

  /**
   * The SDK connection object over a core connection (or anything with `closed` and `close`):
   * `close(error)` records the error its pending calls reject with; a v2 connection has
   * `initialized`, which fails for good once the connection closed before the exchange. @internal
   */
  wrap(conn: { closed: Promise<unknown>; close(reason?: string): void }, peer: Context, hooks: SideHooks): AppConnection<Context> {
    const aborter = new AbortController();
    const closed = conn.closed.then(() => {
      const error = closedErrorOf(hooks);
      hooks.initialization?.fail(error);
      aborter.abort(error);
    });
    setConnectionClosed(peer, closed);
    const connection = {
      signal: aborter.signal,
      closed,
      close: (error?: unknown) => {
        if (error !== undefined && hooks.closedWith === undefined) hooks.closedWith = { error };
        conn.close(error === undefined ? undefined : error instanceof Error ? error.message : String(error));
      },
      [peerKey[this.#side]]: peer,
    };
    hooks.signal = aborter.signal;
    hooks.close = connection.close;
    const lifecycle = hooks.initialization;
    if (lifecycle !== undefined) Object.defineProperty(connection, "initialized", { get: () => lifecycle.initialized, enumerable: true });
    return connection as unknown as AppConnection<Context>;
  }

  /**
   * Runs the `onConnect` handlers with `connection`, as the SDK does: one that throws closes the
   * connection with its error and the error is thrown on; one whose promise rejects closes it. @internal
   */
  runConnectHandlers(connection: AppConnection<Context>): void {
    for (const run of this.#connectHandlers) {
      let result: unknown;
      try {
        result = run(connection as never);
      } catch (error) {
        connection.close(error);
        throw error;
      }
      void Promise.resolve(result).catch((error: unknown) => connection.close(error));
    }
  }

  /**
   * For a version router, which opens the connection itself once it read
   * `initialize`: the handler object, and the SDK connection whose context
   * reaches the routed connection. Its connect handlers run just before its
   * first handler (the routed `initialize`), so they still run before any
   * message is handled. `bind` hands it the routed connection. @internal
   */
  routed(): { handler: object; connection: AppConnection<Context>; bind(conn: { closed: Promise<unknown>; close(reason?: string): void }): void } {
    let sender: Sender | undefined;
    let bound: ((conn: { closed: Promise<unknown>; close(reason?: string): void }) => void) | undefined;
    const later = new Promise<{ closed: Promise<unknown>; close(reason?: string): void }>((resolve) => (bound = resolve));
    const lazy: Sender = {
      request: (wire, params, options) => (sender ? sender.request(wire, params, options) : Promise.reject(new Error("the connection is not routed yet"))),
      notify: (wire, params) => (sender ? sender.notify(wire, params) : Promise.resolve()),
    };
    this.assertCanServe();
    const hooks = this.hooks();
    const peer = this.context(lazy, undefined, hooks);
    const connection = this.wrap({ closed: later.then((conn) => conn.closed), close: (reason) => void later.then((conn) => conn.close(reason)) }, peer, hooks);
    hooks.beforeFirstCall = (first) => {
      sender ??= first;
      this.runConnectHandlers(connection);
    };
    const handler = this.handlerFor(() => lazy, hooks);
    return { handler, connection, bind: (conn) => bound?.(conn) };
  }

  /** Connects to a peer over an SDK stream (`ndJsonStream(…)`), or to another app in this process. */
  protected connectTo(target: Stream | App<object>, connectOptions: ConnectOptions = {}): DeferrableConnection<Context> {
    this.assertCanServe();
    if (target instanceof App) target.assertCanServe();
    if (target instanceof App) {
      const [mine, theirs] = memoryPair();
      target.open(theirs, target.options(undefined), target.hooks());
      return this.open(mine, this.options(undefined), this.hooks());
    }
    const { transport, maxMessageBytes } = streamTransport(target);
    return this.open(transport, this.options(maxMessageBytes), this.hooks(), connectOptions.deferConnectHandlers === true);
  }

  /** Connects, runs `op` with the connection's context on the peer, then closes; resolves with what `op` returned. */
  protected async connectToWith<T>(target: Stream | App<object>, op: (context: Context) => MaybePromise<T>): Promise<T> {
    const connection = this.connectTo(target);
    try {
      return await op(connection[peerKey[this.#side] as "peer"]);
    } finally {
      connection.close();
    }
  }

  /** The side's hooks (the client's session routing). @internal */
  hooks(): SideHooks {
    return this.#protocol.version >= 2 ? { initialization: new V2Initialization() } : {};
  }

  /** A v2 agent serves only with an `initialize` handler (the SDK's check, when connecting). */
  protected assertCanServe(): void {
    if (this.#side === "agent" && this.#protocol.version >= 2 && !this.#requests.has("initialize")) throw new Error("AgentApp requires an initialize request handler before connecting");
  }

  /**
   * The core's options for an SDK app ({@link SDK_OPTIONS}), its initialization gate, and the
   * line limit the stream asked for (default the core's, 32 MiB, the SDK's too). @internal
   */
  options(maxMessageBytes: number | undefined): ConnectionOptions {
    // As the SDK: a v1 app refuses requests before `initialize` only when it handles `initialize`
    // (an app without that handler serves them); a v2 app always does.
    const initializeFirst = this.#protocol.version >= 2 || this.#requests.has("initialize");
    return maxMessageBytes === undefined ? { ...SDK_OPTIONS, initializeFirst } : { ...SDK_OPTIONS, initializeFirst, maxMessageBytes };
  }
}
