/**
 * acp-router/versions: one agent process for several protocol versions.
 * `routeAgent` reads a transport until the client's `initialize`, selects the
 * highest configured version at or below the requested one (as the reference
 * SDK's `agentProtocolRouter`), and opens that version's connection on it.
 * `negotiateClient` does the same from the client's side: it offers v2 and
 * falls back to v1 when the agent answers v1. Both take each version as its
 * table's `protocol` value with a handler (`{ protocol, handler }`) and one
 * `ConnectionOptions` object shared by the router and the connections, and
 * import no method table: the protocols come from `acp-router` (v1) and
 * `acp-router/v2`.
 *
 * @module
 */
export { routeAgent, type AgentRoute, type AgentRoutes, type RouteAgentOptions, type Routed } from "./route-agent.ts";
export { negotiateClient, type ClientVersion, type ClientVersions, type InitializeAnswerOf, type InitializeParamsOf, type Negotiated, type NegotiateClientOptions } from "./negotiate-client.ts";
export { negotiate, rewrite, select, UNKNOWN_IMPLEMENTATION, type Negotiation, type RoutedVersion } from "./negotiate.ts";
