/** The v1 one-liner of the default entry: `serveStdio(handler)` serves a v1 agent on stdin/stdout. */
import { serveStdio as serveProtocolStdio } from "./transport/serve-stdio.ts";
import type { ConnectionOptions } from "./connection/options.ts";
import type { NodeStreamOptions } from "./transport/node.ts";
import { agentProtocol } from "./generated/agent.ts";
import type { AgentConnection, AgentHandler } from "./generated/index.ts";

/**
 * Serves `handler` as an ACP v1 agent on stdin/stdout (Node): stdout carries
 * protocol lines only; when stdin ends the connection closes and, with
 * nothing else pending, the process exits on its own. For another table use
 * `serveStdio(protocol, handler)` from `acp-router/stdio`.
 */
export function serveStdio(handler: AgentHandler, options?: ConnectionOptions & NodeStreamOptions): AgentConnection {
  // The agent's half only: the bundle of an agent leaves the client's validators out.
  return serveProtocolStdio(agentProtocol, handler, options);
}
