/**
 * What the conductor routes by, read once off the rows of the proxy table and
 * of its base (the unstable table the last component, an agent, speaks): no
 * method name is written into the conductor's routing.
 */
import type { Protocol } from "../protocol.ts";
import type { Row } from "../row.ts";

/** The wires and facts the conductor's routing reads (see {@link chainRows}). */
export interface ChainRows {
  /** The hop-local cancel (`$/cancel_request`): the notification row of the protocol layer. */
  readonly cancel: string;
  /** The agent's initialize: the base table's row with lifecycle `initialize`. */
  readonly initialize: string;
  /** What a component with a successor gets instead: the proxy table's row with lifecycle `initialize` (`proxy/initialize`). */
  readonly proxyInitialize: string;
  /** The envelope (`proxy/successor`): the row with the `envelope` column. */
  readonly envelope: string;
  /** The wires only conductors and proxies speak (the proxy table's own rows): a client of a conductor never sends them. */
  readonly proxyOnly: ReadonlySet<string>;
  /** The requests that open a session (lifecycle `opens_session`): where MCP servers are declared. */
  readonly opensSession: ReadonlySet<string>;
  /** MCP over ACP: the wire (`mcp/message`, the client's request gated by the caller's capability) and that capability's path under the agent's capabilities. */
  readonly mcp: { readonly wire: string; readonly capability: readonly string[] } | undefined;
  /** The field of the initialize answer that carries the agent's capabilities. */
  readonly agentCapabilities: string;
  /** The session-wide cancel (`session/cancel`): the agent's row of the session-control layer. */
  readonly sessionCancel: string;
  /** The requests a session cancel ends with an answer (the agent's requests with an `onCancel` result: `session/prompt`). */
  readonly turns: ReadonlySet<string>;
}

const all = (p: Protocol): Row<never, never>[] => [...p.rows.agent, ...p.rows.client];

/** Reads the {@link ChainRows} off the proxy protocol and its base's; throws when a row the conductor needs is missing. */
export function chainRows(proxy: Protocol, base: Protocol): ChainRows {
  const need = (what: string, row: Row<never, never> | undefined): string => {
    if (row === undefined) throw new TypeError(`conduct: the proxy table has no ${what} row`);
    return row.wire;
  };
  const baseWires = new Set(all(base).map((r) => r.wire));
  const mcpRow = base.rows.client.find((r) => r.kind === "request" && r.callerCapability !== undefined && r.callerCapability.join(".") === "mcpCapabilities.acp");
  return {
    cancel: need(
      "protocol-layer notification",
      base.rows.agent.find((r) => r.layer === "protocol" && r.kind === "notification"),
    ),
    initialize: need(
      "initialize",
      base.rows.agent.find((r) => r.lifecycle === "initialize" && r.kind === "request"),
    ),
    proxyInitialize: need(
      "proxy initialize",
      proxy.rows.agent.find((r) => r.lifecycle === "initialize" && r.kind === "request"),
    ),
    envelope: need(
      "envelope",
      all(proxy).find((r) => r.envelope === true),
    ),
    proxyOnly: new Set(
      all(proxy)
        .filter((r) => !baseWires.has(r.wire))
        .map((r) => r.wire),
    ),
    opensSession: new Set(base.rows.agent.filter((r) => r.lifecycle === "opens_session" && r.kind === "request").map((r) => r.wire)),
    mcp: mcpRow === undefined ? undefined : { wire: mcpRow.wire, capability: mcpRow.callerCapability as readonly string[] },
    agentCapabilities: base.capabilityFields.result,
    sessionCancel: need(
      "session-control",
      base.rows.agent.find((r) => r.layer === "session_control"),
    ),
    turns: new Set(base.rows.agent.filter((r) => r.kind === "request" && r.onCancel !== undefined).map((r) => r.wire)),
  };
}
