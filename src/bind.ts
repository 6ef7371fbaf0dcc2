/**
 * The typed entry points every table shares, generic over its protocol:
 * `createAgentConnection` / `createClientConnection`, the type-level
 * "advertised ⇒ handled" check of `defineAgent`, and `bindProtocol`, which
 * fixes them to one table (each generated folder's `connectAgent`,
 * `connectClient` and `defineAgent` are `bindProtocol(protocol)`).
 */
import { argumentError, checkHandler, checkOptions, checkProtocol, checkTransport } from "./arguments.ts";
import { openConnection, type Connection } from "./connection/connect.ts";
import type { ConnectionOptions } from "./connection/options.ts";
import type { Protocol, ProtocolTypes } from "./protocol.ts";
import type { Transport } from "./transport/transport.ts";

/** An agent's connection: `client` calls the client. */
export interface AgentConnection<T extends ProtocolTypes = ProtocolTypes> extends Connection<T["clientMethods"], T["clientNotifications"], T["agentCapabilities"], T["clientCapabilities"]> {
  readonly client: T["clientPeer"];
}

/** A client's connection: `agent` calls the agent. */
export interface ClientConnection<T extends ProtocolTypes = ProtocolTypes> extends Connection<T["agentMethods"], T["agentNotifications"], T["agentCapabilities"], T["clientCapabilities"]> {
  readonly agent: T["agentPeer"];
}

const CREATE_AGENT = "createAgentConnection(protocol, handler, transport, options?)";
const CREATE_CLIENT = "createClientConnection(protocol, handler, transport, options?)";
const CONNECT_AGENT = "connectAgent(handler, transport, options?)";
const CONNECT_CLIENT = "connectClient(handler, transport, options?)";

/** The checks every connect shares (the protocol is checked by the caller, or fixed by `bindAgent` / `bindClient`). */
function checkConnectArguments(signature: string, side: "agent" | "client", handler: unknown, transport: unknown, options: unknown): void {
  checkHandler(signature, "handler", side, handler);
  checkTransport(signature, "transport", transport);
  checkOptions(signature, "options", options);
}

/**
 * Serves `handler` as an ACP agent over `transport`, routed by `protocol`'s
 * table: its whole `protocol` or its `agentProtocol` (the agent's half, which
 * keeps the client's validators out of a bundle).
 */
export function createAgentConnection<T extends ProtocolTypes>(protocol: Protocol<T>, handler: T["agentHandler"], transport: Transport, options: ConnectionOptions = {}): AgentConnection<T> {
  checkProtocol(CREATE_AGENT, "protocol", protocol);
  assertSide(CREATE_AGENT, protocol, "agent");
  checkConnectArguments(CREATE_AGENT, "agent", handler, transport, options);
  return agentConnection(protocol, handler, transport, options);
}

function agentConnection<T extends ProtocolTypes>(protocol: Protocol<T>, handler: T["agentHandler"], transport: Transport, options: ConnectionOptions = {}): AgentConnection<T> {
  const { connection, peer } = openConnection<T["clientPeer"], AgentConnection<T>>(protocol as Protocol, "agent", handler, transport, options);
  return Object.assign(connection, { client: peer });
}

/**
 * Serves `handler` as an ACP client over `transport`, routed by `protocol`'s
 * table (its whole `protocol` or its `clientProtocol`); call the agent through `.agent`.
 */
export function createClientConnection<T extends ProtocolTypes>(protocol: Protocol<T>, handler: T["clientHandler"], transport: Transport, options: ConnectionOptions = {}): ClientConnection<T> {
  checkProtocol(CREATE_CLIENT, "protocol", protocol);
  assertSide(CREATE_CLIENT, protocol, "client");
  checkConnectArguments(CREATE_CLIENT, "client", handler, transport, options);
  return clientConnection(protocol, handler, transport, options);
}

function clientConnection<T extends ProtocolTypes>(protocol: Protocol<T>, handler: T["clientHandler"], transport: Transport, options: ConnectionOptions = {}): ClientConnection<T> {
  const { connection, peer } = openConnection<T["agentPeer"], ClientConnection<T>>(protocol as Protocol, "client", handler, transport, options);
  return Object.assign(connection, { agent: peer });
}

/**
 * Throws a `TypeError` naming `fn` when `protocol` is the other side's half
 * of a table (which lacks the validators `side` decodes); the whole table and
 * `side`'s half pass.
 * @internal
 */
export function assertSide(signature: string, protocol: Protocol, side: "agent" | "client"): void {
  if (protocol.side === undefined || protocol.side === side) return;
  throw argumentError(signature, "protocol", `the ${protocol.name} table's whole protocol or its ${side}Protocol`, protocol, `That half decodes only what the ${protocol.side} receives; pass the table's ${side}Protocol (or its protocol).`);
}

/**
 * True when capabilities of type `C` certainly advertise the value at
 * `Path`: present, and never possibly `false`, `null` or absent. A wide type
 * (`boolean`, an optional member) is not certain: only the answer can tell.
 */
export type Certain<C, Path> = Path extends readonly [infer K extends string, ...infer Rest] ? (C extends { readonly [P in K]: infer V } ? Certain<V, Rest> : false) : [Extract<C, false | null | undefined>] extends [never] ? true : false;

/**
 * The handler methods that capabilities of type `C` require, given a table's
 * gates (callback name → capability path): one per gated method whose
 * capability `C` certainly advertises. A union `C` requires what any member does.
 */
export type RequiredMethods<Gates, C> = C extends unknown ? { [K in keyof Gates]: Certain<C, Gates[K]> extends true ? K : never }[keyof Gates] : never;

/** The agent capabilities an agent handler's `initialize` answers with, as precisely as its return type states them. */
export type AgentCapabilitiesOf<T extends ProtocolTypes, H> = H extends {
  /** The handler's `initialize`, whose answer carries the capabilities. */
  initialize(...args: never[]): infer R;
}
  ? Awaited<R> extends { readonly [K in T["agentCapabilitiesField"]]?: infer C }
    ? C
    : never
  : never;

/** `H`, with every method its advertised capabilities require made mandatory (the check `defineAgent` applies). */
export type CheckedAgent<T extends ProtocolTypes, H> = H & { [K in RequiredMethods<T["agentGates"], AgentCapabilitiesOf<T, H>> & keyof T["agentHandler"]]-?: NonNullable<T["agentHandler"][K]> };

/** One table's typed entry points: the types of each generated folder's `connectAgent`, `connectClient` and `defineAgent`. */
export interface BoundProtocol<T extends ProtocolTypes> {
  /** Serves `handler` as an ACP agent over `transport`, routed by this table. */
  connectAgent(handler: T["agentHandler"], transport: Transport, options?: ConnectionOptions): AgentConnection<T>;
  /** Serves `handler` as an ACP client over `transport`, routed by this table; call the agent through `.agent`. */
  connectClient(handler: T["clientHandler"], transport: Transport, options?: ConnectionOptions): ClientConnection<T>;
  /**
   * Returns `handler` unchanged, and fails to compile when its `initialize`
   * advertises a capability whose method the handler lacks (`loadSession: true`
   * without `loadSession`; v2 `capabilities: { session: {} }` without
   * `newSession`): the error names the missing method. Only what the return
   * type states is checked — write the capabilities as literals in
   * `initialize`; a value typed `boolean` is checked at run time instead (the
   * connection reports a `missing_handler` diagnostic at `initialize`).
   */
  defineAgent<const H extends T["agentHandler"]>(handler: CheckedAgent<T, H>): H;
}

/**
 * Fixes the shared entry points to one table: what each generated folder
 * exports as `connectAgent`, `connectClient` and `defineAgent`.
 * @internal
 */
export function bindProtocol<T extends ProtocolTypes>(protocol: Protocol<T>): BoundProtocol<T> {
  checkProtocol("bindProtocol(protocol)", "protocol", protocol);
  return {
    connectAgent(handler, transport, options) {
      checkConnectArguments(CONNECT_AGENT, "agent", handler, transport, options);
      return agentConnection(protocol, handler, transport, options);
    },
    connectClient(handler, transport, options) {
      checkConnectArguments(CONNECT_CLIENT, "client", handler, transport, options);
      return clientConnection(protocol, handler, transport, options);
    },
    defineAgent: (handler) => handler,
  };
}

/**
 * `connectAgent` of one table, fixed to `protocol` (its `agentProtocol`):
 * what each generated folder exports, one side per binder so an agent's
 * bundle never names the client's half.
 * @internal
 */
export function bindAgent<T extends ProtocolTypes>(protocol: Protocol<T>): BoundProtocol<T>["connectAgent"] {
  checkProtocol("bindAgent(protocol)", "protocol", protocol);
  assertSide("bindAgent(protocol)", protocol, "agent");
  return (handler, transport, options = {}) => {
    checkConnectArguments(CONNECT_AGENT, "agent", handler, transport, options);
    return agentConnection(protocol, handler, transport, options);
  };
}

/** `connectClient` of one table, fixed to `protocol` (its `clientProtocol`). @internal */
export function bindClient<T extends ProtocolTypes>(protocol: Protocol<T>): BoundProtocol<T>["connectClient"] {
  checkProtocol("bindClient(protocol)", "protocol", protocol);
  assertSide("bindClient(protocol)", protocol, "client");
  return (handler, transport, options = {}) => {
    checkConnectArguments(CONNECT_CLIENT, "client", handler, transport, options);
    return clientConnection(protocol, handler, transport, options);
  };
}
