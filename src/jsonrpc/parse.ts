/**
 * Parses one NDJSON line into a JSON value, bounding nesting depth before
 * `JSON.parse` so a hostile line cannot make later recursive code overflow.
 */

export type ParseResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

/** Default `maxDepth`: 128 levels. ACP messages nest under 20; this leaves room for `_meta` and extensions. */
export const DEFAULT_MAX_DEPTH = 128;

/** Parses `line`; never throws. */
export function parseLine(line: string, maxDepth = DEFAULT_MAX_DEPTH): ParseResult {
  const value = parseValue(line, maxDepth);
  return value instanceof ParseFailure ? { ok: false, reason: value.reason } : { ok: true, value };
}

/** Why a line could not be parsed; {@link parseValue} returns it (no JSON value is one). */
export class ParseFailure {
  readonly reason: string;
  constructor(reason: string) {
    this.reason = reason;
  }
}

/**
 * Parses `line` into its value, or a {@link ParseFailure}; never throws. The
 * allocation-free form of {@link parseLine} for the connection's hot path.
 * `shallow`: the caller already counted at most `maxDepth` opening brackets
 * in the line (the framer does, on the whole chunk), so the depth check is skipped.
 */
export function parseValue(line: string, maxDepth = DEFAULT_MAX_DEPTH, shallow = false): unknown {
  // A value that parses nests at most half its length deep (each level opens and closes a
  // bracket), and never deeper than its count of opening brackets: only long lines with many
  // of them (counted with native indexOf) pay for the full scan. A short line that is not JSON
  // fails in JSON.parse, which does not recurse.
  if (!shallow && !withinDepth(line.length, maxDepth) && !fewBrackets(line, maxDepth) && exceedsDepth(line, maxDepth)) return new ParseFailure(`nesting deeper than ${maxDepth} levels`);
  try {
    return JSON.parse(line);
  } catch (error) {
    return new ParseFailure(error instanceof Error ? error.message : "invalid JSON");
  }
}

/**
 * True when a line of `length` characters that parses cannot nest deeper
 * than `maxDepth`: each level takes an opening and a closing bracket, so a
 * value nests at most `length / 2` deep. The framer skips counting brackets
 * on such lines too.
 */
export function withinDepth(length: number, maxDepth: number): boolean {
  return length <= 2 * maxDepth + 1;
}

/** True when `text` has at most `limit` opening brackets (`{` and `[`) in all. */
function fewBrackets(text: string, limit: number): boolean {
  let n = 0;
  for (let i = text.indexOf("{"); i !== -1; i = text.indexOf("{", i + 1)) if (++n > limit) return false;
  for (let i = text.indexOf("["); i !== -1; i = text.indexOf("[", i + 1)) if (++n > limit) return false;
  return true;
}

/** True when brackets outside strings nest deeper than `maxDepth`. Linear, allocation free. */
export function exceedsDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > maxDepth) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}
