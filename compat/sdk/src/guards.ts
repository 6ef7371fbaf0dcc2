/**
 * The SDK's variant guards (`ContentBlock.isText(block)`,
 * `McpServer.isStdio(server)`, …): one object per tagged union with an
 * `is<Variant>` per known tag and `isCustom` for any other. Where the schema
 * has the union as a method's params or result (elicitation's request and
 * response), each guard also validates the whole value with that schema's
 * validator, as the SDK's do; the others check the tag (a value acp-router
 * decoded has passed its schema already; see docs/sdk-drop-in.md).
 */
import { protocol } from "acp-router";

type Tagged = Record<string, unknown>;

/**
 * `{ isText: (v) => v.type === "text", …, isCustom }` for `variants` (guard name → tag) keyed on
 * `field`. A `null` tag names the variant that has no `field` at all (`IdleStateUpdate.isNone`,
 * `MultiSelectItems.isTitled`); `isCustom` takes a value whose tag is a string no variant names.
 */
function guards<const V extends Record<string, string | null>>(field: string, variants: V, valid: (value: unknown) => boolean = () => true): { readonly [K in keyof V]: (value: unknown) => value is Tagged } & { readonly isCustom: (value: unknown) => value is Tagged } {
  const tags = new Set(Object.values(variants));
  const isObject = (value: unknown): value is Tagged => typeof value === "object" && value !== null && !Array.isArray(value);
  const tagOf = (value: unknown) => (isObject(value) ? value[field] : undefined);
  const out: Record<string, (value: unknown) => boolean> = {};
  for (const [name, tag] of Object.entries(variants)) out[name] = tag === null ? (value) => isObject(value) && (value[field] === undefined || value[field] === null) && valid(value) : (value) => tagOf(value) === tag && valid(value);
  out.isCustom = (value) => {
    const tag = tagOf(value);
    return typeof tag === "string" && !tags.has(tag) && valid(value);
  };
  return out as never;
}

/** The schema validator of the v1 table's `elicitation/create` params (`"params"`) or result (`"result"`). */
function elicitation(part: "params" | "result"): (value: unknown) => boolean {
  const row = protocol.inboundRow("client", "request", "elicitation/create");
  const validate = row?.[part];
  if (validate === undefined) throw new Error("the v1 table has no elicitation/create row");
  return (value) => validate(value);
}

/** Prompt and message content. */
export const ContentBlock = guards("type", { isText: "text", isImage: "image", isAudio: "audio", isResourceLink: "resource_link", isResource: "resource" });
/** MCP server transports. */
export const McpServer = guards("type", { isHttp: "http", isAcp: "acp", isStdio: "stdio", isSse: "sse" });
/** `session/set_config_option` value kinds (v2). */
export const SetSessionConfigOptionRequest = guards("type", { isId: "id", isBoolean: "boolean" });
/** Tool call content. */
export const ToolCallContent = guards("type", { isContent: "content", isDiff: "diff", isTerminal: "terminal" });
/** The outcome of a permission request. */
export const RequestPermissionOutcome = guards("outcome", { isCancelled: "cancelled", isSelected: "selected" });
/** Elicitation requests by mode. */
export const CreateElicitationRequest = guards("mode", { isForm: "form", isUrl: "url" }, elicitation("params"));
/** Elicitation answers by action. */
export const CreateElicitationResponse = guards("action", { isAccept: "accept", isDecline: "decline", isCancel: "cancel" }, elicitation("result"));
/** Elicitation form properties by JSON Schema type. */
export const ElicitationPropertySchema = guards("type", { isString: "string", isNumber: "number", isInteger: "integer", isBoolean: "boolean", isArray: "array" });
/** Multi-select item lists: plain strings, or titled options (no `type`). */
export const MultiSelectItems = guards("type", { isString: "string", isTitled: null });
/** Session states. */
export const StateUpdate = guards("state", { isRunning: "running", isIdle: "idle", isRequiresAction: "requires_action", isUnknown: "unknown" });
/** Why a session went idle (none: no `stopReason`). */
export const IdleStateUpdate = guards("stopReason", { isEndTurn: "end_turn", isMaxTokens: "max_tokens", isMaxTurnRequests: "max_turn_requests", isRefusal: "refusal", isCancelled: "cancelled", isError: "error", isNone: null });
/** Authentication methods (v2). */
export const AuthMethod = guards("type", { isTerminal: "terminal", isAgent: "agent" });
/** Available commands (v2). */
export const AvailableCommand = guards("type", { isCommand: "command" });
/** A command's input (v2). */
export const AvailableCommandInput = guards("type", { isText: "text" });
/** Background work of a session (v2). */
export const BackgroundWork = guards("type", { isTerminal: "terminal", isToolCall: "tool_call", isSubagent: "subagent" });
/** Diff changes by operation (v2). */
export const DiffChange = guards("operation", { isAdd: "add", isDelete: "delete", isModify: "modify", isMove: "move", isCopy: "copy" });
/** Plan update content (v2). */
export const PlanUpdateContent = guards("type", { isItems: "items", isFile: "file", isMarkdown: "markdown" });
/** Where a replay starts (v2). */
export const ReplayFrom = guards("type", { isStart: "start" });
/** What a permission request is about (v2). */
export const RequestPermissionSubject = guards("type", { isToolCall: "tool_call", isCommand: "command" });
/** Session configuration options by kind (v2). */
export const SessionConfigOption = guards("type", { isSelect: "select", isBoolean: "boolean" });
/** Session updates by kind (v2). */
export const SessionUpdate = guards("sessionUpdate", {
  isUserMessageChunk: "user_message_chunk",
  isUserMessage: "user_message",
  isAgentMessageChunk: "agent_message_chunk",
  isAgentMessage: "agent_message",
  isAgentThoughtChunk: "agent_thought_chunk",
  isAgentThought: "agent_thought",
  isStateUpdate: "state_update",
  isToolCallContentChunk: "tool_call_content_chunk",
  isToolCallUpdate: "tool_call_update",
  isTerminalUpdate: "terminal_update",
  isTerminalOutputChunk: "terminal_output_chunk",
  isPlanUpdate: "plan_update",
  isPlanRemoved: "plan_removed",
  isAvailableCommandsUpdate: "available_commands_update",
  isConfigOptionUpdate: "config_option_update",
  isSessionInfoUpdate: "session_info_update",
  isUsageUpdate: "usage_update",
  isNotice: "notice",
  isCompactionUpdate: "compaction_update",
  isCompactionSummaryChunk: "compaction_summary_chunk",
  isSubagentUpdate: "subagent_update",
  isSessionMessage: "session_message",
  isSessionMessageChunk: "session_message_chunk",
});
