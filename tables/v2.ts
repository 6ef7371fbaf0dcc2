/**
 * The ACP **v2** method table, pinned to `schema/v2/schema.json` of the
 * pinned SDK. `npm run codegen` turns it into `src/v2/generated/`, served by
 * the entry `acp-router/v2`; the default entry never loads it.
 *
 * What differs from v1, as columns rather than wire-name cases:
 * - `initialize` carries `capabilities` on both sides (`capabilityFields`) and
 *   may be repeated until the first other request (`repeatable`);
 * - `auth/login` / `auth/logout` replace `authenticate` / `logout`; both are
 *   advertised by a non-empty `authMethods` list, not by a capability, so
 *   they are `optional` rows;
 * - every session method is gated by the agent's `session` capability (`{}`
 *   advertises the baseline);
 * - `session/prompt` answers an acknowledgement at once and its turn ends with
 *   a `state_update` reporting `idle` (`turnEnd`), so it has no `onCancel`;
 * - `tool_call/cancel` / `terminal/cancel` are gated per object by the
 *   `capabilities.cancel` of the tool call or terminal (`objectCapability`);
 * - the methods the spec keeps out of JSON-RPC batches are `unbatched`.
 */
import type { MethodRow, SchemaSource } from "../method-table.ts";

export type { MethodRow, SchemaSource } from "../method-table.ts";

/** The pinned ACP schema this table is checked against: `@agentclientprotocol/sdk` 2.4.0, `schema/v2/schema.json`. */
export const schemaSource: SchemaSource = {
  package: "@agentclientprotocol/sdk",
  version: "2.4.0",
  file: "schema/v2/schema.json",
  sha256: "b6c91055df549d6f1db1d76d692d0561dad433e03d8ed114ea9b5baed9da72c5",
};

const turnEnd = { notification: "session/update", match: { "update.sessionUpdate": "state_update", "update.state": "idle" } } as const;

/** Every ACP v2 method, one row each: the agent's, then the client's, then the protocol rows both sides handle. */
export const methods: readonly MethodRow[] = [
  // ── handled by the agent ──────────────────────────────────────────────
  {
    wire: "initialize",
    side: "agent",
    kind: "request",
    callback: "initialize",
    params: "InitializeRequest",
    result: "InitializeResponse",
    layer: "app",
    lifecycle: "initialize",
    capabilityFields: { params: "capabilities", result: "capabilities" },
    repeatable: "until_first_request",
    unbatched: true,
  },
  { wire: "auth/login", side: "agent", kind: "request", callback: "login", params: "LoginAuthRequest", result: "LoginAuthResponse", optional: true, layer: "app", lifecycle: "authenticate", unbatched: true },
  { wire: "auth/logout", side: "agent", kind: "request", callback: "logout", params: "LogoutAuthRequest", result: "LogoutAuthResponse", optional: true, layer: "app", lifecycle: "logout" },
  { wire: "session/new", side: "agent", kind: "request", callback: "newSession", params: "NewSessionRequest", result: "NewSessionResponse", capability: ["session"], layer: "app", auth: true, lifecycle: "opens_session", unbatched: true },
  { wire: "session/list", side: "agent", kind: "request", callback: "listSessions", params: "ListSessionsRequest", result: "ListSessionsResponse", capability: ["session"], layer: "app", auth: true },
  { wire: "session/resume", side: "agent", kind: "request", callback: "resumeSession", params: "ResumeSessionRequest", result: "ResumeSessionResponse", capability: ["session"], layer: "app", auth: true, lifecycle: "opens_session", unbatched: true },
  { wire: "session/close", side: "agent", kind: "request", callback: "closeSession", params: "CloseSessionRequest", result: "CloseSessionResponse", capability: ["session"], layer: "app", auth: true, cancelsSession: true, lifecycle: "closes_session" },
  { wire: "session/delete", side: "agent", kind: "request", callback: "deleteSession", params: "DeleteSessionRequest", result: "DeleteSessionResponse", capability: ["session", "delete"], layer: "app", auth: true, lifecycle: "closes_session" },
  { wire: "session/set_config_option", side: "agent", kind: "request", callback: "setSessionConfigOption", params: "SetSessionConfigOptionRequest", result: "SetSessionConfigOptionResponse", capability: ["session"], layer: "app", auth: true },
  { wire: "session/prompt", side: "agent", kind: "request", callback: "prompt", params: "PromptRequest", result: "PromptResponse", capability: ["session"], layer: "app", auth: true, turnEnd, unbatched: true },
  { wire: "session/cancel", side: "agent", kind: "notification", params: "CancelSessionNotification", layer: "session_control" },
  {
    wire: "tool_call/cancel",
    side: "agent",
    kind: "request",
    callback: "cancelToolCall",
    params: "CancelToolCallRequest",
    result: "CancelToolCallResponse",
    capability: ["session"],
    layer: "app",
    auth: true,
    objectCapability: { update: "tool_call_update", id: "toolCallId", path: ["capabilities", "cancel"] },
  },
  {
    wire: "terminal/cancel",
    side: "agent",
    kind: "request",
    callback: "cancelTerminal",
    params: "CancelTerminalRequest",
    result: "CancelTerminalResponse",
    capability: ["session"],
    layer: "app",
    auth: true,
    objectCapability: { update: "terminal_update", id: "terminalId", path: ["capabilities", "cancel"] },
  },

  // ── handled by the client ─────────────────────────────────────────────
  { wire: "session/request_permission", side: "client", kind: "request", callback: "requestPermission", params: "RequestPermissionRequest", result: "RequestPermissionResponse", layer: "app", onCancel: { outcome: { outcome: "cancelled" } } },
  { wire: "session/update", side: "client", kind: "notification", callback: "sessionUpdate", params: "UpdateSessionNotification", layer: "app" },
  { wire: "elicitation/create", side: "client", kind: "request", callback: "createElicitation", params: "CreateElicitationRequest", result: "CreateElicitationResponse", capability: ["elicitation"], layer: "app" },
  { wire: "elicitation/complete", side: "client", kind: "notification", callback: "completeElicitation", params: "CompleteElicitationNotification", capability: ["elicitation"], layer: "app" },

  // ── protocol rows, handled by either side ─────────────────────────────
  { wire: "$/cancel_request", side: "both", kind: "notification", params: "CancelRequestNotification", layer: "protocol" },
];
