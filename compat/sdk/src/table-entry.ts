/**
 * What every table entry (`.`, `/unstable`, `/experimental/v2`, `/experimental/v2/unstable`)
 * builds the same way, from its table's two halves: the SDK's app classes bound to the table
 * (`AgentApp`, `ClientApp`) and their factories (`agent()`, `client()`). An entry adds its own
 * names (the schema's types, its methods and constants, its extras) around them.
 */
import type { Protocol, ProtocolTypes } from "acp-router/runtime";
import { AgentApp as BaseAgentApp, ClientApp as BaseClientApp } from "./sides.ts";
import type { AppOptions } from "./wire-types.ts";

/** One table's app classes (constructors of the shared classes bound to the table) and factories. */
export interface TableApps<T extends ProtocolTypes> {
  readonly AgentApp: new (options?: AppOptions) => BaseAgentApp<T>;
  readonly ClientApp: new (options?: AppOptions) => BaseClientApp<T>;
  readonly agent: (options?: AppOptions) => BaseAgentApp<T>;
  readonly client: (options?: AppOptions) => BaseClientApp<T>;
}

/** The app classes and factories of one table (`agentProtocol` and `clientProtocol` are its halves). */
export function tableApps<T extends ProtocolTypes>(agentProtocol: Protocol, clientProtocol: Protocol): TableApps<T> {
  /** An ACP agent built from handlers by method, on this table. */
  class AgentApp extends BaseAgentApp<T> {
    constructor(options?: AppOptions) {
      super(agentProtocol, options);
    }
  }
  /** An ACP client built from handlers by method, on this table. */
  class ClientApp extends BaseClientApp<T> {
    constructor(options?: AppOptions) {
      super(clientProtocol, options);
    }
  }
  return {
    AgentApp,
    ClientApp,
    /** A new agent app. */
    agent: (options) => new AgentApp(options),
    /** A new client app. */
    client: (options) => new ClientApp(options),
  };
}
