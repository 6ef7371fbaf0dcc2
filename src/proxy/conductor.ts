/**
 * The conductor of an ACP proxy chain (the Proxy Chains RFD): it starts each
 * component, a command in its own process group or a proxy hosted in this
 * process, and routes every message between them and its own peer, which
 * sees one ordinary agent.
 *
 *     peer ⇄ conductor ⇄ proxy 0 ⇄ … ⇄ proxy n-1 ⇄ agent
 *
 * - **Initialization**: `initialize` from the peer goes to component 0 as
 *   `proxy/initialize` when it has a successor, else as `initialize`; a
 *   proxy's `proxy/successor` carrying `initialize` goes on the same way.
 * - **Wrapping**: a proxy's `proxy/successor` is unwrapped and sent to its
 *   successor; what a component sends towards its predecessor (updates,
 *   permission requests, file reads) is wrapped in `proxy/successor` for the
 *   proxy before it, and goes to the peer unwrapped from component 0. Results
 *   and errors travel back unchanged. The envelope's `_meta` stays on its hop.
 * - **Ids**: every hop has its own ids; the conductor keeps, per hop, which
 *   of its own requests answers which incoming one (`1` and `"1"` apart).
 * - **Cancellation**: `$/cancel_request` names an id of its own hop; the
 *   conductor cancels its own forwarded request on the next hop (with that
 *   hop's id). `session/cancel` is an ordinary notification here.
 * - **Modes**: terminal (default; the peer is a client and the last
 *   component is an agent) or proxy (`mode: "proxy"`: the peer is an outer
 *   conductor, every component is a proxy, and the last one's successor is
 *   the outer chain, reached through `proxy/successor` on the peer's hop).
 * - **Failures**: a message the conductor cannot route is answered by the
 *   conductor itself on that hop (`-32700` not JSON, `-32600` not JSON-RPC,
 *   `-32602` a `proxy/successor` without `method`, `-32603` a successor that
 *   exited, naming it); the rest of the chain keeps serving. When a
 *   component exits, requests waiting on it are answered with that error.
 * - **Lifetime**: when the peer's stream ends, every component's stdin is
 *   closed and each group gets the usual grace, then SIGTERM, then SIGKILL
 *   (as `spawnAgent`); if this process dies, the groups die with it.
 * - **MCP-over-ACP**: for an agent without `mcpCapabilities.acp`, the
 *   conductor advertises it and bridges (`mcp-hook.ts`).
 *
 * The parts: `hop.ts` (a hop's framing, ids and own answers), `route.ts`
 * (where a message goes: a pure function of the chain and of the rows it
 * routes by), `mcp-hook.ts` (the MCP bridge, a hook at the agent's hop),
 * `chain.ts` (the wiring). This file binds them to the proxy table: the
 * method names above are read off its rows and its base's
 * (`chain-rows.ts`), never written into the routing.
 */
import type { SpawnAgentOptions } from "../transport/stdio.ts";
import { runChain, type ChainOptions, type Component, type Conductor } from "./chain.ts";
import { isHosted, startComponent, type ComponentSpec } from "./host.ts";
import { proxyRows } from "./rows.ts";

export type { Conductor } from "./chain.ts";

/** How to run a chain. */
export interface ConductOptions extends ChainOptions {
  /**
   * The components, in order: each a command and its arguments (a process of its own), or a
   * proxy hosted in this process (`{ proxy: defineProxy(hooks) }`: `host.ts`). The last is the
   * agent (terminal mode: a command) or a proxy (proxy mode).
   */
  readonly components: readonly ComponentSpec[];
  /** Spawn options for every component run as a process (cwd, env, stderr, grace). Default stderr: `inherit`. */
  readonly spawn?: SpawnAgentOptions | undefined;
}

/** Starts the chain's components and routes it; see the module comment. */
export function conduct(options: ConductOptions): Conductor {
  const { components } = options;
  if (components.length === 0) throw new TypeError("conduct: at least one component (the agent) is needed");
  if ((options.mode ?? "terminal") === "terminal" && isHosted(components[components.length - 1] as ComponentSpec)) throw new TypeError("conduct: the last component is the agent: a command, not a hosted proxy");
  const diagnostic = options.onDiagnostic ?? (() => {});
  const started: Component[] = components.map((spec, index) => startComponent(spec, index, options.spawn, diagnostic));
  return runChain(options, proxyRows, started);
}
