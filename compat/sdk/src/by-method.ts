/**
 * The SDK's per-table type names that every app entry exports, built from one table's types `T`:
 * handlers, params and responses keyed by method (`AgentRequestHandlersByMethod`, …), the connect
 * handler types, the envelope unions the schema names (`AgentRequest`, `ClientResponse`, …), and the
 * connector types of a version router (`AgentConnector`, `AgentConnectOptions`,
 * `AgentConnectionLifecycle`). Each entry binds them to its table in one line per name.
 */
import type { ProtocolTypes } from "acp-router/runtime";
import type { ParamsOf, ResultOf, WireOf } from "./contexts.ts";
import type { Stream } from "./message-stream.ts";
import type { AgentConnection, AgentNotificationHandler, AgentRequestHandler, ClientConnection, ClientNotificationHandler, ClientRequestHandler } from "./sides.ts";
import type { ErrorResponse, MaybePromise } from "./wire-types.ts";

/** Agent request handlers keyed by method. */
export type AgentRequestHandlersByMethod<T extends ProtocolTypes> = { [W in WireOf<T["agentMethods"]>]: AgentRequestHandler<ParamsOf<T["agentMethods"][W]>, ResultOf<T["agentMethods"][W]> | void, T> };
/** Agent notification handlers keyed by method. */
export type AgentNotificationHandlersByMethod<T extends ProtocolTypes> = { [W in WireOf<T["agentNotifications"]>]: AgentNotificationHandler<ParamsOf<T["agentNotifications"][W]>, T> };
/** Client request handlers keyed by method. */
export type ClientRequestHandlersByMethod<T extends ProtocolTypes> = { [W in WireOf<T["clientMethods"]>]: ClientRequestHandler<ParamsOf<T["clientMethods"][W]>, ResultOf<T["clientMethods"][W]> | void, T> };
/** Client notification handlers keyed by method. */
export type ClientNotificationHandlersByMethod<T extends ProtocolTypes> = { [W in WireOf<T["clientNotifications"]>]: ClientNotificationHandler<ParamsOf<T["clientNotifications"][W]>, T> };

/** Agent request params keyed by method. */
export type AgentRequestParamsByMethod<T extends ProtocolTypes> = { [W in WireOf<T["agentMethods"]>]: ParamsOf<T["agentMethods"][W]> };
/** Agent request responses keyed by method. */
export type AgentRequestResponsesByMethod<T extends ProtocolTypes> = { [W in WireOf<T["agentMethods"]>]: ResultOf<T["agentMethods"][W]> };
/** Agent notification params keyed by method. */
export type AgentNotificationParamsByMethod<T extends ProtocolTypes> = { [W in WireOf<T["agentNotifications"]>]: ParamsOf<T["agentNotifications"][W]> };
/** Client request params keyed by method. */
export type ClientRequestParamsByMethod<T extends ProtocolTypes> = { [W in WireOf<T["clientMethods"]>]: ParamsOf<T["clientMethods"][W]> };
/** Client request responses keyed by method. */
export type ClientRequestResponsesByMethod<T extends ProtocolTypes> = { [W in WireOf<T["clientMethods"]>]: ResultOf<T["clientMethods"][W]> };
/** Client notification params keyed by method. */
export type ClientNotificationParamsByMethod<T extends ProtocolTypes> = { [W in WireOf<T["clientNotifications"]>]: ParamsOf<T["clientNotifications"][W]> };

/** Called when an agent app opens a connection. */
export type AgentConnectHandler<T extends ProtocolTypes> = (connection: AgentConnection<T>) => MaybePromise<void>;
/** Called when a client app opens a connection. */
export type ClientConnectHandler<T extends ProtocolTypes> = (connection: ClientConnection<T>) => MaybePromise<void>;

type RequestId = string | number | null;
type Values<M> = M[keyof M];
type ParamsUnion<M> = Values<{ [W in keyof M]: ParamsOf<M[W]> }>;
type ResultUnion<M> = Values<{ [W in keyof M]: ResultOf<M[W]> }>;
/** An extension's params or result: any object. */
type Extension = Record<string, unknown>;

/** A request the agent sends (a client method), as the schema's `AgentRequest` names it. */
export type AgentRequestOf<T extends ProtocolTypes> = { id: RequestId; method: string; params?: ParamsUnion<T["clientMethods"]> | Extension | null };
/** The agent's answer to a client request. */
export type AgentResponseOf<T extends ProtocolTypes> = { id: RequestId; result: ResultUnion<T["agentMethods"]> | Extension } | { id: RequestId; error: ErrorResponse };
/** A notification the agent sends. */
export type AgentNotificationOf<T extends ProtocolTypes> = { method: string; params?: ParamsUnion<T["clientNotifications"]> | Extension | null };
/** A request the client sends (an agent method). */
export type ClientRequestOf<T extends ProtocolTypes> = { id: RequestId; method: string; params?: ParamsUnion<T["agentMethods"]> | Extension | null };
/** The client's answer to an agent request. */
export type ClientResponseOf<T extends ProtocolTypes> = { id: RequestId; result: ResultUnion<T["clientMethods"]> | Extension } | { id: RequestId; error: ErrorResponse };
/** A notification the client sends. */
export type ClientNotificationOf<T extends ProtocolTypes> = { method: string; params?: ParamsUnion<T["agentNotifications"]> | Extension | null };

/** Options a version router passes when it connects an agent: `deferConnectHandlers` holds the app's connect handlers until `startConnectHandlers()`. */
export interface AgentConnectOptions {
  readonly deferConnectHandlers?: boolean;
}
/** What connecting an agent returns to a router: when it closed, and how to start deferred connect handlers. */
export interface AgentConnectionLifecycle {
  readonly closed?: Promise<void>;
  startConnectHandlers?(): void;
}
/** Anything that serves an ACP connection over a stream: an agent app, or a version router. */
export interface AgentConnector {
  connect(stream: Stream, options?: AgentConnectOptions): AgentConnectionLifecycle | unknown;
}
