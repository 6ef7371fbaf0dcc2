/**
 * The `/acp` endpoint (RFD "Unified Endpoint Routing"): maps POST, GET and
 * DELETE onto connections and sessions. Only routing lives here: the
 * message a POST carries is parsed and classified once, with the
 * connection's own parser and classifier (src/jsonrpc/), routed by its kind,
 * and handed parsed to the connection's pipeline, which gates, validates
 * and answers it as over stdio.
 */
import type { RequestId } from "../context.ts";
import { ErrorCode, wireError, type ErrorObject } from "../errors.ts";
import { classify } from "../jsonrpc/classify.ts";
import { errorMessage } from "../jsonrpc/messages.ts";
import { ParseFailure, parseValue } from "../jsonrpc/parse.ts";
import { unusableAnswer, type UnusableAnswer } from "../jsonrpc/unusable.ts";
import { HttpConnection, type InboundMessage } from "./http-connection.ts";
import { sessionIdOfMessage } from "../jsonrpc/session-id.ts";
import { MAX_EARLY_SESSION_STREAMS } from "./session-streams.ts";
import { acceptsEventStream, EVENT_STREAM_TYPE, HEADER_CONNECTION_ID, HEADER_SESSION_ID, isJsonContentType, JSON_TYPE, nullIdErrorBody, oneLine } from "./protocol.ts";
import { BodyTooLargeError, type RemoteRequest, type RemoteResponse } from "./request.ts";
import { ConnectionSessions } from "./sessions.ts";
import { newConnectionId, type ServerState } from "./state.ts";

const JSON_HEADERS = { "content-type": JSON_TYPE } as const;
const SSE_HEADERS = { "content-type": EVENT_STREAM_TYPE, "cache-control": "no-cache", "x-accel-buffering": "no" } as const;
const ACCEPTED: RemoteResponse = { status: 202, headers: {} };

/** A transport-level rejection: JSON-RPC error body with `id: null` (it never echoes an id). */
function reject(status: number, message: string, code: number = ErrorCode.InvalidRequest, headers: Record<string, string> = {}): RemoteResponse {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: nullIdErrorBody({ code, message }) };
}

/** Handles one request to the endpoint. Never throws. */
export async function handle(state: ServerState, req: RemoteRequest): Promise<RemoteResponse> {
  if (state.authorize) {
    let ok = false;
    try {
      ok = await state.authorize((name) => req.header(name));
    } catch {
      ok = false;
    }
    if (!ok) return reject(401, "Unauthorized", ErrorCode.AuthRequired, { "www-authenticate": "Bearer" });
  }
  switch (req.method) {
    case "POST":
      return post(state, req);
    case "GET":
      return get(state, req);
    case "DELETE":
      return del(state, req);
    default:
      return reject(405, `Method ${req.method} not allowed`, ErrorCode.InvalidRequest, { allow: "GET, POST, DELETE" });
  }
}

async function post(state: ServerState, req: RemoteRequest): Promise<RemoteResponse> {
  if (!isJsonContentType(req.header("content-type"))) return reject(415, "Content-Type must be application/json");
  let text: string;
  try {
    text = await req.text(state.limits.maxBodyBytes);
  } catch (error) {
    return error instanceof BodyTooLargeError ? reject(413, error.message) : reject(400, "the request body could not be read");
  }
  const line = oneLine(text);
  // The one parse and the one classification of this message: the connection takes both as they are.
  const value = parseValue(line, state.reader.maxDepth);
  if (value instanceof ParseFailure) {
    const { id, error } = unusableAnswer(value, undefined) as UnusableAnswer;
    return { status: 400, headers: JSON_HEADERS, body: JSON.stringify(errorMessage(id, error)) };
  }
  if (Array.isArray(value)) return reject(501, "JSON-RPC batches are not supported (RFD: 501)");
  const kind = classify(value);
  const message: InboundMessage = { value, line, kind };
  const body = value as { id?: RequestId; method?: string };
  const connectionId = req.header(HEADER_CONNECTION_ID);
  if (connectionId === undefined) {
    if (kind === "request" && state.router.inboundRow("agent", "request", body.method as string)?.lifecycle === "initialize") return initialize(state, req, message, body.id as RequestId);
    return reject(400, "Missing Acp-Connection-Id");
  }
  const connection = state.http.get(connectionId);
  if (!(connection instanceof HttpConnection) || connection.isClosed) return reject(404, "Unknown Acp-Connection-Id");

  let session: string | undefined;
  if (kind === "request" || kind === "notification") session = sessionIdOfMessage(value);
  else if (kind === "response") session = connection.clientRoutes.get(body.id as RequestId) ?? undefined;
  const headerSession = req.header(HEADER_SESSION_ID);
  if (session !== undefined) {
    // An answer to our request is routed by the id we issued: the header is optional there (clients of the earlier variant omit it).
    if (headerSession === undefined && kind !== "response") return reject(400, "Missing Acp-Session-Id: the message is session-scoped");
    if (headerSession !== undefined && headerSession !== session) return reject(400, "Acp-Session-Id does not match the message's session");
  }
  if (kind === "response") connection.clientRoutes.delete(body.id as RequestId);
  if (kind === "request" && !connection.sessions.request(body.id as RequestId, state.router.inboundRow("agent", "request", body.method as string), session)) {
    const error: ErrorObject = { code: ErrorCode.InternalError, message: `the server holds its maximum of ${state.limits.maxSessions} sessions` };
    return { status: 503, headers: { ...JSON_HEADERS, "retry-after": "5" }, body: JSON.stringify(errorMessage(body.id as RequestId, error)) };
  }
  // While the connection is paused (its handlers are behind) the message waits, and so does this answer.
  const held = connection.deliver(message, kind === "request" ? body.id : undefined, session);
  if (held !== undefined && !(await held)) return reject(404, "Unknown Acp-Connection-Id: it closed while the message waited");
  return ACCEPTED;
}

/** POST `initialize` without a connection id: a new connection, answered 200 with the body and `Acp-Connection-Id`. */
async function initialize(state: ServerState, req: RemoteRequest, message: InboundMessage, id: RequestId): Promise<RemoteResponse> {
  const refusal = state.refusal();
  if (refusal !== undefined) return reject(503, refusal, ErrorCode.InternalError, { "retry-after": "5" });
  const connectionId = newConnectionId();
  const connection = new HttpConnection(connectionId, new ConnectionSessions(state.counter), state.limits, (c) => state.remove(c));
  state.add(connection, "http");
  try {
    connection.served = state.open({ connectionId, transport: "http", header: (name) => req.header(name) }, connection);
  } catch {
    connection.close();
    return reject(500, "the agent could not be started", ErrorCode.InternalError);
  }
  req.onAbort?.(() => connection.fail("the client went away before initialize was answered"));
  let answer;
  try {
    answer = await connection.initialize(message, id);
  } catch (error) {
    return reject(500, error instanceof Error ? error.message : "initialize failed", ErrorCode.InternalError);
  }
  if (!answer.ok) {
    // A failed initialize creates no connection; the status says so too (the SDK answers 200 here).
    connection.fail("initialize failed");
    return { status: errorStatus(answer.line), headers: JSON_HEADERS, body: answer.line };
  }
  const headers: Record<string, string> = { ...JSON_HEADERS, [HEADER_CONNECTION_ID]: connectionId };
  if (state.affinityCookie !== undefined) headers["set-cookie"] = state.affinityCookie;
  return { status: 200, headers, body: answer.line };
}

/** 500 for an internal error answer, 400 for any other error. */
function errorStatus(line: string): number {
  try {
    return (JSON.parse(line) as { error?: { code?: unknown } }).error?.code === ErrorCode.InternalError ? 500 : 400;
  } catch {
    return 500;
  }
}

function get(state: ServerState, req: RemoteRequest): RemoteResponse {
  if (req.header("upgrade")?.toLowerCase() === "websocket") return reject(426, "this server adapter does not accept WebSocket upgrades");
  if (!acceptsEventStream(req.header("accept"))) return reject(406, "Accept must include text/event-stream");
  const connectionId = req.header(HEADER_CONNECTION_ID);
  if (connectionId === undefined) return reject(400, "Missing Acp-Connection-Id");
  const connection = state.http.get(connectionId);
  if (!(connection instanceof HttpConnection) || connection.isClosed) return reject(404, "Unknown Acp-Connection-Id");
  const sessionId = req.header(HEADER_SESSION_ID);
  // A reconnecting reader resumes with the id of the last event it got (and replaces a reader the server still thinks is there).
  const lastEventId = req.header("last-event-id");
  if (lastEventId === undefined && (sessionId === undefined ? connection.hasStream : connection.hasSessionStream(sessionId))) {
    return reject(409, sessionId === undefined ? "the connection's event stream is already open" : "the session's event stream is already open");
  }
  if (sessionId !== undefined && connection.tooManyEarlyStreams(sessionId)) return reject(404, `Unknown Acp-Session-Id: ${MAX_EARLY_SESSION_STREAMS} streams already wait for sessions this connection has not opened`);
  const refusal = connection.resumable(sessionId, lastEventId);
  if (refusal !== undefined) return reject(refusal.status, refusal.message);
  // A session this connection has not opened is accepted too, and held for its session/load, session/resume or
  // session/delete (docs/compatibility.md): the SDK's client opens the stream first and waits for its head.
  if (sessionId === undefined) return { status: 200, headers: SSE_HEADERS, open: (sink) => connection.attach(sink, lastEventId) || sink.end() };
  return { status: 200, headers: SSE_HEADERS, open: (sink) => connection.attachSession(sessionId, sink, lastEventId) || sink.end() };
}

function del(state: ServerState, req: RemoteRequest): RemoteResponse {
  const connectionId = req.header(HEADER_CONNECTION_ID);
  if (connectionId === undefined) return reject(400, "Missing Acp-Connection-Id");
  const connection = state.http.get(connectionId);
  if (!connection) return reject(404, "Unknown Acp-Connection-Id");
  connection.fail("the client ended the connection (DELETE)");
  return ACCEPTED;
}
