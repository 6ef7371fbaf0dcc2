/**
 * One protocol surface as a value: what a generated folder exports (its
 * `protocol`) and what everything that serves or speaks ACP takes — the
 * connection, `serveProtocolStdio`, the remote server, the version router and the
 * client connector. Data (version, rows, row lookups, leniency graph,
 * capability field names, error codes, peer factories) plus phantom types
 * (handler interfaces, peers, capability types), so the runtime is generic
 * over it and never imports a table.
 *
 * Each generated folder exports three such values:
 *
 * - `protocol` (`protocol.ts`): the whole table, both sides' rows with both
 *   validators each. For what sees both directions: the tools, the version
 *   router, the remote server, a program that is agent and client at once.
 * - `agentProtocol` (`agent.ts`): the agent's half. The rows the agent handles
 *   in full (params validator, `invoke`, gates, lifecycle), the client's rows
 *   as routing data only (layer, gates, columns, line prefix) plus, for the
 *   requests the agent sends, the result validator; the leniency graph of the
 *   types the agent decodes; the factory of the client peer. Every validator
 *   the client decodes (the params of client-handled rows, the results of
 *   agent-handled requests) is {@link notDecodedHere} in it.
 * - `clientProtocol` (`client.ts`): the same for the client.
 *
 * The halves are separate module-level values in separate files, so a bundle
 * that reaches only `agentProtocol` (`serveStdio(handler)`, `connectAgent`)
 * leaves the client's validators, rows and peer out. A half serves
 * connections of its own side only: `createClientConnection(agentProtocol, …)`
 * throws a `TypeError`.
 */
import type { PeerCaller } from "./peer-caller.ts";
import type { Row } from "./row.ts";
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
  /** A short name for messages and tools: `"v1"`, `"v1-unstable"`, `"v2"`, `"v2-unstable"`, `"v1-proxy"`, or a user table's. */
  readonly name: string;
  /**
   * Which half of the table this value is (`agentProtocol`: `"agent"`), or
   * undefined for the whole table. A half decodes only what its side receives
   * (see the module comment) and serves only connections of its side.
   */
  readonly side?: "agent" | "client";
  /**
   * Every row each side handles, in table order.
   * @internal
   */
  readonly rows: { readonly agent: readonly Row<never, never>[]; readonly client: readonly Row<never, never>[] };
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
   * Builds the typed proxy for calling each side over a connection's outbound
   * side. A half has the one its side calls (the agent half: `client`).
   * @internal
   */
  readonly peers: { readonly agent?: (caller: PeerCaller) => T["agentPeer"]; readonly client?: (caller: PeerCaller) => T["clientPeer"] };
}

/**
 * One table (or one side's half of it) as the runtime takes it: its data,
 * row lookups and result markers, so a connection needs nothing else. The one
 * name for "a table" everywhere — there is no separate router type.
 */
export interface Protocol<T extends ProtocolTypes = ProtocolTypes> extends ProtocolSpec<T> {
  /**
   * The row `side` handles for an inbound message, or undefined for an unknown method.
   * A half of a table (`agentProtocol`, `clientProtocol`) answers for both sides, but the other
   * side's rows in it are routing data whose params are `notDecodedHere`, and its own requests'
   * results are too; its leniency graph covers only the types its side decodes.
   * @internal
   */
  inboundRow(side: "agent" | "client", kind: "request" | "notification", wire: string): Row<never, never> | undefined;
  /**
   * The row whose result validator decodes the answer to `wire` sent to `peerSide`.
   * @internal
   */
  resultMarker(peerSide: "agent" | "client", wire: string): Row<never, never> | undefined;
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
  const inboundRow: Protocol["inboundRow"] = (side, kind, wire) => {
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

/**
 * Builds the protocol value of a table that extends another table (the
 * proxy table extends the unstable one): its generated folder holds only
 * the rows it adds or changes, and this lays them over `base` (the base
 * folder's value of the same side, or its whole `protocol`). A row of
 * `spec.rows` replaces the base row of the same wire and kind, in place; the
 * others follow the base's rows, in table order. Each lookup asks the
 * extension's switch first, then the base's. The rest (name, leniency graph,
 * peers, capability fields, error codes) is the extension's own.
 * Called once per value of an extension's generated folder.
 * @internal
 */
export function extendProtocol<T extends ProtocolTypes>(base: Protocol, spec: ProtocolSpec<T>): Protocol<T> {
  if (base.side !== spec.side) throw new TypeError(`extendProtocol: the base is ${base.side ?? "the whole table"} but the extension is ${spec.side ?? "the whole table"}`);
  const rows = (side: "agent" | "client"): readonly Row<never, never>[] => {
    const own = spec.rows[side];
    const replaced = new Set<Row<never, never>>();
    const merged = base.rows[side].map((row) => {
      const over = own.find((r) => r.wire === row.wire && r.kind === row.kind);
      if (over === undefined) return row;
      replaced.add(over);
      return over;
    });
    return [...merged, ...own.filter((r) => !replaced.has(r))];
  };
  const chain = (own: RowLookups, under: RowLookups): RowLookups => ({
    request: (wire) => own.request(wire) ?? under.request(wire),
    notification: (wire) => own.notification(wire) ?? under.notification(wire),
  });
  return defineProtocol<T>({
    ...spec,
    rows: { agent: rows("agent"), client: rows("client") },
    lookup: { agent: chain(spec.lookup.agent, base.lookup.agent), client: chain(spec.lookup.client, base.lookup.client) },
  });
}

/**
 * Handler interface `H` with every method's context retyped to `C`: how an
 * extension table's handler takes over its base table's methods with its own
 * context (whose peer has the extension's methods too). Optional methods stay
 * optional.
 */
export type WithContext<H, C> = { [K in keyof H]: H[K] extends ((params: infer P, ctx: never) => infer R) | undefined ? (params: P, ctx: C) => R : H[K] };
