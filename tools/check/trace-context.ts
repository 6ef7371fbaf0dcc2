/**
 * ACP-META-101 as far as the wire shows it: the root `_meta` keys
 * `traceparent`, `tracestate` and `baggage` are reserved for W3C trace
 * context (extensibility.mdx), so wherever an agent writes them their
 * values must be W3C trace context: a `traceparent` of version, trace id,
 * parent id and flags in lowercase hex with neither id all zeros
 * (W3C Trace Context §3.2), a `tracestate` list of `key=value` members, a
 * `baggage` list of `key=value` members (W3C Baggage). What an agent does
 * with trace context inside (its model calls, its MCP servers) is not on
 * the ACP connection; that part of the row stays unjudged.
 */

const TRACEPARENT = /^(?!ff)[0-9a-f]{2}-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}$/;
const TRACESTATE_MEMBER = /^[a-z0-9][a-z0-9_\-*/@]{0,255}=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;
const BAGGAGE_MEMBER = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+\s*=\s*[^,;\s]*(\s*;.*)?$/;

/** Why `value` is not valid W3C trace context for the reserved key `key`, or undefined when it is. */
export function traceContextProblem(key: "traceparent" | "tracestate" | "baggage", value: unknown): string | undefined {
  if (typeof value !== "string") return `${key} is ${JSON.stringify(value)}, not a string`;
  const members = (v: string) =>
    v
      .split(",")
      .map((m) => m.trim())
      .filter((m) => m !== "");
  switch (key) {
    case "traceparent":
      return TRACEPARENT.test(value) ? undefined : `traceparent ${JSON.stringify(value)} is not version-traceid-parentid-flags in lowercase hex`;
    case "tracestate":
      return members(value).every((m) => TRACESTATE_MEMBER.test(m)) ? undefined : `tracestate ${JSON.stringify(value)} is not a list of key=value members`;
    case "baggage":
      return members(value).every((m) => BAGGAGE_MEMBER.test(m)) ? undefined : `baggage ${JSON.stringify(value)} is not a list of key=value members`;
  }
}

/** Every reserved trace-context key found in a `_meta` object anywhere in `body`, with the problem of its value (undefined: valid). */
export function traceContextUses(body: unknown): { readonly key: string; readonly problem: string | undefined }[] {
  const out: { key: string; problem: string | undefined }[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (typeof v !== "object" || v === null || depth > 64) return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    const meta = o._meta;
    if (typeof meta === "object" && meta !== null && !Array.isArray(meta)) {
      for (const key of ["traceparent", "tracestate", "baggage"] as const) if (Object.prototype.hasOwnProperty.call(meta, key)) out.push({ key, problem: traceContextProblem(key, (meta as Record<string, unknown>)[key]) });
    }
    for (const [k, x] of Object.entries(o)) if (k !== "_meta") walk(x, depth + 1);
  };
  walk(body, 0);
  return out;
}
