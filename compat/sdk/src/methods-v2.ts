/**
 * The SDK's method constants for the ACP v2 draft (`./experimental/v2`):
 * the wire names of tables/v2.ts grouped by handling side, and the
 * `./experimental/v2/unstable` set, the wire names of tables/v2-unstable.ts.
 */

/** v2 wire names, grouped by handling side. */
export const methodsV2 = {
  agent: {
    initialize: "initialize",
    auth: { login: "auth/login", logout: "auth/logout" },
    session: {
      new: "session/new",
      list: "session/list",
      delete: "session/delete",
      resume: "session/resume",
      close: "session/close",
      setConfigOption: "session/set_config_option",
      prompt: "session/prompt",
      cancel: "session/cancel",
    },
    toolCall: { cancel: "tool_call/cancel" },
    terminal: { cancel: "terminal/cancel" },
  },
  client: {
    session: { requestPermission: "session/request_permission", update: "session/update" },
    elicitation: { create: "elicitation/create", complete: "elicitation/complete" },
  },
  protocol: { cancelRequest: "$/cancel_request" },
} as const;

/** The v2 draft's unstable wire names: the v2 ones plus providers, auth status, more session methods and MCP-over-ACP. */
export const unstableMethodsV2 = {
  agent: {
    ...methodsV2.agent,
    auth: { ...methodsV2.agent.auth, status: "auth/status" },
    providers: { list: "providers/list", set: "providers/set", disable: "providers/disable" },
    session: {
      ...methodsV2.agent.session,
      fork: "session/fork",
      archive: "session/archive",
      unarchive: "session/unarchive",
      status: "session/status",
      setTitle: "session/set_title",
    },
    mcp: { message: "mcp/message" },
  },
  client: {
    ...methodsV2.client,
    mcp: { message: "mcp/message" },
    auth: { statusUpdate: "auth/status_update" },
  },
  protocol: methodsV2.protocol,
} as const;
