/**
 * `serveStdio(protocol, handler)`: an agent of any table on this process's
 * stdin/stdout. Node only at run time (it reads `process.stdin` and writes
 * `process.stdout`), but it imports no `node:` module and no table, so the
 * default entry can offer the v1 one-liner `serveStdio(handler)` on top of
 * it and a v2 agent bundles only the v2 table.
 */
import { assertSide, createAgentConnection, type AgentConnection } from "../bind.ts";
import type { ConnectionOptions } from "../connection/options.ts";
import type { Protocol, ProtocolTypes } from "../protocol.ts";
import { nodeStreamTransport, type NodeStreamOptions } from "./node.ts";

/**
 * Serves `handler` as an agent of `protocol`'s table on stdin/stdout: the
 * table's `agentProtocol` (its agent half: the smallest bundle) or its whole
 * `protocol`. stdout carries protocol lines only; when stdin ends the
 * connection closes and, with nothing else pending, the process exits on its own.
 */
export function serveStdio<T extends ProtocolTypes>(protocol: Protocol<T>, handler: T["agentHandler"], options: ConnectionOptions & NodeStreamOptions = {}): AgentConnection<T> {
  // Before stdin is touched: a client half cannot serve an agent.
  assertSide("serveStdio", protocol as Protocol, "agent");
  const transport = nodeStreamTransport(process.stdin, process.stdout, { ...options, endWritable: false });
  const conn = createAgentConnection(protocol, handler, transport, options);
  void conn.closed.then(() => {
    // Let the process exit: stop holding stdin open.
    process.stdin.pause();
    process.stdin.unref?.();
  });
  return conn;
}
