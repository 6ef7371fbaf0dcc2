/**
 * The ACP v2 **unstable** method table: every row of the v2 table
 * (`tables/v2.ts`) plus the methods that `schema/v2/schema.unstable.json` of
 * the pinned SDK adds. `npm run codegen` turns it into
 * `src/v2/unstable/generated/`, served by the opt-in entry
 * `acp-router/v2/unstable`; neither the default entry nor `acp-router/v2`
 * loads it.
 *
 * The table extends the v2 table ({@link base}) over a superset schema: the
 * types the unstable schema defines as v2's (most of them) are imported from
 * `src/v2/generated/`; the ones it defines otherwise (`SessionCapabilities`
 * gains `fork`, `archive`, `status`, `title`; `AgentCapabilities` gains
 * `providers`; `session/update` gains variants), every type referring to
 * them, and the rows whose params or result is such a type are printed into
 * `src/v2/unstable/generated/` with the added rows.
 *
 * The added rows are the v1 unstable table's (`tables/v1-unstable.ts`), with
 * v2's capability paths: the session methods sit under the agent's
 * `capabilities.session` (`session.fork`, `session.archive`, …), the ACP MCP
 * transport under `session.mcp.acp`, and `auth.status` / `providers` as in v1.
 *
 * `proxy/initialize` and `proxy/successor` are not rows, for the reason
 * `tables/v1-unstable.ts` gives (a third union, between a conductor and its
 * proxies). The per-subagent `capabilities.cancel` of a child session
 * (`SubagentSessionCapabilities`) is not a gate yet: the schema types it, and
 * `session/cancel` stays the v2 table's connection-routed row.
 */
import * as v2Table from "./v2.ts";
import type { MethodRow, SchemaSource } from "./v2.ts";

export type { MethodRow, SchemaSource } from "./v2.ts";

/** The pinned ACP schema this table is checked against: `@agentclientprotocol/sdk` 2.4.0, `schema/v2/schema.unstable.json`. */
export const schemaSource: SchemaSource = {
  package: "@agentclientprotocol/sdk",
  version: "2.4.0",
  file: "schema/v2/schema.unstable.json",
  sha256: "49e10f8c1935854363ed5b176cc6560d856642ba5020c97d264d34de4b6f1b31",
};

/** The table this one extends: the v2 table, whose schema is a subset of this one's. */
export const base = v2Table;

const v2 = v2Table.methods;

/**
 * The rows the v2 unstable schema adds to the v2 table. Named apart from the
 * v1 unstable table's `unstableMethods` (`acp-router/table/unstable`), so the
 * two table entries export no name with two meanings.
 */
export const v2UnstableMethods: readonly MethodRow[] = [
  // ── handled by the agent ──────────────────────────────────────────────
  // auth/status answers even when authentication is required: clients call it to learn that (schema: MUST NOT reject with -32000).
  { wire: "auth/status", side: "agent", kind: "request", callback: "authStatus", params: "AuthStatusRequest", result: "AuthStatusResponse", capability: ["auth", "status"], layer: "app" },
  // Provider configuration needs no authentication: choosing a provider may be how a client gets credentials at all.
  { wire: "providers/list", side: "agent", kind: "request", callback: "listProviders", params: "ListProvidersRequest", result: "ListProvidersResponse", capability: ["providers"], layer: "app" },
  { wire: "providers/set", side: "agent", kind: "request", callback: "setProvider", params: "SetProviderRequest", result: "SetProviderResponse", capability: ["providers"], layer: "app" },
  { wire: "providers/disable", side: "agent", kind: "request", callback: "disableProvider", params: "DisableProviderRequest", result: "DisableProviderResponse", capability: ["providers"], layer: "app" },
  { wire: "session/fork", side: "agent", kind: "request", callback: "forkSession", params: "ForkSessionRequest", result: "ForkSessionResponse", capability: ["session", "fork"], layer: "app", auth: true, lifecycle: "opens_session" },
  // Archiving an active session cancels its work "as if session/close had been called".
  { wire: "session/archive", side: "agent", kind: "request", callback: "archiveSession", params: "ArchiveSessionRequest", result: "ArchiveSessionResponse", capability: ["session", "archive"], layer: "app", auth: true, cancelsSession: true, lifecycle: "closes_session" },
  { wire: "session/unarchive", side: "agent", kind: "request", callback: "unarchiveSession", params: "UnarchiveSessionRequest", result: "UnarchiveSessionResponse", capability: ["session", "archive"], layer: "app", auth: true },
  { wire: "session/status", side: "agent", kind: "request", callback: "sessionStatus", params: "SessionStatusRequest", result: "SessionStatusResponse", capability: ["session", "status"], layer: "app", auth: true },
  { wire: "session/set_title", side: "agent", kind: "request", callback: "setSessionTitle", params: "SetSessionTitleRequest", result: "SetSessionTitleResponse", capability: ["session", "title"], layer: "app", auth: true },
  // mcp/message: the client, hosting an `acp` MCP server, sends its notifications to the agent.
  { wire: "mcp/message", side: "agent", kind: "notification", callback: "mcpMessage", params: "MessageMcpNotification", capability: ["session", "mcp", "acp"], counterpart: "request", layer: "app" },

  // ── handled by the client ─────────────────────────────────────────────
  // mcp/message: the agent calls an `acp` MCP server the client hosts; only an agent that advertised session.mcp.acp may.
  { wire: "mcp/message", side: "client", kind: "request", callback: "mcpMessage", params: "MessageMcpRequest", result: "MessageMcpResponse", callerCapability: ["session", "mcp", "acp"], counterpart: "notification", layer: "app" },
  { wire: "auth/status_update", side: "client", kind: "notification", callback: "authStatusUpdate", params: "AuthStatusUpdateNotification", callerCapability: ["auth", "status"], layer: "app" },
];

/** Every row of the v2 unstable surface: the v2 table's, then {@link v2UnstableMethods}. */
export const methods: readonly MethodRow[] = [...v2, ...v2UnstableMethods];
