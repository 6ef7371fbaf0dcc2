/** What the MCP-over-ACP helpers check values for: a JSON object, and an MCP error object. */

/** Whether `value` is a JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether `value` is an MCP error object: an integer `code` and a string `message`. */
export function isMcpError(value: unknown): value is { code: number; message: string; data?: unknown } {
  return isObject(value) && Number.isInteger(value.code) && typeof value.message === "string";
}
