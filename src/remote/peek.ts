/**
 * Reads what the HTTP layer needs from an outbound line without parsing the
 * whole message: its kind and id. The connection's own encoders write
 * `{"jsonrpc":"2.0","id":…,` first, so the fast path reads a prefix; any
 * other shape goes to the one head reader (`jsonrpc/scan.ts`). Used only for
 * routing (which stream, which session); the connection layer already
 * produced the line. A line's session: `jsonrpc/session-id.ts`.
 */
import type { RequestId } from "../context.ts";
import { isRequestId } from "../jsonrpc/classify.ts";
import { scanHead } from "../jsonrpc/scan.ts";

/** What a line is, as far as routing cares. */
export interface Peeked {
  readonly kind: "request" | "notification" | "result" | "error" | "other";
  /** The id of a request or response (`null` for an error answered with `id: null`). */
  readonly id: RequestId | null | undefined;
}

const WITH_ID = '{"jsonrpc":"2.0","id":';
const NOTIFICATION = '{"jsonrpc":"2.0","method":';
const NOTIFICATION_PEEK: Peeked = { kind: "notification", id: undefined };
const OTHER: Peeked = { kind: "other", id: undefined };

/** Peeks one outbound line (no trailing newline needed). */
export function peekLine(line: string): Peeked {
  if (line.startsWith(NOTIFICATION)) return NOTIFICATION_PEEK;
  if (!line.startsWith(WITH_ID)) return slowPeek(line);
  let i = WITH_ID.length;
  let id: RequestId | null;
  if (line.charCodeAt(i) === 34 /* " */) {
    let j = i + 1;
    while (j < line.length && line.charCodeAt(j) !== 34) j += line.charCodeAt(j) === 92 /* \ */ ? 2 : 1;
    try {
      id = JSON.parse(line.slice(i, j + 1)) as string;
    } catch {
      return slowPeek(line);
    }
    i = j + 1;
  } else {
    const comma = line.indexOf(",", i);
    if (comma === -1) return slowPeek(line);
    const raw = line.slice(i, comma);
    id = raw === "null" ? null : Number(raw);
    if (typeof id === "number" && !Number.isSafeInteger(id)) return slowPeek(line);
    i = comma;
  }
  if (line.startsWith(',"method":', i)) return { kind: "request", id };
  if (line.startsWith(',"result":', i)) return { kind: "result", id };
  if (line.startsWith(',"error":', i)) return { kind: "error", id };
  return slowPeek(line);
}

/**
 * Any other layout: the one head reader (`jsonrpc/scan.ts`, classified by the one rule); a line it
 * does not take (an error answered with `id: null`, which is no response by that rule, or what is
 * not one JSON object) is parsed.
 */
function slowPeek(line: string): Peeked {
  const head = scanHead(line, Number.MAX_SAFE_INTEGER);
  if (head !== undefined) return head.kind === "notification" ? NOTIFICATION_PEEK : { kind: head.kind === "request" ? "request" : head.error ? "error" : "result", id: head.id as RequestId };
  let body: unknown;
  try {
    body = JSON.parse(line);
  } catch {
    return OTHER;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return OTHER;
  const m = body as Record<string, unknown>;
  const id = isRequestId(m.id) ? m.id : m.id === null ? null : undefined;
  if (typeof m.method === "string") return id === undefined || id === null ? NOTIFICATION_PEEK : { kind: "request", id };
  if ("error" in m) return { kind: "error", id };
  if ("result" in m) return { kind: "result", id };
  return OTHER;
}
