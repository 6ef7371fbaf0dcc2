/**
 * The session a message belongs to: the `sessionId` string member of its
 * params (or of an answer's result, for the requests that open a session),
 * read from parsed values or from a line's text. The one reader of it for
 * the connection, the transports, the proxies and the tools; anything else
 * (a number, null, a missing member) is no session.
 */
import { stringMember } from "./scan.ts";

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** `sessionId` of `value` (params, or a result) when it is an object with a string one. */
export function sessionIdOf(value: unknown): string | undefined {
  const id = isObject(value) ? value.sessionId : undefined;
  return typeof id === "string" ? id : undefined;
}

/** `params.sessionId` of a parsed message. */
export function sessionIdOfMessage(body: unknown): string | undefined {
  return isObject(body) ? sessionIdOf(body.params) : undefined;
}

/** `result.sessionId` of a parsed answer. */
export function sessionIdOfResult(body: unknown): string | undefined {
  return isObject(body) ? sessionIdOf(body.result) : undefined;
}

const NOTIFICATION = '{"jsonrpc":"2.0","method":';
const PARAMS_SESSION = ',"params":{"sessionId":"';

/**
 * `sessionId` of the object whose text starts at `at` in `line` (a message's
 * params, where a head reader found them), read off the text without parsing
 * it; `escapes`: whether the line may hold backslashes or control characters
 * (undefined: look).
 */
export function sessionIdAt(line: string, at: number, escapes?: boolean): string | undefined {
  return at === -1 ? undefined : stringMember(line, at, "sessionId", escapes);
}

/**
 * `params.sessionId` of a whole line. A notification as the connection's
 * encoder writes it, `sessionId` first in its params (`session/update`
 * always), is read from its prefix; any other line is parsed.
 */
export function sessionIdOfLine(line: string): string | undefined {
  return sessionOfNotificationPrefix(line) ?? sessionIdOfMessage(parsed(line));
}

/** `result.sessionId` of a whole answer line. */
export function sessionIdOfResultLine(line: string): string | undefined {
  return sessionIdOfResult(parsed(line));
}

const parsed = (line: string): unknown => {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
};

/** The fast path of {@link sessionIdOfLine}: `{"jsonrpc":"2.0","method":"…","params":{"sessionId":"…"`, no escapes; else undefined. */
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
