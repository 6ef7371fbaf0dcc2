/**
 * The SDK's method constants for ACP v1 (`methods.agent.session.prompt` is
 * `"session/prompt"`): the wire names of method-table.ts, grouped by the side
 * that handles them. `unstableMethods` adds the rows of tables/v1-unstable.ts.
 */

/** Stable v1 wire names, grouped by handling side. */
export const methods = {
  agent: {
    initialize: "initialize",
    authenticate: "authenticate",
    logout: "logout",
    session: {
      new: "session/new",
      load: "session/load",
      list: "session/list",
      delete: "session/delete",
      resume: "session/resume",
      close: "session/close",
      setMode: "session/set_mode",
      setConfigOption: "session/set_config_option",
      prompt: "session/prompt",
      cancel: "session/cancel",
    },
  },
  client: {
    session: { requestPermission: "session/request_permission", update: "session/update" },
    fs: { writeTextFile: "fs/write_text_file", readTextFile: "fs/read_text_file" },
    terminal: { create: "terminal/create", output: "terminal/output", release: "terminal/release", waitForExit: "terminal/wait_for_exit", kill: "terminal/kill" },
    elicitation: { create: "elicitation/create", complete: "elicitation/complete" },
  },
  protocol: { cancelRequest: "$/cancel_request" },
} as const;

/** Unstable v1 wire names (tables/v1-unstable.ts): the stable ones plus the draft rows. */
export const unstableMethods = {
  agent: {
    ...methods.agent,
    auth: { status: "auth/status" },
    providers: { list: "providers/list", set: "providers/set", disable: "providers/disable" },
    session: {
      ...methods.agent.session,
      fork: "session/fork",
      archive: "session/archive",
      unarchive: "session/unarchive",
      status: "session/status",
      setTitle: "session/set_title",
    },
    mcp: { message: "mcp/message" },
  },
  client: {
    ...methods.client,
    mcp: { message: "mcp/message" },
    auth: { statusUpdate: "auth/status_update" },
  },
  protocol: methods.protocol,
} as const;
