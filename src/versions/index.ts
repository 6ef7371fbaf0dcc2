/**
 * acp-router/versions: one agent process for several protocol versions.
 * `routeAgent` reads a transport until the client's `initialize`, selects the
 * highest configured version at or below the requested one (as the reference
 * SDK's `agentProtocolRouter`), and hands the transport to that version's
 * connection. `negotiateClient` does the same from the client's side: it
 * offers v2 and falls back to v1 when the agent answers v1. Imports no method
 * table: pass `connectAgent` / `connectClient` from `acp-router` (v1) and from
 * `acp-router/v2`.
 *
 * @module
 */
export { routeAgent, type AgentRoutes, type RouteAgentOptions, type Routed } from "./route-agent.ts";
export { negotiateClient, type AnyClient, type ClientVersion, type ClientVersions, type InitializeAnswerOf, type InitializeParamsOf, type Negotiated, type NegotiateClientOptions, type VersionClient } from "./negotiate-client.ts";
export { negotiate, rewrite, select, UNKNOWN_IMPLEMENTATION, type Negotiation, type ProtocolVersion } from "./negotiate.ts";
