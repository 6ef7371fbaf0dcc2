/**
 * `@agentclientprotocol/sdk` (2.4.0's `./experimental/v2` entry: the ACP v2 draft) on acp-router's core:
 * the builder apps, `ndJsonStream`, `RequestError`, the method constants and
 * the schema's types, so SDK-built agents and clients run unchanged.
 *
 * @module
 */
import { agentProtocol } from "../../../src/v2/generated/agent.ts";
import { clientProtocol } from "../../../src/v2/generated/client.ts";
import { bindApps } from "./entry.ts";

export type * from "../../../src/v2/generated/types.ts";
// The guards above are values named like these types: a type import of the name gets the type.
export { RequestError } from "./request-error.ts";
export { ndJsonStream, MessageTooLargeError, DEFAULT_MAX_MESSAGE_BYTES, type Stream, type NdJsonStreamOptions } from "./message-stream.ts";
export { AgentContext, ClientContext, TerminalHandle } from "./contexts.ts";
export { SessionBuilder, ActiveSession, type ActiveSessionMessage } from "./sessions.ts";
export { AgentApp, ClientApp } from "./sides.ts";
export type { AppConnection as AcpConnection } from "./app.ts";
export type { AnyMessage, AnyNotification, AnyRequest, AnyResponse, ErrorResponse, JsonRpcId, MaybePromise, Result, SendRequestOptions, ParamsParser, AppOptions } from "./wire-types.ts";
export { methodsV2 as methods } from "./methods-v2.ts";
export { AgentProtocolRouter, agentProtocolRouter, type RoutedConnection } from "./router.ts";
export { ContentBlock, McpServer, RequestPermissionOutcome, SetSessionConfigOptionRequest, ToolCallContent } from "./guards.ts";
export { assertSupportedMcpServers } from "./mcp-servers.ts";
export { AGENT_METHODS, CLIENT_METHODS, PROTOCOL_METHODS, PROTOCOL_VERSION } from "./constants-v2.ts";

/** The agent and client builders of the ACP v2 draft. */
export const { agent, client } = bindApps(agentProtocol, clientProtocol);
