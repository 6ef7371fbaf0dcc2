/**
 * What every v1 entry exports besides its table: `agent()` / `client()` bound
 * to a protocol, and the pieces that do not depend on one.
 */
import type { Protocol } from "../../../src/protocol.ts";
import { AgentApp, ClientApp } from "./sides.ts";
import type { AppOptions } from "./wire-types.ts";

/** `agent(options?)` and `client(options?)` over `agentProtocol` / `clientProtocol`. */
export function bindApps(agentProtocol: Protocol, clientProtocol: Protocol): { agent(options?: AppOptions): AgentApp; client(options?: AppOptions): ClientApp } {
  return {
    agent: (options?: AppOptions) => new AgentApp(agentProtocol, options),
    client: (options?: AppOptions) => new ClientApp(clientProtocol, options),
  };
}
