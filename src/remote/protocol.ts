/**
 * The remote ACP transport's vocabulary (RFD "Streamable HTTP & WebSocket
 * Transport"): header names, media types, and the small pure checks the
 * HTTP layer makes before a message reaches a connection. Portable: no
 * `node:` imports.
 */
import { errorMessage } from "../jsonrpc/messages.ts";
import type { ErrorObject } from "../errors.ts";
import { readerLimits, type ReaderLimits } from "../transport/reader.ts";

/** Binds a request to an initialized connection (RFD "Identity Model"). Lower case: HTTP/2 header names are lower case. */
export const HEADER_CONNECTION_ID = "acp-connection-id";
/** Names the session of a session-scoped POST or GET stream. */
export const HEADER_SESSION_ID = "acp-session-id";
export const JSON_TYPE = "application/json";
export const EVENT_STREAM_TYPE = "text/event-stream";

/** The endpoint path the RFD names. Default of every server and adapter here. */
export const DEFAULT_PATH = "/acp";

/** True when a `Content-Type` value is `application/json` (parameters such as `charset` allowed). */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const semi = value.indexOf(";");
  return (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase() === JSON_TYPE;
}

/** True when an `Accept` value admits `text/event-stream` (explicitly, `text/*` or `*\/*`). */
export function acceptsEventStream(value: string | undefined): boolean {
  if (value === undefined) return false;
  for (const part of value.split(",")) {
    const type = (part.split(";", 1)[0] ?? "").trim().toLowerCase();
    if (type === EVENT_STREAM_TYPE || type === "text/*" || type === "*/*") return true;
  }
  return false;
}

/** A JSON-RPC error body with `id: null`: transport-level rejections never echo an id (DESIGN §4.3). */
export function nullIdErrorBody(error: ErrorObject): string {
  return JSON.stringify(errorMessage(null, error));
}

/** Frames one JSON text (no line breaks) as one SSE event. */
export function sseEvent(json: string): string {
  return `data: ${json}\n\n`;
}

/** An SSE comment: keeps proxies from closing an idle stream and detects readers that went away. */
export const SSE_KEEPALIVE = ":\n\n";

/**
 * A JSON text with its raw line breaks turned into spaces, so it is one
 * NDJSON line. Valid JSON never holds a raw CR or LF inside a string, so the
 * value is unchanged; invalid JSON stays invalid and is answered `-32700`.
 */
export function oneLine(text: string): string {
  return text.indexOf("\n") === -1 && text.indexOf("\r") === -1 ? text : text.replace(/[\r\n]/g, " ");
}

/** The message of `Transport.writeMessage`'s text: its line, without the newline that ends it. */
export function messageLine(text: string): string {
  return text.charCodeAt(text.length - 1) === 10 /* \n */ ? text.slice(0, -1) : text;
}

/** Limits for splitting the server's own output written as text (`write`): no length bound, it is ours. */
export const OWN_OUTPUT: ReaderLimits = readerLimits({ maxMessageBytes: Number.MAX_SAFE_INTEGER });
