/**
 * The ACP v1 **unstable** method table: every row of the stable table
 * (`method-table.ts`) plus the methods that `schema/v1/schema.unstable.json`
 * of the pinned SDK adds. `npm run codegen` turns it into
 * `src/unstable/generated/`, served by the opt-in entry `acp-router/unstable`;
 * the default entry never loads it.
 *
 * The table extends the stable table ({@link base}) over a superset schema:
 * codegen prints into `src/unstable/generated/` only the rows and types the
 * unstable schema adds or defines otherwise, and imports the rest from
 * `src/generated/`.
 *
 * Capabilities follow the schema, not the prose: `session/fork` is gated by
 * `sessionCapabilities.fork` (the request's description says `session.fork`).
 *
 * `proxy/initialize` and `proxy/successor` are not rows: the schema puts them
 * outside the client/agent unions, in a third union spoken between a conductor
 * and its proxies. A proxy is a client of its successor and an agent to its
 * predecessor; build one from `connectClient` and `connectAgent` (or an
 * extension table with those two rows) rather than from this table, whose two
 * sides are an agent and a client.
 */
import * as stableTable from "../method-table.ts";
import type { MethodRow, SchemaSource } from "../method-table.ts";

export type { MethodRow, SchemaSource } from "../method-table.ts";

/** The pinned ACP schema this table is checked against: `@agentclientprotocol/sdk` 2.4.0, `schema/v1/schema.unstable.json`. */
export const schemaSource: SchemaSource = {
  package: "@agentclientprotocol/sdk",
  version: "2.4.0",
  file: "schema/v1/schema.unstable.json",
  sha256: "ce7881d10c854bcac4f0e7d3a9ce4fb0f612ec0a09e64b572940beec4668c189",
};

/** The table this one extends: the stable v1 table, whose schema is a subset of this one's. */
export const base = stableTable;

const stable = stableTable.methods;

/** The rows the unstable schema adds to the stable table. */
export const unstableMethods: readonly MethodRow[] = [
  // ── handled by the agent ──────────────────────────────────────────────
  // auth/status answers even when authentication is required: clients call it to learn that (schema: MUST NOT reject with -32000).
  { wire: "auth/status", side: "agent", kind: "request", callback: "authStatus", params: "AuthStatusRequest", result: "AuthStatusResponse", capability: ["auth", "status"], layer: "app" },
  // Provider configuration needs no authentication: choosing a provider may be how a client gets credentials at all.
  { wire: "providers/list", side: "agent", kind: "request", callback: "listProviders", params: "ListProvidersRequest", result: "ListProvidersResponse", capability: ["providers"], layer: "app" },
  { wire: "providers/set", side: "agent", kind: "request", callback: "setProvider", params: "SetProviderRequest", result: "SetProviderResponse", capability: ["providers"], layer: "app" },
  { wire: "providers/disable", side: "agent", kind: "request", callback: "disableProvider", params: "DisableProviderRequest", result: "DisableProviderResponse", capability: ["providers"], layer: "app" },
  { wire: "session/fork", side: "agent", kind: "request", callback: "forkSession", params: "ForkSessionRequest", result: "ForkSessionResponse", capability: ["sessionCapabilities", "fork"], layer: "app", auth: true, lifecycle: "opens_session" },
  // Archiving an active session cancels its work "as if session/close had been called".
  { wire: "session/archive", side: "agent", kind: "request", callback: "archiveSession", params: "ArchiveSessionRequest", result: "ArchiveSessionResponse", capability: ["sessionCapabilities", "archive"], layer: "app", auth: true, cancelsSession: true, lifecycle: "closes_session" },
  { wire: "session/unarchive", side: "agent", kind: "request", callback: "unarchiveSession", params: "UnarchiveSessionRequest", result: "UnarchiveSessionResponse", capability: ["sessionCapabilities", "archive"], layer: "app", auth: true },
  { wire: "session/status", side: "agent", kind: "request", callback: "sessionStatus", params: "SessionStatusRequest", result: "SessionStatusResponse", capability: ["sessionCapabilities", "status"], layer: "app", auth: true },
  { wire: "session/set_title", side: "agent", kind: "request", callback: "setSessionTitle", params: "SetSessionTitleRequest", result: "SetSessionTitleResponse", capability: ["sessionCapabilities", "title"], layer: "app", auth: true },
  // mcp/message: the client, hosting an `acp` MCP server, sends its notifications to the agent.
  { wire: "mcp/message", side: "agent", kind: "notification", callback: "mcpMessage", params: "MessageMcpNotification", capability: ["mcpCapabilities", "acp"], counterpart: "request", layer: "app" },

  // ── handled by the client ─────────────────────────────────────────────
  // mcp/message: the agent calls an `acp` MCP server the client hosts; only an agent that advertised mcpCapabilities.acp may.
  { wire: "mcp/message", side: "client", kind: "request", callback: "mcpMessage", params: "MessageMcpRequest", result: "MessageMcpResponse", callerCapability: ["mcpCapabilities", "acp"], counterpart: "notification", layer: "app" },
  { wire: "auth/status_update", side: "client", kind: "notification", callback: "authStatusUpdate", params: "AuthStatusUpdateNotification", callerCapability: ["auth", "status"], layer: "app" },
];

/** Every row of the unstable surface: the stable table's, then {@link unstableMethods}. */
export const methods: readonly MethodRow[] = [...stable, ...unstableMethods];
