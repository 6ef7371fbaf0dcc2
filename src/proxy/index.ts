/**
 * acp-router/proxy: ACP proxy chains (the Proxy Chains RFD; `proxy/initialize`
 * and `proxy/successor` of `schema/v1/schema.unstable.json`), generated from
 * `tables/proxy.ts`.
 *
 * - {@link defineProxy} / {@link connectProxy} / {@link serveProxyStdio}: a
 *   proxy component, which sees every message between its predecessor and its
 *   successor and may forward, rewrite, answer or inject.
 * - {@link conduct}: a conductor, which spawns a chain (proxies, then an agent)
 *   and routes between them and its own peer (`acp-router conduct`).
 *
 * Proxy chains are unstable in ACP: pin the package version when you use them.
 *
 * @module
 */
import type { AgentConnection } from "../bind.ts";
import { connectProxy } from "./connect-proxy.ts";
import type { ConnectionOptions } from "../connection/options.ts";
import { nodeStreamTransport, type NodeStreamOptions } from "../transport/node.ts";
import type { Transport } from "../transport/transport.ts";
import { defineProxy, type DefinedProxy, type ProxyHooks } from "./define.ts";
import { connectAgent } from "./generated/index.ts";
import type { AgentContext, TableTypes } from "./generated/handlers.ts";
import type { InitializeProxyRequest } from "./generated/types.ts";
import { passThrough, type PassThrough } from "./pass.ts";

export { defineProxy, type ProxyContext, type ProxyHook, type ProxyHookSet, type DefinedProxy, type ProxyHooks, type ProxyOutbound, type ProxySender } from "./define.ts";
export { conduct, type Conductor, type ConductOptions } from "./conductor.ts";
export { connectProxy, isDefinedProxy } from "./connect-proxy.ts";
export type { ComponentSpec, HostedProxy } from "./host.ts";
export { protocol, agentProtocol, clientProtocol, connectClient } from "./generated/index.ts";
export type * from "./generated/types.ts";
// The table's error codes (the value and its type), as every table entry exports them; a hook throws an RpcError to answer with an error.
export { ErrorCode, type ErrorCodeValue } from "./generated/errors.ts";
export { RpcError, type ErrorObject } from "../errors.ts";
export type * from "./generated/handlers.ts";
export type * from "./generated/peers.ts";

/** Serves a proxy (one `defineProxy` built, or built here from `hooks`) on stdin/stdout, as a conductor spawns it. */
export function serveProxyStdio(proxyOrHooks: ProxyHooks | DefinedProxy = {}, options: ConnectionOptions & NodeStreamOptions = {}): AgentConnection<TableTypes> {
  const conn = connectProxy(proxyOrHooks, nodeStreamTransport(process.stdin, process.stdout, { ...options, endWritable: false }), options);
  void conn.closed.then(() => {
    process.stdin.pause();
    process.stdin.unref?.();
  });
  return conn;
}
