/**
 * What the SDK-style server reads off a JSON-RPC message before it reaches an agent: its kind
 * (request, notification, response; the SDK's own tests of each shape), its session, its id as a
 * map key, and the headers and media types of the Streamable HTTP transport.
 */

/** The header that names a connection. */
export const HEADER_CONNECTION_ID = "Acp-Connection-Id";
/** The header that names a session. */
export const HEADER_SESSION_ID = "Acp-Session-Id";
/** The media type of a JSON body. */
export const JSON_MIME_TYPE = "application/json";
/** The media type of an SSE stream. */
export const EVENT_STREAM_MIME_TYPE = "text/event-stream";

/** A message as the server handles it: any JSON object. */
export type WireMessage = Record<string, unknown>;

/** Whether `value` is an object (arrays included, as the SDK's check). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** Whether `value` is an id a message may carry: null, a string or a finite number. */
function isId(value: unknown): value is string | number | null {
  return value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** A JSON-RPC 2.0 envelope: an object whose `jsonrpc` is `"2.0"`. */
function isEnvelope(value: unknown): value is WireMessage {
  return isRecord(value) && value["jsonrpc"] === "2.0";
}

/** A request: an envelope with a string `method` and a usable `id`. */
export function isRequest(value: unknown): value is WireMessage & { method: string; id: string | number | null } {
  return isEnvelope(value) && "id" in value && typeof value["method"] === "string" && isId(value["id"]);
}

/** A notification: an envelope with a string `method` and no `id`. */
export function isNotification(value: unknown): value is WireMessage & { method: string } {
  return isEnvelope(value) && !("id" in value) && typeof value["method"] === "string";
}

/** A well-formed response: an envelope without `method`, a usable `id`, and exactly one of `result` and a proper `error`. */
export function isResponse(value: unknown): value is WireMessage & { id: string | number | null } {
  if (!isEnvelope(value) || "method" in value || !("id" in value) || !isId(value["id"])) return false;
  const hasResult = Object.hasOwn(value, "result");
  const hasError = Object.hasOwn(value, "error");
  if (hasResult === hasError) return false;
  if (!hasError) return true;
  const error = value["error"];
  return isRecord(error) && Number.isInteger(error["code"]) && typeof error["message"] === "string";
}

/** Anything shaped like a response, well-formed or not: no `method`, and an `id`, `result` or `error`. Never answered. */
export function isResponseShaped(value: unknown): value is WireMessage {
  return isRecord(value) && !("method" in value) && ("id" in value || "result" in value || "error" in value);
}

/** An `initialize` request (any id, null included). */
export function isInitializeRequest(message: WireMessage): boolean {
  return message["jsonrpc"] === "2.0" && "id" in message && message["method"] === "initialize";
}

/** A key for a message id (`string:…`, `number:…`, `null`), or undefined for anything else. */
export function idKey(id: unknown): string | undefined {
  if (typeof id === "string") return `string:${id}`;
  if (typeof id === "number") return `number:${id}`;
  if (id === null) return "null";
  return undefined;
}

/** The agent methods a client must send with `Acp-Session-Id`. */
const SESSION_SCOPED = new Set(["session/cancel", "session/close", "session/delete", "session/fork", "session/load", "session/prompt", "session/resume", "session/set_config_option", "session/set_mode", "session/set_model"]);

/** Whether `method` must come with `Acp-Session-Id`. */
export function requiresSessionHeader(method: unknown): boolean {
  return typeof method === "string" && SESSION_SCOPED.has(method);
}

/** `params.sessionId` when it is a string. */
export function sessionIdOfParams(params: unknown): string | undefined {
  if (!isRecord(params)) return undefined;
  const id = params["sessionId"];
  return typeof id === "string" ? id : undefined;
}

/** The session of a request or notification (`params.sessionId`); none for a response. */
export function sessionIdOfCall(message: WireMessage): string | undefined {
  return "method" in message ? sessionIdOfParams(message["params"]) : undefined;
}

/** The session a successful response hands out (`result.sessionId`). */
export function sessionIdOfResult(message: WireMessage): string | undefined {
  if (!isResponse(message) || !("result" in message) || !isRecord(message["result"])) return undefined;
  const id = message["result"]["sessionId"];
  return typeof id === "string" ? id : undefined;
}

/** The answer to a message no id can be read from: `id: null` and the error. */
export function nullIdError(code: number, message: string, data?: unknown): WireMessage {
  return { jsonrpc: "2.0", id: null, error: data === undefined ? { code, message } : { code, message, data } };
}

/** One SSE event carrying a message's JSON text. */
export function sseEvent(json: string): string {
  return `data: ${json}\n\n`;
}

/** An SSE comment, sent to keep an idle stream open. */
export const SSE_KEEP_ALIVE = ":\n\n";

/** A plain-text answer, as the SDK's server gives its transport-level refusals. */
export function textResponse(body: string, status: number): Response {
  return new Response(body, { status, headers: { "Content-Type": "text/plain" } });
}

/** A JSON answer. */
export function jsonResponse(value: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), { status, headers: { "Content-Type": JSON_MIME_TYPE, ...headers } });
}
