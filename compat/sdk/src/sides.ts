/**
 * `AgentApp` and `ClientApp` for one table `T`: `App` with the side's
 * context and the SDK's typed registration overloads (a table method's
 * handler gets that method's params and returns its result; `"*"` and
 * custom methods with a parser are untyped, as in the SDK). Each entry binds
 * them to its table in a two-line subclass.
 */
import type { Protocol, ProtocolTypes } from "acp-router/runtime";
import { App, type ConnectOptions, type SideHooks } from "./app.ts";
import { AgentContext, ClientContext, type ParamsOf, type ResultOf, type WireOf } from "./contexts.ts";
import type { Stream } from "./message-stream.ts";
import type { Sender } from "./sender.ts";
import { SessionRoutes } from "./session-routes.ts";
import type { AppOptions, JsonRpcId, MaybePromise, ParamsParser } from "./wire-types.ts";

/** What every SDK connection offers: its lifetime and `close`. */
export interface AcpConnection {
  /** Aborted when the connection closed. */
  readonly signal: AbortSignal;
  /** Settles when the connection closed. */
  readonly closed: Promise<void>;
  /** Closes the connection: pending calls reject, handler signals abort. */
  close(error?: unknown): void;
}
/** An agent's connection: `client` calls the client. */
export interface AgentConnection<T extends ProtocolTypes = ProtocolTypes> extends AcpConnection {
  readonly client: AgentContext<T>;
}
/** A client's connection: `agent` calls the agent. */
export interface ClientConnection<T extends ProtocolTypes = ProtocolTypes> extends AcpConnection {
  readonly agent: ClientContext<T>;
}

/** What an agent handler receives. */
export interface AgentHandlerContext<Params, T extends ProtocolTypes = ProtocolTypes> {
  method: string;
  params: Params;
  signal: AbortSignal;
  client: AgentContext<T>;
}
/** What an agent's request handler receives: the handler context and the request's id. */
export type AgentRequestContext<Params, T extends ProtocolTypes = ProtocolTypes> = AgentHandlerContext<Params, T> & { requestId: JsonRpcId };
/** What an agent's notification handler receives. */
export type AgentNotificationContext<Params, T extends ProtocolTypes = ProtocolTypes> = AgentHandlerContext<Params, T>;
/** What a client handler receives. */
export interface ClientHandlerContext<Params, T extends ProtocolTypes = ProtocolTypes> {
  method: string;
  params: Params;
  signal: AbortSignal;
  agent: ClientContext<T>;
}
/** What a client's request handler receives. */
export type ClientRequestContext<Params, T extends ProtocolTypes = ProtocolTypes> = ClientHandlerContext<Params, T> & { requestId: JsonRpcId };
/** What a client's notification handler receives. */
export type ClientNotificationContext<Params, T extends ProtocolTypes = ProtocolTypes> = ClientHandlerContext<Params, T>;

/** An agent's request handler. */
export type AgentRequestHandler<Params, Response, T extends ProtocolTypes = ProtocolTypes> = (context: AgentRequestContext<Params, T>) => MaybePromise<Response>;
/** An agent's notification handler. */
export type AgentNotificationHandler<Params, T extends ProtocolTypes = ProtocolTypes> = (context: AgentNotificationContext<Params, T>) => MaybePromise<void>;
/** A client's request handler. */
export type ClientRequestHandler<Params, Response, T extends ProtocolTypes = ProtocolTypes> = (context: ClientRequestContext<Params, T>) => MaybePromise<Response>;
/** A client's notification handler. */
export type ClientNotificationHandler<Params, T extends ProtocolTypes = ProtocolTypes> = (context: ClientNotificationContext<Params, T>) => MaybePromise<void>;

/** An ACP agent built from handlers by method: `agent().onRequest(…).connect(stream)`. */
export class AgentApp<T extends ProtocolTypes = ProtocolTypes> extends App<AgentContext<T>> {
  constructor(protocol: Protocol, options?: AppOptions) {
    super("agent", protocol, options);
  }
  protected context(sender: Sender, requestId: string | number | undefined, hooks: SideHooks): AgentContext<T> {
    // The hooks object is made once per connection: it stands for the connection.
    return AgentContext.create<T>(sender, requestId, hooks);
  }
  /** Handles every request no other handler takes. */
  onRequest(method: "*", handler: AgentRequestHandler<unknown, unknown, T>): this;
  /** Handles a request of the table: typed params and result (`void` answers `{}`). */
  onRequest<W extends WireOf<T["agentMethods"]>>(method: W, handler: AgentRequestHandler<ParamsOf<T["agentMethods"][W]>, ResultOf<T["agentMethods"][W]> | void, T>): this;
  /** Handles a custom request (an extension), its params checked by `params`. */
  onRequest<Params, Response>(method: string, params: ParamsParser<Params>, handler: AgentRequestHandler<Params, Response, T>): this;
  onRequest(method: string, parserOrHandler: unknown, handler?: unknown): this {
    return this.addRequest(method, parserOrHandler, handler);
  }
  /** Handles every notification no other handler takes. */
  onNotification(method: "*", handler: AgentNotificationHandler<unknown, T>): this;
  /** Handles a notification of the table. */
  onNotification<W extends WireOf<T["agentNotifications"]>>(method: W, handler: AgentNotificationHandler<ParamsOf<T["agentNotifications"][W]>, T>): this;
  /** Handles a custom notification, its params checked by `params`. */
  onNotification<Params>(method: string, params: ParamsParser<Params>, handler: AgentNotificationHandler<Params, T>): this;
  onNotification(method: string, parserOrHandler: unknown, handler?: unknown): this {
    return this.addNotification(method, parserOrHandler, handler);
  }
  /** Runs `handler` with each connection before its first message is handled. */
  onConnect(handler: (connection: AgentConnection<T>) => MaybePromise<void>): this {
    return this.addConnectHandler(handler as (connection: never) => MaybePromise<void>);
  }
  /** Serves a client over `stream`, or a client app in this process; `deferConnectHandlers` leaves the connect handlers for the caller to start (a server does, once `initialize` was answered). */
  connect(target: Stream | ClientApp<T>, options?: ConnectOptions): AgentConnection<T> {
    return this.connectTo(target, options) as unknown as AgentConnection<T>;
  }
  /** Connects, runs `op` with the client's context, closes. */
  connectWith<R>(target: Stream | ClientApp<T>, op: (context: AgentContext<T>) => MaybePromise<R>): Promise<R> {
    return this.connectToWith(target, op);
  }
}

interface ClientHooks extends SideHooks {
  readonly routes: SessionRoutes;
}

/** An ACP client built from handlers by method: `client().onRequest(…).connect(stream)`. */
export class ClientApp<T extends ProtocolTypes = ProtocolTypes> extends App<ClientContext<T>> {
  constructor(protocol: Protocol, options?: AppOptions) {
    super("client", protocol, options);
  }
  protected context(sender: Sender, requestId: string | number | undefined, hooks: SideHooks): ClientContext<T> {
    return ClientContext.create<T>(sender, requestId, (hooks as ClientHooks).routes, hooks);
  }
  override hooks(): ClientHooks {
    const routes = new SessionRoutes(this.protocol.version);
    return {
      ...super.hooks(),
      routes,
      beforeNotification(wire, params) {
        if (wire === "session/update") routes.deliver(params);
      },
    };
  }
  /** Handles every request no other handler takes. */
  onRequest(method: "*", handler: ClientRequestHandler<unknown, unknown, T>): this;
  /** Handles a request of the table: typed params and result (`void` answers `{}`). */
  onRequest<W extends WireOf<T["clientMethods"]>>(method: W, handler: ClientRequestHandler<ParamsOf<T["clientMethods"][W]>, ResultOf<T["clientMethods"][W]> | void, T>): this;
  /** Handles a custom request (an extension), its params checked by `params`. */
  onRequest<Params, Response>(method: string, params: ParamsParser<Params>, handler: ClientRequestHandler<Params, Response, T>): this;
  onRequest(method: string, parserOrHandler: unknown, handler?: unknown): this {
    return this.addRequest(method, parserOrHandler, handler);
  }
  /** Handles every notification no other handler takes. */
  onNotification(method: "*", handler: ClientNotificationHandler<unknown, T>): this;
  /** Handles a notification of the table. */
  onNotification<W extends WireOf<T["clientNotifications"]>>(method: W, handler: ClientNotificationHandler<ParamsOf<T["clientNotifications"][W]>, T>): this;
  /** Handles a custom notification, its params checked by `params`. */
  onNotification<Params>(method: string, params: ParamsParser<Params>, handler: ClientNotificationHandler<Params, T>): this;
  onNotification(method: string, parserOrHandler: unknown, handler?: unknown): this {
    return this.addNotification(method, parserOrHandler, handler);
  }
  /** Runs `handler` with each connection before its first message is handled. */
  onConnect(handler: (connection: ClientConnection<T>) => MaybePromise<void>): this {
    return this.addConnectHandler(handler as (connection: never) => MaybePromise<void>);
  }
  /** Connects to an agent over `stream`, or to an agent app in this process. */
  connect(target: Stream | AgentApp<T>, options?: ConnectOptions): ClientConnection<T> {
    return this.connectTo(target, options) as unknown as ClientConnection<T>;
  }
  /** Connects, runs `op` with the agent's context, closes. */
  connectWith<R>(target: Stream | AgentApp<T>, op: (context: ClientContext<T>) => MaybePromise<R>): Promise<R> {
    return this.connectToWith(target, op);
  }
}
