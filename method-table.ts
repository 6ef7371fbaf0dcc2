/**
 * The ACP v1 method table: one row per wire method. This file is the single
 * source of truth for routing; `npm run codegen` turns it, together with the
 * pinned ACP JSON Schema named in {@link schemaSource}, into `src/generated/`.
 *
 * Edit a row, run `npm run codegen`, commit both. Codegen checks every row
 * against the invariants of the design (unique wires and callbacks, notification
 * ⇔ no result, layer ⇔ callback, prefixes, capability paths, schema cross-check)
 * and stops with a message naming the row and the field.
 *
 * Published as `acp-router/table`: spread {@link methods} into your own table,
 * add rows, and run `acp-router codegen` on it.
 *
 * @module acp-router/table
 */

/**
 * Which side handles (receives) a method; `both` is for protocol rows. Named apart from the
 * runtime's `Side` (`"agent" | "client"`, a connection's own side).
 */
export type RowSide = "agent" | "client" | "both";

/** A JSON Schema object, used inline by registered extension rows. */
export interface InlineSchema {
  readonly [keyword: string]: unknown;
}

/** One wire method. */
export interface MethodRow {
  /** The exact wire method string, `_` or `$/` included. */
  readonly wire: string;
  /** The side that handles the method. */
  readonly side: RowSide;
  /** A request expects one answer; a notification never gets one. */
  readonly kind: "request" | "notification";
  /** Handler method name; absent for connection-routed rows. */
  readonly callback?: string;
  /** `$defs` name in the pinned schema, or an inline schema (extension rows only). */
  readonly params: string | InlineSchema;
  /** Same as `params`, for the result; absent for notifications. */
  readonly result?: string | InlineSchema;
  /**
   * Path into the HANDLING side's own advertised capabilities. The method is
   * only callable when that value is present and neither `false` nor `null`
   * (fail closed).
   */
  readonly capability?: readonly string[];
  /**
   * The handler may leave this method out, and then a request is answered
   * `-32601`, as for an unregistered method. For features an agent may simply
   * not offer (modes, config options, `authenticate` when it offers no auth
   * methods). On a notification row, an unhandled notification is dropped, as
   * JSON-RPC 2.0 drops unknown ones. A row gated by `capability` is optional
   * already; never the `initialize` row.
   */
  readonly optional?: boolean;
  /** `app` rows reach a handler; the other two are handled by the connection. */
  readonly layer: "app" | "protocol" | "session_control";
  /** Needs a completed `authenticate` when the agent requires authentication. */
  readonly auth?: boolean;
  /** The result a cancelled call answers with instead of `-32800`. */
  readonly onCancel?: unknown;
  /**
   * Before the handler runs, cancel the session named by `params.sessionId` as
   * an inbound `session/cancel` would (its running prompt answers
   * `{stopReason:"cancelled"}`). Agent request rows only.
   */
  readonly cancelsSession?: boolean;
  /**
   * What a successful answer changes in the connection's state: `initialize`
   * (negotiated capabilities; opens the initialization gate), `authenticate` /
   * `logout` (the auth gate), `opens_session` / `closes_session` (the sessions a
   * client knows; the id is the result's `sessionId`, else the params'). Agent
   * request rows only.
   */
  readonly lifecycle?: "initialize" | "authenticate" | "logout" | "opens_session" | "closes_session";
  /** Marks a registered extension row (`_`-prefixed wire, inline schemas allowed). */
  readonly extension?: boolean;
  /**
   * The same wire is handled by the other side as this kind: `mcp/message` is
   * a request the client handles and a notification the agent handles. Both
   * rows must exist and name each other's kind, so a wire on both sides is
   * always deliberate.
   */
  readonly counterpart?: "request" | "notification";
  /**
   * Path into the CALLING side's own advertised capabilities: only a peer that
   * advertised it may send this method (`mcp/message` to the client needs the
   * agent's `mcpCapabilities.acp`). Inbound without it: `-32601` for a
   * request, dropped with a diagnostic for a notification; outbound without
   * it: rejected locally, unsent. Fail closed, as `capability`.
   */
  readonly callerCapability?: readonly string[];
  /**
   * A gate per object rather than per connection: the method may only name an
   * object whose latest `session/update` of kind `update` (keyed by the params'
   * `id` field) carried a value at `path` (v2 `tool_call/cancel`, gated by the
   * tool call's `capabilities.cancel`).
   */
  readonly objectCapability?: ObjectCapability;
  /**
   * The answer only acknowledges; the turn ends with a notification the
   * handling side sends (v2 `session/prompt` ends with a `state_update` that
   * reports `idle`). The handler's `ctx.signal` stays live until then, and a
   * `session/cancel` aborts it. Agent request rows only.
   */
  readonly turnEnd?: TurnEnd;
  /**
   * The `initialize` row only: the params and result fields that carry the
   * two sides' capabilities. Default `clientCapabilities` / `agentCapabilities`
   * (v1); v2 names both `capabilities`.
   */
  readonly capabilityFields?: { readonly params: string; readonly result: string };
  /**
   * The `initialize` row only: `until_first_request` lets the client send it
   * again until its first other request (v2); default: once.
   */
  readonly repeatable?: "until_first_request";
  /** Never sent inside a JSON-RPC batch (v2: `initialize`, `session/prompt`, ...); a batch holding it is rejected. */
  readonly unbatched?: boolean;
  /**
   * The params wrap another message, its `method` and `params` (the Proxy
   * Chains RFD's `proxy/successor`): a conductor unwraps it for the next hop
   * and wraps what comes back the other way in it.
   */
  readonly envelope?: boolean;
}

/** See {@link MethodRow.objectCapability}. */
export interface ObjectCapability {
  /** The `sessionUpdate` tag of the update that announces the object (`tool_call_update`). */
  readonly update: string;
  /** The field naming the object, in the update and in this method's params (`toolCallId`). */
  readonly id: string;
  /** Path inside the update to the object's capability (`["capabilities", "cancel"]`). */
  readonly path: readonly string[];
}

/** See {@link MethodRow.turnEnd}: the notification that ends the turn, matched by dotted paths into its params. */
export interface TurnEnd {
  readonly notification: string;
  readonly match: Readonly<Record<string, string>>;
}

/** Where the schema comes from, and the SHA-256 of the exact file codegen accepts. */
export interface SchemaSource {
  readonly package: string;
  readonly version: string;
  readonly file: string;
  readonly sha256: string;
}

/** The pinned ACP schema this table is checked against: `@agentclientprotocol/sdk` 2.4.0, `schema/v1/schema.json`. */
export const schemaSource: SchemaSource = {
  package: "@agentclientprotocol/sdk",
  version: "2.4.0",
  file: "schema/v1/schema.json",
  sha256: "0d0b1ca83c4872e5473f68926a894c7a8203b59b118e2a79bfe43dd76fbcbc1a",
};

/** Every ACP v1 method, one row each: the agent's, then the client's, then the protocol rows both sides handle. */
export const methods: readonly MethodRow[] = [
  // ── handled by the agent ──────────────────────────────────────────────
  { wire: "initialize", side: "agent", kind: "request", callback: "initialize", params: "InitializeRequest", result: "InitializeResponse", layer: "app", lifecycle: "initialize" },
  { wire: "authenticate", side: "agent", kind: "request", callback: "authenticate", params: "AuthenticateRequest", result: "AuthenticateResponse", optional: true, layer: "app", lifecycle: "authenticate" },
  { wire: "logout", side: "agent", kind: "request", callback: "logout", params: "LogoutRequest", result: "LogoutResponse", capability: ["auth", "logout"], layer: "app", lifecycle: "logout" },
  { wire: "session/new", side: "agent", kind: "request", callback: "newSession", params: "NewSessionRequest", result: "NewSessionResponse", layer: "app", auth: true, lifecycle: "opens_session" },
  { wire: "session/load", side: "agent", kind: "request", callback: "loadSession", params: "LoadSessionRequest", result: "LoadSessionResponse", capability: ["loadSession"], layer: "app", auth: true, lifecycle: "opens_session" },
  { wire: "session/list", side: "agent", kind: "request", callback: "listSessions", params: "ListSessionsRequest", result: "ListSessionsResponse", capability: ["sessionCapabilities", "list"], layer: "app", auth: true },
  { wire: "session/delete", side: "agent", kind: "request", callback: "deleteSession", params: "DeleteSessionRequest", result: "DeleteSessionResponse", capability: ["sessionCapabilities", "delete"], layer: "app", auth: true, lifecycle: "closes_session" },
  { wire: "session/resume", side: "agent", kind: "request", callback: "resumeSession", params: "ResumeSessionRequest", result: "ResumeSessionResponse", capability: ["sessionCapabilities", "resume"], layer: "app", auth: true, lifecycle: "opens_session" },
  { wire: "session/close", side: "agent", kind: "request", callback: "closeSession", params: "CloseSessionRequest", result: "CloseSessionResponse", capability: ["sessionCapabilities", "close"], layer: "app", auth: true, cancelsSession: true, lifecycle: "closes_session" },
  { wire: "session/set_mode", side: "agent", kind: "request", callback: "setSessionMode", params: "SetSessionModeRequest", result: "SetSessionModeResponse", optional: true, layer: "app", auth: true },
  { wire: "session/set_config_option", side: "agent", kind: "request", callback: "setSessionConfigOption", params: "SetSessionConfigOptionRequest", result: "SetSessionConfigOptionResponse", optional: true, layer: "app", auth: true },
  { wire: "session/prompt", side: "agent", kind: "request", callback: "prompt", params: "PromptRequest", result: "PromptResponse", layer: "app", auth: true, onCancel: { stopReason: "cancelled" } },
  { wire: "session/cancel", side: "agent", kind: "notification", params: "CancelNotification", layer: "session_control" },

  // ── handled by the client ─────────────────────────────────────────────
  { wire: "session/request_permission", side: "client", kind: "request", callback: "requestPermission", params: "RequestPermissionRequest", result: "RequestPermissionResponse", layer: "app", onCancel: { outcome: { outcome: "cancelled" } } },
  { wire: "session/update", side: "client", kind: "notification", callback: "sessionUpdate", params: "SessionNotification", layer: "app" },
  { wire: "fs/read_text_file", side: "client", kind: "request", callback: "readTextFile", params: "ReadTextFileRequest", result: "ReadTextFileResponse", capability: ["fs", "readTextFile"], layer: "app" },
  { wire: "fs/write_text_file", side: "client", kind: "request", callback: "writeTextFile", params: "WriteTextFileRequest", result: "WriteTextFileResponse", capability: ["fs", "writeTextFile"], layer: "app" },
  { wire: "terminal/create", side: "client", kind: "request", callback: "createTerminal", params: "CreateTerminalRequest", result: "CreateTerminalResponse", capability: ["terminal"], layer: "app" },
  { wire: "terminal/output", side: "client", kind: "request", callback: "terminalOutput", params: "TerminalOutputRequest", result: "TerminalOutputResponse", capability: ["terminal"], layer: "app" },
  { wire: "terminal/release", side: "client", kind: "request", callback: "releaseTerminal", params: "ReleaseTerminalRequest", result: "ReleaseTerminalResponse", capability: ["terminal"], layer: "app" },
  { wire: "terminal/wait_for_exit", side: "client", kind: "request", callback: "waitForTerminalExit", params: "WaitForTerminalExitRequest", result: "WaitForTerminalExitResponse", capability: ["terminal"], layer: "app" },
  { wire: "terminal/kill", side: "client", kind: "request", callback: "killTerminal", params: "KillTerminalRequest", result: "KillTerminalResponse", capability: ["terminal"], layer: "app" },
  { wire: "elicitation/create", side: "client", kind: "request", callback: "createElicitation", params: "CreateElicitationRequest", result: "CreateElicitationResponse", capability: ["elicitation"], layer: "app" },
  { wire: "elicitation/complete", side: "client", kind: "notification", callback: "completeElicitation", params: "CompleteElicitationNotification", capability: ["elicitation"], layer: "app" },

  // ── protocol rows, handled by either side ─────────────────────────────
  { wire: "$/cancel_request", side: "both", kind: "notification", params: "CancelRequestNotification", layer: "protocol" },
];
