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
import type { ConnectionOptions } from "../connection/options.ts";
import { nodeStreamTransport, type NodeStreamOptions } from "../transport/node.ts";
import type { Transport } from "../transport/transport.ts";
import { defineProxy, type ProxyHooks } from "./define.ts";
import { connectAgent } from "./generated/index.ts";
import type { AgentContext, TableTypes } from "./generated/handlers.ts";
import type { InitializeProxyRequest } from "./generated/types.ts";
import { passThrough, type PassThrough } from "./pass.ts";

export { defineProxy, type ProxyContext, type ProxyHook, type ProxyHookSet, type DefinedProxy, type ProxyHooks, type ProxyOutbound, type ProxySender } from "./define.ts";
export { conduct, type Conductor, type ConductOptions } from "./conductor.ts";
export { protocol, agentProtocol, clientProtocol, connectClient } from "./generated/index.ts";
export type * from "./generated/types.ts";
// The table's error codes (the value and its type), as every table entry exports them; a hook throws an RpcError to answer with an error.
export { ErrorCode, type ErrorCodeValue } from "./generated/errors.ts";
export { RpcError, type ErrorObject } from "../errors.ts";
export type * from "./generated/handlers.ts";
export type * from "./generated/peers.ts";

/** Serves a proxy built from `hooks` over `transport` (its conductor's connection). */
export function connectProxy(hooks: ProxyHooks, transport: Transport, options: ConnectionOptions = {}): AgentConnection<TableTypes> {
  const proxy = defineProxy(hooks);
  // What no hook wants goes on as a line (pass.ts), once the proxy's own initialize answered.
  const pass = passThrough(hooks, options);
  const handler = pass === undefined ? proxy.handler : { ...proxy.handler, initializeProxy: async (params: InitializeProxyRequest, ctx: AgentContext) => opened(await proxy.handler.initializeProxy(params, ctx), pass) };
  const conn = connectAgent(handler, pass === undefined ? transport : pass.wrap(transport), options);
  const untyped = conn as unknown as { request(wire: string, params: unknown, options?: object): Promise<unknown>; notify(wire: string, params: unknown): Promise<void> };
  proxy.attach({ request: (wire, params, o) => untyped.request(wire, params, o), notify: (wire, params) => untyped.notify(wire, params) });
  return conn;
}

const opened = <T>(answer: T, pass: PassThrough): T => {
  pass.opened();
  return answer;
};

/** Serves a proxy built from `hooks` on stdin/stdout, as a conductor spawns it. */
export function serveProxyStdio(hooks: ProxyHooks = {}, options: ConnectionOptions & NodeStreamOptions = {}): AgentConnection<TableTypes> {
  const conn = connectProxy(hooks, nodeStreamTransport(process.stdin, process.stdout, { ...options, endWritable: false }), options);
  void conn.closed.then(() => {
    process.stdin.pause();
    process.stdin.unref?.();
  });
  return conn;
}
