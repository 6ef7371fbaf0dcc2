/**
 * The conductor of an ACP proxy chain (the Proxy Chains RFD): it spawns each
 * component in its own process group and routes every message between them
 * and its own peer, which sees one ordinary agent.
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
import { runChain, type Conductor, type ConductOptions } from "./chain.ts";
import { proxyRows } from "./rows.ts";

export type { Conductor, ConductOptions } from "./chain.ts";

/** Spawns the chain and routes it; see the module comment. */
export function conduct(options: ConductOptions): Conductor {
  return runChain(options, proxyRows);
}
