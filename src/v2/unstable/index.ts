/**
 * acp-router/v2/unstable: ACP v2 with the methods the protocol has not
 * stabilised yet (`session/fork`, `session/archive`, `session/unarchive`,
 * `session/status`, `session/set_title`, `providers/*`, `auth/status`,
 * `auth/status_update`, `mcp/message`), generated from
 * `tables/v2-unstable.ts` and `schema/v2/schema.unstable.json`.
 *
 * A superset of `acp-router/v2`'s table: the same connection, transports and
 * errors, with handler, peer and type declarations that add the unstable rows
 * (and the unstable schema's types: `capabilities.session.fork`,
 * `capabilities.providers`, the extra `session/update` variants). Opt in by
 * importing from here instead of `acp-router/v2`; neither the default entry
 * nor `acp-router/v2` loads this table. Its `protocol` has version 2, so the
 * version router takes it as the v2 route (`routeAgent(transport, { v2: {
 * protocol, handler } })`, `negotiateClient`). Unstable methods may change or
 * disappear with the schema, so pin the package version when you use them.
 *
 * @module
 */
import { bindServeStdio } from "../../transport/serve-stdio.ts";
import { agentProtocol } from "./generated/index.ts";
export { type Connection } from "../../connection/connect.ts";
export type { CloseInfo, ConnectionStats, Side } from "../../connection/core.ts";
export type { ConnectionOptions, Diagnostic } from "../../connection/options.ts";
export type { ExtensionCaller, ExtensionNotificationShape, ExtensionRequestShape, HandlerContext } from "../../context.ts";
export type { PeerCaller, RequestOptions } from "../../peer-caller.ts";
export { ConnectionClosedError, RequestCancelledError, RequestTimeoutError, RpcError, UnresponsiveError, type ErrorObject } from "../../errors.ts";
export type { UnresponsiveEvent, UnresponsiveRequest, WatchdogDecision, WatchdogOptions } from "../../connection/watchdog-options.ts";
export { superviseClient, type AgentStart, type SupervisedClient, type SupervisorEnd, type SupervisorOptions } from "../../supervision/supervisor.ts";
export { isReplay, RestartLimitError, SessionLostError, type SessionOutcome, type SupervisionEvent } from "../../supervision/events.ts";
export type { RestartPolicy } from "../../supervision/restart-policy.ts";
export { ErrorCode, type ErrorCodeValue } from "./generated/errors.ts";
export { CancelReason, type CancelCause } from "../../connection/cancel-cause.ts";
export type { Transport, TransportReceiver } from "../../transport/transport.ts";
export { memoryPair, type MemoryPairOptions } from "../../transport/memory.ts";
export { webStreamTransport, type WebStreamOptions } from "../../transport/web.ts";
export { defineExtension, type ExtensionHandler, type ExtensionNotification, type ExtensionNotificationSpec, type ExtensionRequest, type ExtensionRequestSpec, type ParamsInput, type ResultOutput } from "../../extensions/define.ts";
export type { Check, InputOf, OutputOf } from "../../extensions/validate.ts";
export * from "./generated/index.ts";

/**
 * Serves `handler` as an agent of this table on stdin/stdout (Node): stdout
 * carries protocol lines only; when stdin ends the connection closes and,
 * with nothing else pending, the process exits on its own. The same
 * signature as `serveStdio` of every table entry; for a table of your own
 * use `serveProtocolStdio(protocol, handler)` from `acp-router/stdio`.
 */
// The agent's half only: an agent's bundle leaves the client's validators out.
export const serveStdio = /* @__PURE__ */ bindServeStdio(agentProtocol, '"acp-router/v2/unstable"');
