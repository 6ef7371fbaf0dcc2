/**
 * `@agentclientprotocol/sdk` (2.4.0's stable v1 entry) on acp-router's core:
 * the builder apps, `ndJsonStream`, `RequestError`, the method constants and
 * the schema's types, so SDK-built agents and clients run unchanged.
 *
 * @module
 */
import { agentProtocol } from "../../../src/generated/agent.ts";
import { clientProtocol } from "../../../src/generated/client.ts";
import { bindApps } from "./entry.ts";

export type * from "../../../src/generated/types.ts";
export { RequestError } from "./request-error.ts";
export { ndJsonStream, MessageTooLargeError, DEFAULT_MAX_MESSAGE_BYTES, type Stream, type NdJsonStreamOptions } from "./message-stream.ts";
export { AgentContext, ClientContext, TerminalHandle } from "./contexts.ts";
export { SessionBuilder, ActiveSession, type ActiveSessionMessage } from "./sessions.ts";
export { AgentApp, ClientApp } from "./sides.ts";
export type { AppConnection as AcpConnection } from "./app.ts";
export type { AnyMessage, AnyNotification, AnyRequest, AnyResponse, ErrorResponse, JsonRpcId, MaybePromise, Result, SendRequestOptions, ParamsParser, AppOptions } from "./wire-types.ts";
export { methods } from "./methods-v1.ts";
export { AGENT_METHODS, CLIENT_METHODS, PROTOCOL_METHODS, PROTOCOL_VERSION } from "./constants-v1.ts";

/** The agent and client builders of stable ACP v1. */
export const { agent, client } = bindApps(agentProtocol, clientProtocol);
