/**
 * `serveProtocolStdio(protocol, handler)`: an agent of any table on this
 * process's stdin/stdout. Node only at run time (it reads `process.stdin` and
 * writes `process.stdout`), but it imports no `node:` module and no table, so
 * each table's entry can offer its one-liner `serveStdio(handler)` on top of
 * it (`acp-router`, `acp-router/v2`, `acp-router/unstable`) and a v2 agent
 * bundles only the v2 table.
 *
 * Naming: `serveStdio` always means `(handler, options?)` bound to the table
 * of the entry it comes from; the generic form, which takes the table as its
 * first argument, is `serveProtocolStdio` and lives on `acp-router/stdio`
 * only. One name, one signature.
 */
import { argumentError, checkHandler, checkOptions, checkProtocol, isProtocol } from "../arguments.ts";
import { assertSide, createAgentConnection, type AgentConnection } from "../bind.ts";
import type { ConnectionOptions } from "../connection/options.ts";
import type { Protocol, ProtocolTypes } from "../protocol.ts";
import { nodeStreamTransport, type NodeStreamOptions } from "./node.ts";

const SERVE_PROTOCOL_STDIO = "serveProtocolStdio(protocol, handler, options?)";

/**
 * Serves `handler` as an agent of `protocol`'s table on stdin/stdout: the
 * table's `agentProtocol` (its agent half: the smallest bundle) or its whole
 * `protocol`. stdout
 * carries protocol lines only; when stdin ends the connection closes and,
 * with nothing else pending, the process exits on its own. For a table's own
 * one-liner, use `serveStdio(handler)` from that table's entry.
 */
export function serveProtocolStdio<T extends ProtocolTypes>(protocol: Protocol<T>, handler: T["agentHandler"], options: ConnectionOptions & NodeStreamOptions = {}): AgentConnection<T> {
  checkProtocol(SERVE_PROTOCOL_STDIO, "protocol", protocol, 'Pass a table\'s `protocol` first (`import { protocol } from "acp-router/v2"`), or call the one-liner `serveStdio(handler)` of that table\'s entry ("acp-router", "acp-router/v2", "acp-router/unstable").');
  // Before stdin is touched: a client half cannot serve an agent.
  assertSide(SERVE_PROTOCOL_STDIO, protocol as Protocol, "agent");
  checkHandler(SERVE_PROTOCOL_STDIO, "handler", "agent", handler);
  checkOptions(SERVE_PROTOCOL_STDIO, "options", options);
  return serveOnStdio(protocol, handler, options);
}

/**
 * The one-liner of a table's entry: `serveStdio(handler, options?)` bound to
 * `protocol`, its arguments checked under that name.
 * @internal
 */
export function bindServeStdio<T extends ProtocolTypes>(protocol: Protocol<T>, entry: string): (handler: T["agentHandler"], options?: ConnectionOptions & NodeStreamOptions) => AgentConnection<T> {
  const signature = `serveStdio(handler, options?) of ${entry}`;
  assertSide(signature, protocol as Protocol, "agent");
  return (handler, options = {}) => {
    if (isProtocol(handler)) {
      throw argumentError(
        signature,
        "handler",
        "an object implementing the agent's methods (AgentHandler)",
        handler,
        `This serveStdio is bound to the ${protocol.name} table and takes no protocol: call serveStdio(handler), or serveProtocolStdio(protocol, handler) from "acp-router/stdio" for another table.`,
      );
    }
    checkHandler(signature, "handler", "agent", handler);
    checkOptions(signature, "options", options);
    return serveOnStdio(protocol, handler, options);
  };
}

function serveOnStdio<T extends ProtocolTypes>(protocol: Protocol<T>, handler: T["agentHandler"], options: ConnectionOptions & NodeStreamOptions): AgentConnection<T> {
  const transport = nodeStreamTransport(process.stdin, process.stdout, { ...options, endWritable: false });
  const conn = createAgentConnection(protocol, handler, transport, options);
  void conn.closed.then(() => {
    // Let the process exit: stop holding stdin open.
    process.stdin.pause();
    process.stdin.unref?.();
  });
  return conn;
}
