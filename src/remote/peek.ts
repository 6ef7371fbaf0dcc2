/**
 * Reads what the HTTP layer needs from an outbound line without parsing the
 * whole message: its kind and id. The connection's own encoders write
 * `{"jsonrpc":"2.0","id":…,` first, so the fast path reads a prefix; any
 * other shape falls back to `JSON.parse`. Used only for routing (which
 * stream, which session); the connection layer already produced the line.
 */
import type { RequestId } from "../context.ts";
import { isRequestId } from "../jsonrpc/classify.ts";

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

function slowPeek(line: string): Peeked {
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

/** `params.sessionId` of a parsed message, when it is a string. */
export function sessionOfParams(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const params = (body as { params?: unknown }).params;
  if (typeof params !== "object" || params === null) return undefined;
  const id = (params as { sessionId?: unknown }).sessionId;
  return typeof id === "string" ? id : undefined;
}

const PARAMS_SESSION = ',"params":{"sessionId":"';

/**
 * `params.sessionId` of a line (only called when a route depends on it). A
 * notification as the connection's encoder writes it, with `sessionId` first
 * in its params (`session/update` always), is read from its prefix; anything
 * else is parsed in full.
 */
export function sessionOfLine(line: string): string | undefined {
  return sessionOfNotificationPrefix(line) ?? sessionOfParsedLine(line);
}

/** The fast path of {@link sessionOfLine}: `{"jsonrpc":"2.0","method":"…","params":{"sessionId":"…"`, no escapes; else undefined. */
function sessionOfNotificationPrefix(line: string): string | undefined {
  if (!line.startsWith(NOTIFICATION) || line.charCodeAt(NOTIFICATION.length) !== 34 /* " */) return undefined;
  const methodEnd = line.indexOf('"', NOTIFICATION.length + 1);
  if (methodEnd === -1 || line.lastIndexOf("\\", methodEnd) > NOTIFICATION.length || !line.startsWith(PARAMS_SESSION, methodEnd + 1)) return undefined;
  const start = methodEnd + 1 + PARAMS_SESSION.length;
  const end = line.indexOf('"', start);
  if (end === -1) return undefined;
  const id = line.slice(start, end);
  return id.includes("\\") ? undefined : id;
}

function sessionOfParsedLine(line: string): string | undefined {
  try {
    return sessionOfParams(JSON.parse(line));
  } catch {
    return undefined;
  }
}

/** `result.sessionId` of a response line, when it is a string. */
export function resultSessionOfLine(line: string): string | undefined {
  try {
    const result = (JSON.parse(line) as { result?: unknown }).result;
    const id = typeof result === "object" && result !== null ? (result as { sessionId?: unknown }).sessionId : undefined;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}
