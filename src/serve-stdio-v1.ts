/** The v1 one-liner of the default entry: `serveStdio(handler)` serves a v1 agent on stdin/stdout. */
import { bindServeStdio } from "./transport/serve-stdio.ts";
import { agentProtocol } from "./generated/agent.ts";

/**
 * Serves `handler` as an ACP v1 agent on stdin/stdout (Node): stdout carries
 * protocol lines only; when stdin ends the connection closes and, with
 * nothing else pending, the process exits on its own. `acp-router/v2` and
 * `acp-router/unstable` export their own `serveStdio(handler)`; for any other
 * table use `serveProtocolStdio(protocol, handler)` from `acp-router/stdio`.
 */
// The agent's half only: the bundle of an agent leaves the client's validators out.
export const serveStdio = /* @__PURE__ */ bindServeStdio(agentProtocol, '"acp-router"');
