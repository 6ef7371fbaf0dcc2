/**
 * The components of a chain as the conductor starts them: a command in a
 * process of its own (`spawnAgent`: its own process group, ended with the
 * conductor), or a proxy hosted in the conductor's own process.
 *
 * A hosted proxy is served by its own proxy connection (`connectProxy`) on
 * one end of an in-memory pair that passes text, never bytes; the conductor
 * reads and writes the other end like any component's stream, so its
 * routing, ids, cancellation, diagnostics and taps are the same for both.
 * What the proxy passes verbatim (`verbatim.ts`) the conductor carries past
 * it to the next component without handing it over at all (`chain.ts`).
 *
 * Faults stay in their hop: a hook that throws or rejects with anything but
 * an `RpcError` answers its request with `-32603` "Internal error in proxy
 * NAME" (data `{ proxy: NAME }`), the error itself going to the conductor's
 * diagnostics; the chain keeps serving. A hosted proxy shares the
 * conductor's event loop: a CPU-bound hook stalls every hop, so such a proxy
 * belongs in a process of its own (docs/proxy.md).
 */
import type { ConnectionOptions } from "../connection/options.ts";
import { RpcError } from "../errors.ts";
import type { ProcessExit } from "../transport/process.ts";
import { memoryPair } from "../transport/memory.ts";
import { spawnAgent, type SpawnAgentOptions } from "../transport/stdio.ts";
import type { AnyHook, DefinedProxy, ProxyHooks } from "./hooks.ts";
import { connectProxy } from "./connect-proxy.ts";
import type { Component } from "./chain.ts";
import { proxyRows } from "./rows.ts";
import { passesVerbatim, passPolicy } from "./verbatim.ts";

/** A proxy the conductor runs in its own process. */
export interface HostedProxy {
  /** The proxy (`defineProxy(hooks)`); the conductor serves one of its own built from its hooks. */
  readonly proxy: DefinedProxy;
  /** Its name in errors and diagnostics (default: `proxy N`, N its place in the chain). */
  readonly name?: string | undefined;
  /** The options its connection is served with (`tracing`, limits, …). */
  readonly options?: ConnectionOptions | undefined;
}

/** A component as the conductor gives it: a command and its arguments, or a hosted proxy. */
export type ComponentSpec = readonly string[] | HostedProxy;

/** Whether `spec` is a hosted proxy rather than a command. */
export const isHosted = (spec: ComponentSpec): spec is HostedProxy => !Array.isArray(spec);

/** Starts component `index` of a chain. */
export function startComponent(spec: ComponentSpec, index: number, spawn: SpawnAgentOptions | undefined, diagnostic: (message: string) => void): Component {
  if (isHosted(spec)) return hostProxy(spec, spec.name ?? `proxy ${index}`, diagnostic);
  const [command, ...args] = spec;
  if (command === undefined) throw new TypeError(`conduct: component ${index} has no command`);
  const agent = spawnAgent(command, args, { stderr: "inherit", ...spawn });
  return { name: `component ${index} (${spec.join(" ")})`, transport: agent.transport, exited: agent.exited, hosted: false, passes: undefined };
}

/** Serves `hosted` in this process; the component's name is `name`. */
function hostProxy(hosted: HostedProxy, name: string, diagnostic: (message: string) => void): Component {
  const options = hosted.options ?? {};
  const hooks = faultsNamed(hosted.proxy.hooks, name, diagnostic);
  const [conductorEnd, proxyEnd] = memoryPair({ strings: true });
  const conn = connectProxy(hooks, proxyEnd, options);
  const exited = conn.closed.then((): ProcessExit => ({ code: 0, signal: null }));
  const policy = passPolicy(hooks, options);
  // A session's cancel goes past it when what the predecessor sends does (its pass-through path forwards it once per running turn).
  const passes = policy === undefined ? undefined : (toAgent: boolean, method: string) => (toAgent && method === proxyRows.sessionCancel ? policy.fromPredecessor : passesVerbatim(policy, toAgent ? "fromPredecessor" : "fromSuccessor", method));
  return { name, transport: conductorEnd, exited, hosted: true, passes };
}

/** `hooks` with each one's failures (anything but an `RpcError`) answered as an internal error naming the proxy. */
function faultsNamed(hooks: ProxyHooks, name: string, diagnostic: (message: string) => void): ProxyHooks {
  const wrap = (set: object | undefined) => {
    if (set === undefined) return undefined;
    const out: Record<string, AnyHook | undefined> = {};
    for (const [method, hook] of Object.entries(set as Record<string, AnyHook | undefined>)) {
      out[method] =
        hook === undefined
          ? undefined
          : async (params, ctx) => {
              try {
                return await hook(params, ctx);
              } catch (error) {
                if (error instanceof RpcError) throw error;
                diagnostic(`${name}: its ${method} hook failed: ${error instanceof Error ? error.message : String(error)}`);
                throw RpcError.internal(`Internal error in proxy ${name}`, { proxy: name });
              }
            };
    }
    return out;
  };
  return { fromClient: wrap(hooks.fromClient), fromAgent: wrap(hooks.fromAgent) } as ProxyHooks;
}
