/**
 * The policy for request ids, one copy for `inspect`, `check` and
 * `check --client`.
 *
 * The schema's `RequestId` says the receiver MUST reply with the same id
 * value, and annotates its numeric branch `"format": "int64"`. That
 * annotation is generated from the Rust type (`Number(i64)` in the spec
 * repository's agent-client-protocol-schema/src/rpc.rs); no sentence of the
 * spec's prose adopts it. RFC 8259 §6 lets a JSON implementation limit the
 * range and precision of the numbers it accepts, and names the integers in
 * [-(2^53)+1, (2^53)-1] as those implementations agree on exactly; the
 * official TypeScript SDK reads every line with `JSON.parse` by design, so
 * 2^53 + 1 = 9007199254740993 arrives as 9007199254740992.
 *
 * So the MUST is judged on ids every implementation can hold: 2^53 − 1,
 * −(2^53 − 1), 0 and a string must come back exactly (ACP-JSONRPC-001, v2
 * ACP-JSONRPC-302). An id beyond ±(2^53 − 1) is an interoperability
 * finding, reported apart from the verdicts (check's "Interoperability"
 * section, inspect's notes) with what came back: the same digits, a refusal,
 * or another id. acp-router's own connections refuse a numeric id they
 * cannot hold exactly with -32600 and id null (DESIGN §4.3): that is this
 * project's policy, not the spec's. Only `check --strict-ids` reads the
 * int64 annotation as part of the MUST, and then anything but the same
 * digits fails the row. Fractional ids (1.5) are different again: JSON-RPC
 * allows any number and the schema only says a sender SHOULD NOT use
 * fractions, so an echo of 1.5 is fine and a refusal is fine.
 */

/** The sources of the interoperability reading, quoted on every report that shows a finding about an id beyond ±(2^53−1). */
export const INTEROPERABLE_IDS_SOURCES = [
  'the schema\'s RequestId: "The Server MUST reply with the same value in the Response object if included." (v1) / "The receiver MUST reply with the same value in the response." (v2) (schema.json#/$defs/RequestId, @agentclientprotocol/sdk 2.4.0, published 2026-11-02)',
  'its numeric branch is annotated "format": "int64", generated from the Rust type Number(i64) (agent-client-protocol-schema/src/rpc.rs:36 at the spec commit b7f0005, 2026-08-22); no prose of the spec adopts it',
  "RFC 8259 §6 (December 2017): implementations may limit the range and precision of numbers; integers in [-(2**53)+1, (2**53)-1] are interoperable, in that implementations agree exactly on their values",
  "@agentclientprotocol/sdk reads each line with JSON.parse (dist/core/stream.js:45 in 2.4.0), which holds no integer beyond 2^53 exactly",
] as const;

/** What the interoperability section says about itself: why these ids are findings and not verdicts, and acp-router's own policy, in its own voice. */
export const INTEROPERABLE_IDS_ABOUT = `Request ids beyond ±(2^53−1). ${INTEROPERABLE_IDS_SOURCES.join("; ")}. No sentence of the spec decides what a receiver that cannot hold such an id must do, so what came back is shown here and judged nowhere: the MUST that a response repeats its request's id is judged on ids every implementation can hold (2^53−1, −(2^53−1), 0 and a string). acp-router itself refuses a numeric id it cannot hold exactly with -32600 and id null; that is acp-router's policy, not the spec's. --strict-ids reads the int64 annotation as part of the MUST and fails every answer but the same digits.`;

/** 2^53 + 1: an int64 request id a double cannot hold. */
export const BIG_ID = "9007199254740993";
/** −(2^53 + 1): the negative twin of {@link BIG_ID}. */
export const NEGATIVE_BIG_ID = "-9007199254740993";
/** The ids beyond ±(2^53−1) that the id probes send: an interoperability finding each, never a verdict unless --strict-ids. */
export const BEYOND_SAFE_IDS = [BIG_ID, NEGATIVE_BIG_ID] as const;

/**
 * The ids every JSON implementation holds exactly, written as JSON tokens: 2^53−1 and −(2^53−1) (the ends of RFC 8259 §6's
 * interoperable range), 0, and a string. A response to each must repeat it exactly (a MUST judged on the ACP-JSONRPC-001 row).
 */
export const HOLDABLE_IDS = ["9007199254740991", "-9007199254740991", "0", '"acp-router-check/id"'] as const;

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
 * Judges the answer line `text` (parsed as `body`) to a request sent with the id token `sent` (a JSON string token is
 * compared as that string): `exact` when the answer repeats it, `refused` for an error with id null, `altered` otherwise.
 */
export function judgeIdToken(sent: string, text: string, body: { readonly id?: unknown; readonly error?: unknown }): IdEcho {
  if (!sent.startsWith('"')) return judgeIdEcho(sent, text, body);
  const value = JSON.parse(sent) as string;
  if (body.id === value) return { kind: "exact" };
  if (body.id === null) return body.error !== undefined ? { kind: "refused" } : { kind: "altered", answered: "null" };
  return { kind: "altered", answered: JSON.stringify(body.id) };
}

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
