/**
 * The size of an inner MCP message as the binding bounds it: the UTF-8
 * bytes of its JSON text. A text of `n` UTF-16 units is at most `3n` bytes
 * and at least `n`, so only texts between `limit / 3` and `limit` units
 * are encoded to count exactly.
 */
export function messageBytes(value: unknown, limit: number): number {
  const text = JSON.stringify(value) ?? "";
  if (text.length > limit || text.length * 3 <= limit) return text.length;
  return new TextEncoder().encode(text).length;
}
