/**
 * acp-router: the Agent Client Protocol for TypeScript, both sides. This entry
 * serves ACP v1 (protocol version 1, its stable methods); `acp-router/v2`
 * serves v2, `acp-router/unstable` and `acp-router/v2/unstable` each version
 * with its methods not stabilised yet, and `acp-router/versions` routes or
 * negotiates between them. Proxies, remote transports and MCP-over-ACP have
 * entries of their own (`acp-router/proxy`, `/remote`, `/mcp`).
 *
 * Agents: implement `AgentHandler`, then `connectAgent(handler, transport)`
 * or `serveStdio(handler)` (stdin/stdout, Node). Clients: implement
 * `ClientHandler`, then `connectClient(handler, transport)` and call
 * `conn.agent.*`. `protocol` is this table as one value, for whatever takes a
 * protocol (`acp-router/stdio`, `acp-router/remote`, `acp-router/versions`).
 *
 * @module acp-router
 */
export type { Connection } from "./connection/connect.ts";
export type { CloseInfo, ConnectionStats, Side } from "./connection/core.ts";
export type { ConnectionOptions, Diagnostic } from "./connection/options.ts";
export type { TraceContext, TracedCall, TraceOutcome, OutboundTrace, Tracing } from "./tracing/hook.ts";
export type { ExtensionCaller, ExtensionNotificationShape, ExtensionRequestShape, HandlerContext } from "./context.ts";
export { defineExtension, type ExtensionHandler, type ExtensionNotification, type ExtensionNotificationSpec, type ExtensionRequest, type ExtensionRequestSpec, type ParamsInput, type ResultOutput } from "./extensions/define.ts";
export type { Check, InputOf, OutputOf } from "./extensions/validate.ts";
export type { InferInput, InferOutput, StandardIssue, StandardResult, StandardSchemaProps, StandardSchemaV1, StandardTypes } from "./extensions/standard-schema.ts";
export type { PeerCaller } from "./peer-caller.ts";
export type { Protocol, ProtocolTypes } from "./protocol.ts";
export type { AgentCapabilitiesOf, AgentConnection as AgentConnectionOf, BoundProtocol, Certain, CheckedAgent, ClientConnection as ClientConnectionOf, RequiredMethods } from "./bind.ts";
export type { LeniencyGraph, LeniencyNode, LeniencyProp } from "./validation/leniency.ts";
export type { Validator, ValidatorError } from "./validation/validator.ts";
export { ConnectionClosedError, RpcError, type ErrorObject } from "./errors.ts";
export { ErrorCode, type ErrorCodeValue } from "./generated/errors.ts";
export { RequestCancelledError, RequestTimeoutError, UnresponsiveError } from "./errors.ts";
export type { UnresponsiveEvent, UnresponsiveRequest, WatchdogDecision, WatchdogOptions } from "./connection/watchdog-options.ts";
export { superviseClient, type AgentStart, type SupervisedClient, type SupervisorEnd, type SupervisorOptions } from "./supervision/supervisor.ts";
export { isReplay, RestartLimitError, SessionLostError, type SessionOutcome, type SupervisionEvent } from "./supervision/events.ts";
export type { RestartPolicy } from "./supervision/restart-policy.ts";
export { CancelReason, type CancelCause } from "./connection/cancel-cause.ts";
export type { RequestOptions } from "./peer-caller.ts";
export type { Leniency, FieldError } from "./validation/check.ts";
export type { Repair } from "./validation/leniency.ts";
export type { Transport, TransportReceiver } from "./transport/transport.ts";
export { createTerminal, type TerminalHandle, type TerminalPeer } from "./terminal.ts";
export { memoryPair, type MemoryPairOptions } from "./transport/memory.ts";
export { webStreamTransport, type WebStreamOptions } from "./transport/web.ts";
export { DEFAULT_MAX_MESSAGE_BYTES } from "./transport/framer.ts";
export * from "./generated/index.ts";
export { serveStdio } from "./serve-stdio-v1.ts";
