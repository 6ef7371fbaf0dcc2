/**
 * One protocol surface as a value: what a generated folder exports (its
 * `protocol`) and what everything that serves or speaks ACP takes — the
 * connection, `serveProtocolStdio`, the remote server, the version router and the
 * client connector. Data (version, rows, row lookups, leniency graph,
 * capability field names, error codes, peer factories) plus phantom types
 * (handler interfaces, peers, capability types), so the runtime is generic
 * over it and never imports a table.
 */
import type { PeerCaller } from "./peer-caller.ts";
import type { Row, Router } from "./row.ts";
import type { LeniencyGraph } from "./validation/leniency.ts";

/**
 * The types a table's generated code fills in; the runtime reads them off a
 * {@link Protocol} (`ProtocolTypes` itself is the widest: any table).
 */
export interface ProtocolTypes {
  readonly agentHandler: object;
  readonly clientHandler: object;
  /** Typed proxy for calling the agent (what a client's connection offers as `.agent`). */
  readonly agentPeer: object;
  /** Typed proxy for calling the client. */
  readonly clientPeer: object;
  readonly agentCapabilities: object;
  readonly clientCapabilities: object;
  /** Requests the agent handles: wire → `{ params; result }`. */
  readonly agentMethods: object;
  /** Notifications the agent handles: wire → params. */
  readonly agentNotifications: object;
  readonly clientMethods: object;
  readonly clientNotifications: object;
  /** Per capability-gated agent method: callback name → capability path (a tuple type). */
  readonly agentGates: object;
  /** The field of `initialize`'s result that carries the agent's capabilities (`"agentCapabilities"`, v2 `"capabilities"`). */
  readonly agentCapabilitiesField: string;
}

/** The two row lookups of one handling side: switches on the wire string, so `"__proto__"` is just unknown. */
export interface RowLookups {
  readonly request: (wire: string) => Row<never, never> | undefined;
  readonly notification: (wire: string) => Row<never, never> | undefined;
}

/** What a generated folder passes to {@link defineProtocol}: its data. */
export interface ProtocolSpec<T extends ProtocolTypes> {
  /** The ACP protocol version of the table (`initialize`'s `protocolVersion`). */
  readonly version: number;
  /** A short name for messages and tools: `"v1"`, `"v1-unstable"`, `"v2"`, or a user table's. */
  readonly name: string;
  /**
   * Every row each side handles, in table order.
   * @internal
   */
  readonly rows: Router["rows"];
  /**
   * Row lookups per handling side.
   * @internal
   */
  readonly lookup: { readonly agent: RowLookups; readonly client: RowLookups };
  /** The schema's lenient locations. */
  readonly leniency: LeniencyGraph;
  /** The fields of `initialize`'s params and result that carry the client's and the agent's capabilities. */
  readonly capabilityFields: { readonly params: string; readonly result: string };
  /** The error codes the table's schema names (`ErrorCode` in the schema), by name. */
  readonly errorCodes: Readonly<Record<string, number>>;
  /**
   * Builds the typed proxy for calling each side over a connection's outbound side.
   * @internal
   */
  readonly peers: { readonly agent: (caller: PeerCaller) => T["agentPeer"]; readonly client: (caller: PeerCaller) => T["clientPeer"] };
}

/**
 * One table as the runtime takes it. Satisfies `Router` (row lookups,
 * result markers, leniency, rows), so a connection needs nothing else.
 */
export interface Protocol<T extends ProtocolTypes = ProtocolTypes> extends ProtocolSpec<T>, Router {
  /** Phantom: never set at run time; carries the table's types. */
  readonly types?: T;
}

/** The types carried by a protocol value. */
export type TypesOf<P> = P extends Protocol<infer T> ? T : never;

/**
 * Builds a table's protocol value from its generated data: adds the
 * lookups every table shares (`inboundRow`, `resultMarker`), so none is
 * printed per table. Called once per generated folder.
 * @internal
 */
export function defineProtocol<T extends ProtocolTypes>(spec: ProtocolSpec<T>): Protocol<T> {
  const { agent, client } = spec.lookup;
  const inboundRow: Router["inboundRow"] = (side, kind, wire) => {
    const lookups = side === "agent" ? agent : client;
    return kind === "request" ? lookups.request(wire) : lookups.notification(wire);
  };
  return {
    ...spec,
    inboundRow,
    // How the sender decodes the answer to `wire` sent to `peerSide`: the row whose result validator applies.
    resultMarker: (peerSide, wire) => (peerSide === "agent" ? agent : client).request(wire),
  };
}
