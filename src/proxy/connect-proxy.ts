/**
 * Serving a proxy on a stream: its handler (`define.ts`) on the proxy table's
 * agent side, with the pass-through path (`pass.ts`) in front of it once its
 * own initialize answered.
 */
import type { AgentConnection } from "../bind.ts";
import type { ConnectionOptions } from "../connection/options.ts";
import type { Transport } from "../transport/transport.ts";
import { defineProxy, type DefinedProxy, type ProxyHooks } from "./define.ts";
import { connectAgent } from "./generated/index.ts";
import type { AgentContext, TableTypes } from "./generated/handlers.ts";
import type { InitializeProxyRequest } from "./generated/types.ts";
import { passThrough, type PassThrough } from "./pass.ts";

/** Whether `value` is a proxy `defineProxy` built (rather than the hooks to build one from). */
export const isDefinedProxy = (value: ProxyHooks | DefinedProxy): value is DefinedProxy => "handler" in value && "attach" in value && "hooks" in value;

/** Serves a proxy (one `defineProxy` built, or built here from `hooks`) over `transport` (its conductor's connection). */
export function connectProxy(proxyOrHooks: ProxyHooks | DefinedProxy, transport: Transport, options: ConnectionOptions = {}): AgentConnection<TableTypes> {
  const proxy = isDefinedProxy(proxyOrHooks) ? proxyOrHooks : defineProxy(proxyOrHooks);
  const hooks = proxy.hooks;
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
