/**
 * The SDK's variant guards (`ContentBlock.isText(block)`,
 * `McpServer.isStdio(server)`, …): one object per tagged union with an
 * `is<Variant>` per known tag and `isCustom` for any other. They check the
 * tag only; the SDK's also validate the payload, which a value acp-router
 * decoded has already passed (see docs/sdk-drop-in.md).
 */

type Tagged = Record<string, unknown>;

/** `{ isText: (v) => v.type === "text", …, isCustom }` for `variants` (guard name → tag) keyed on `field`. */
function guards<const V extends Record<string, string>>(field: string, variants: V): { readonly [K in keyof V]: (value: unknown) => value is Tagged } & { readonly isCustom: (value: unknown) => value is Tagged } {
  const tags = new Set(Object.values(variants));
  const tagOf = (value: unknown) => (typeof value === "object" && value !== null ? (value as Tagged)[field] : undefined);
  const out: Record<string, (value: unknown) => boolean> = {};
  for (const [name, tag] of Object.entries(variants)) out[name] = (value) => tagOf(value) === tag;
  out.isCustom = (value) => {
    const tag = tagOf(value);
    return typeof tag === "string" && !tags.has(tag);
  };
  return out as never;
}

/** Prompt and message content. */
export const ContentBlock = guards("type", { isText: "text", isImage: "image", isAudio: "audio", isResourceLink: "resource_link", isResource: "resource" });
/** MCP server transports. */
export const McpServer = guards("type", { isHttp: "http", isStdio: "stdio", isSse: "sse" });
/** `session/set_config_option` value kinds (v2). */
export const SetSessionConfigOptionRequest = guards("type", { isId: "id", isBoolean: "boolean" });
/** Tool call content. */
export const ToolCallContent = guards("type", { isContent: "content", isDiff: "diff", isTerminal: "terminal" });
/** The outcome of a permission request. */
export const RequestPermissionOutcome = guards("outcome", { isCancelled: "cancelled", isSelected: "selected" });
