/**
 * `@agentclientprotocol/sdk` (2.4.0's `./experimental/v2` entry: the ACP v2 draft) on acp-router's core:
 * the builder apps, `ndJsonStream`, `RequestError`, the method constants and
 * the schema's types, so SDK-built agents and clients run unchanged.
 *
 * @module
 */
import { agentProtocol } from "acp-router/v2";
import { clientProtocol } from "acp-router/v2";
import type { TableTypes as T } from "acp-router/v2";
import type * as base from "./sides.ts";
import type * as schemaTypes from "acp-router/v2";
import type * as bm from "./by-method.ts";
import { tableApps } from "./table-entry.ts";
import { AgentContext as BaseAgentContext, ClientContext as BaseClientContext } from "./contexts.ts";
import type { AppOptions } from "./wire-types.ts";

export type * from "acp-router/v2";
export { RequestError } from "./request-error.ts";
/** Each guard's union type, under the guard's name (a value and a type, as the SDK exports them). */
export type AuthMethod = schemaTypes.AuthMethod;
export type AvailableCommand = schemaTypes.AvailableCommand;
export type AvailableCommandInput = schemaTypes.AvailableCommandInput;
export type BackgroundWork = schemaTypes.BackgroundWork;
export type CreateElicitationRequest = schemaTypes.CreateElicitationRequest;
export type CreateElicitationResponse = schemaTypes.CreateElicitationResponse;
export type DiffChange = schemaTypes.DiffChange;
export type ElicitationPropertySchema = schemaTypes.ElicitationPropertySchema;
export type IdleStateUpdate = schemaTypes.IdleStateUpdate;
export type MultiSelectItems = schemaTypes.MultiSelectItems;
export type PlanUpdateContent = schemaTypes.PlanUpdateContent;
export type ReplayFrom = schemaTypes.ReplayFrom;
export type RequestPermissionSubject = schemaTypes.RequestPermissionSubject;
export type SessionConfigOption = schemaTypes.SessionConfigOption;
export type SessionUpdate = schemaTypes.SessionUpdate;
export type StateUpdate = schemaTypes.StateUpdate;
export type ContentBlock = schemaTypes.ContentBlock;
export type McpServer = schemaTypes.McpServer;
export type RequestPermissionOutcome = schemaTypes.RequestPermissionOutcome;
export type SetSessionConfigOptionRequest = schemaTypes.SetSessionConfigOptionRequest;
export type ToolCallContent = schemaTypes.ToolCallContent;

export {
  AuthMethod,
  AvailableCommand,
  AvailableCommandInput,
  BackgroundWork,
  CreateElicitationRequest,
  CreateElicitationResponse,
  DiffChange,
  ElicitationPropertySchema,
  IdleStateUpdate,
  MultiSelectItems,
  PlanUpdateContent,
  ReplayFrom,
  RequestPermissionSubject,
  SessionConfigOption,
  SessionUpdate,
  StateUpdate,
} from "./guards.ts";
export { ndJsonStream, MessageTooLargeError, DEFAULT_MAX_MESSAGE_BYTES, type Stream, type NdJsonStreamOptions } from "./message-stream.ts";
export { TerminalHandle } from "./contexts.ts";
export { SessionBuilder } from "./sessions.ts";
export { ActiveSessionV2 as ActiveSession, type ActiveSessionMessage } from "./sessions-v2.ts";
export type { AcpConnection } from "./sides.ts";
export type { AnyMessage, AnyNotification, AnyRequest, AnyResponse, ErrorResponse, JsonRpcId, MaybePromise, Result, SendRequestOptions, ParamsParser, AppOptions } from "./wire-types.ts";
export { AgentProtocolRouter, agentProtocolRouter, type RoutedConnection } from "./router.ts";
export { ContentBlock, McpServer, RequestPermissionOutcome, SetSessionConfigOptionRequest, ToolCallContent } from "./guards.ts";
export { assertSupportedMcpServers } from "./mcp-servers.ts";
export { methodsV2 as methods } from "./methods-v2.ts";
export { AGENT_METHODS, CLIENT_METHODS, PROTOCOL_METHODS, PROTOCOL_VERSION } from "./constants-v2.ts";

/** The agent's handle on the client, typed by this table (the class, for `instanceof`). */
export type AgentContext = BaseAgentContext<T>;
export const AgentContext = BaseAgentContext;
/** The client's handle on the agent, typed by this table (the class, for `instanceof`). */
export type ClientContext = BaseClientContext<T>;
export const ClientContext = BaseClientContext;
/** An agent's connection. */
export type AgentConnection = base.AgentConnection<T>;
/** A client's connection. */
export type ClientConnection = base.ClientConnection<T>;
/** What agent handlers receive. */
export type AgentHandlerContext<Params> = base.AgentHandlerContext<Params, T>;
export type AgentRequestContext<Params> = base.AgentRequestContext<Params, T>;
export type AgentNotificationContext<Params> = base.AgentNotificationContext<Params, T>;
/** What client handlers receive. */
export type ClientHandlerContext<Params> = base.ClientHandlerContext<Params, T>;
export type ClientRequestContext<Params> = base.ClientRequestContext<Params, T>;
export type ClientNotificationContext<Params> = base.ClientNotificationContext<Params, T>;
export type AgentRequestHandler<Params, Response> = base.AgentRequestHandler<Params, Response, T>;
export type AgentNotificationHandler<Params> = base.AgentNotificationHandler<Params, T>;
export type ClientRequestHandler<Params, Response> = base.ClientRequestHandler<Params, Response, T>;
export type ClientNotificationHandler<Params> = base.ClientNotificationHandler<Params, T>;
/** The methods each side handles. */
export type AgentRequestMethod = keyof T["agentMethods"] & string;
export type AgentNotificationMethod = keyof T["agentNotifications"] & string;
export type ClientRequestMethod = keyof T["clientMethods"] & string;
export type ClientNotificationMethod = keyof T["clientNotifications"] & string;

/** The SDK's per-method handler, params and response maps, connect handlers, envelope unions and connector types, for this table. */
export type AgentRequestHandlersByMethod = bm.AgentRequestHandlersByMethod<T>;
export type AgentNotificationHandlersByMethod = bm.AgentNotificationHandlersByMethod<T>;
export type ClientRequestHandlersByMethod = bm.ClientRequestHandlersByMethod<T>;
export type ClientNotificationHandlersByMethod = bm.ClientNotificationHandlersByMethod<T>;
export type AgentRequestParamsByMethod = bm.AgentRequestParamsByMethod<T>;
export type AgentRequestResponsesByMethod = bm.AgentRequestResponsesByMethod<T>;
export type AgentNotificationParamsByMethod = bm.AgentNotificationParamsByMethod<T>;
export type ClientRequestParamsByMethod = bm.ClientRequestParamsByMethod<T>;
export type ClientRequestResponsesByMethod = bm.ClientRequestResponsesByMethod<T>;
export type ClientNotificationParamsByMethod = bm.ClientNotificationParamsByMethod<T>;
export type AgentConnectHandler = bm.AgentConnectHandler<T>;
export type ClientConnectHandler = bm.ClientConnectHandler<T>;
export type AgentRequest = bm.AgentRequestOf<T>;
export type AgentResponse = bm.AgentResponseOf<T>;
export type AgentNotification = bm.AgentNotificationOf<T>;
export type ClientRequest = bm.ClientRequestOf<T>;
export type ClientResponse = bm.ClientResponseOf<T>;
export type ClientNotification = bm.ClientNotificationOf<T>;
export type { AgentConnectOptions, AgentConnectionLifecycle, AgentConnector } from "./by-method.ts";

/** A custom (extension) method name: it starts with `_`. */
export type ExtensionMethod = `_${string}`;
/** `Method`, unless it names a method of this table (the untyped overloads take only other methods). */
export type UnrecognizedMethod<Method extends string> = string extends Method ? Method : Method extends AgentRequestMethod | AgentNotificationMethod | ClientRequestMethod | ClientNotificationMethod | "$/cancel_request" ? never : Method;
/** The validated `initialize` request and answer of one connection. */
export type InitializationSnapshot = Readonly<{ request: schemaTypes.InitializeRequest; response: schemaTypes.InitializeResponse }>;
/** A variant of an extensible union this package's types do not know (a newer peer's); the brand exists only in the types. */
export type UnknownVariant<V> = V & { readonly [unknownVariantBrand]: true };
declare const unknownVariantBrand: unique symbol;
/** `session/set_config_option`'s params without `sessionId`, as `ActiveSession.setConfigOption` takes them. */
export type ActiveSessionSetConfigOptionRequest = schemaTypes.SetSessionConfigOptionRequest extends infer Request ? (Request extends unknown ? { [Key in keyof Request as Key extends "sessionId" ? never : Key]: Request[Key] } : never) : never;

const apps = tableApps<T>(agentProtocol, clientProtocol);
/** An ACP v2 agent built from handlers by method (the class, for `extends` and `instanceof`). */
export const AgentApp = apps.AgentApp;
export type AgentApp = base.AgentApp<T>;
/** An ACP v2 client built from handlers by method (the class, for `extends` and `instanceof`). */
export const ClientApp = apps.ClientApp;
export type ClientApp = base.ClientApp<T>;
/** A new agent app. */
export const agent = apps.agent;
/** A new client app. */
export const client = apps.client;
