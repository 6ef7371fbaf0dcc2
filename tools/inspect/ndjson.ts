/** Reading newline-delimited JSON files back (recordings, Rust-format traces). */

/** The JSON objects of `text`, one per line, in order; blank lines, lines that are not JSON and values that are not objects are skipped. */
export function objectLines(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof value === "object" && value !== null && !Array.isArray(value)) out.push(value as Record<string, unknown>);
  }
  return out;
}
