/**
 * acp-router/v2: ACP protocol version 2, generated from `tables/v2.ts` and
 * `schema/v2/schema.json` — `initialize` with `info` and `capabilities` on
 * both sides, `auth/login` / `auth/logout`, `session/prompt` answered with an
 * acknowledgement and ended by a `state_update`, per-object cancellation of
 * tool calls and terminals.
 *
 * The same connection, transports and errors as the default (v1) entry; only
 * the table differs. The default entry never loads this table. To serve v1
 * and v2 clients from one agent, or to negotiate from a client, see
 * `acp-router/versions`.
 *
 * @module
 */
import { bindServeStdio } from "../transport/serve-stdio.ts";
import { agentProtocol } from "./generated/index.ts";
export { type Connection } from "../connection/connect.ts";
export type { CloseInfo, ConnectionStats, Side } from "../connection/core.ts";
export type { ConnectionOptions, Diagnostic } from "../connection/options.ts";
export type { ExtensionCaller, ExtensionNotificationShape, ExtensionRequestShape, HandlerContext } from "../context.ts";
export type { PeerCaller, RequestOptions } from "../peer-caller.ts";
export { ConnectionClosedError, RequestCancelledError, RequestTimeoutError, RpcError, UnresponsiveError, type ErrorObject } from "../errors.ts";
export type { UnresponsiveEvent, UnresponsiveRequest, WatchdogDecision, WatchdogOptions } from "../connection/watchdog-options.ts";
export { superviseClient, type AgentStart, type SupervisedClient, type SupervisorEnd, type SupervisorOptions } from "../supervision/supervisor.ts";
export { isReplay, RestartLimitError, SessionLostError, type SessionOutcome, type SupervisionEvent } from "../supervision/events.ts";
export type { RestartPolicy } from "../supervision/restart-policy.ts";
export { ErrorCode, type ErrorCodeValue } from "./generated/errors.ts";
export { CancelReason, type CancelCause } from "../connection/cancel-cause.ts";
export type { Transport, TransportReceiver } from "../transport/transport.ts";
export { memoryPair, type MemoryPairOptions } from "../transport/memory.ts";
export { webStreamTransport, type WebStreamOptions } from "../transport/web.ts";
export { defineExtension, type ExtensionHandler, type ExtensionNotification, type ExtensionNotificationSpec, type ExtensionRequest, type ExtensionRequestSpec, type ParamsInput, type ResultOutput } from "../extensions/define.ts";
export type { Check, InputOf, OutputOf } from "../extensions/validate.ts";
export * from "./generated/index.ts";

/**
 * Serves `handler` as an agent of this table on stdin/stdout (Node): stdout
 * carries protocol lines only; when stdin ends the connection closes and,
 * with nothing else pending, the process exits on its own. The same
 * signature as `serveStdio` of every table entry; for a table of your own
 * use `serveProtocolStdio(protocol, handler)` from `acp-router/stdio`.
 */
// The agent's half only: an agent's bundle leaves the client's validators out.
export const serveStdio = /* @__PURE__ */ bindServeStdio(agentProtocol, '"acp-router/v2"');
