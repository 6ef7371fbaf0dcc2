/**
 * The policy for request ids a double cannot hold, one copy for `inspect`,
 * `check` and `check --client`.
 *
 * The schema types a numeric request id as an int64 (`RequestId`:
 * `"format": "int64"`), so 2^53 + 1 = 9007199254740993 is a valid ACP id
 * that a JavaScript `JSON.parse` rounds to 9007199254740992. A receiver has
 * two truthful answers: repeat the id digit for digit, or refuse the
 * request as one whose id it cannot use (-32600 with id null, which is what
 * acp-router does, DESIGN §4.3). Answering with another id (the rounded
 * one) breaks "a response repeats the request's id exactly" (ACP-JSONRPC-001,
 * v2 ACP-JSONRPC-302, MUST): the sender cannot match that answer to its
 * request, and may match it to another one. That is a violation, never a
 * note. Fractional ids (1.5) are different: JSON-RPC allows any number and
 * the schema only says a sender SHOULD NOT use fractions, so an echo of 1.5
 * is fine and a refusal is fine.
 */

/** 2^53 + 1: an int64 request id a double cannot hold. */
export const BIG_ID = "9007199254740993";

/**
 * The raw digits of the top-level `id` member of a JSON-RPC line whose
 * parsed id is `parsed` (a number): the first `"id":<number>` in the text
 * that parses to it, or undefined when none does (the id was a string or
 * null). Parsed numbers that are not integers are returned as written too.
 */
export function rawNumericId(text: string, parsed: number): string | undefined {
  for (const m of text.matchAll(/"id"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g)) if (Number(m[1]) === parsed) return m[1];
  return undefined;
}

/** The verdict on an answer to a request whose id was written as `sent` (digits): same id, refused with id null, or altered. */
export type IdEcho = { readonly kind: "exact" } | { readonly kind: "refused" } | { readonly kind: "altered"; readonly answered: string };

/**
 * Judges the answer line `text` (parsed as `body`) to a request sent with
 * the numeric id written `sent`: `exact` when the answer repeats those
 * digits (as a number; `9.007199254740993e15` counts as the same integer),
 * `refused` for an error with id null, `altered` otherwise (a result with
 * id null included).
 */
export function judgeIdEcho(sent: string, text: string, body: { readonly id?: unknown; readonly error?: unknown }): IdEcho {
  if (body.id === null) return body.error !== undefined ? { kind: "refused" } : { kind: "altered", answered: "null" };
  if (typeof body.id !== "number") return { kind: "altered", answered: JSON.stringify(body.id) };
  const raw = rawNumericId(text, body.id) ?? String(body.id);
  return sameInteger(raw, sent) ? { kind: "exact" } : { kind: "altered", answered: raw };
}

/** True when two numbers written in JSON denote the same value, compared exactly (BigInt for integers). */
export function sameInteger(a: string, b: string): boolean {
  if (a === b) return true;
  const exact = (s: string): bigint | undefined => {
    if (/^-?\d+$/.test(s)) return BigInt(s);
    const m = /^(-?\d+)(?:\.(\d+))?[eE]\+?(\d+)$/.exec(s);
    if (m === null) return undefined;
    const frac = m[2] ?? "";
    const exp = Number(m[3]);
    if (frac.length > exp) return undefined;
    return BigInt(`${m[1]}${frac}${"0".repeat(exp - frac.length)}`);
  };
  const x = exact(a);
  const y = exact(b);
  return x !== undefined && y !== undefined ? x === y : Number(a) === Number(b);
}
