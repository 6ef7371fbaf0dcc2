/**
 * The Streamable HTTP half of the SDK-style server: what each POST, GET and DELETE gets, as SDK
 * 2.4.0 answers it. A POST without a connection must be `initialize` (it opens one: 200 with the
 * agent's answer and `Acp-Connection-Id`); other POSTs go to their connection (202), checked for
 * their session header and held back while the connection's readers are behind; a GET opens the
 * connection's or a session's SSE stream; a DELETE closes the connection.
 */
import type { ConnectionState, Route, ServedAgent } from "./connection-state.ts";
import { ConnectionClosedError, ConnectionLimitError } from "./limits.ts";
import type { ConnectionRegistry } from "./registry.ts";
import { sseBody } from "./sse-body.ts";
import { EVENT_STREAM_MIME_TYPE, HEADER_CONNECTION_ID, HEADER_SESSION_ID, idKey, isInitializeRequest, isNotification, isRecord, isRequest, isResponse, JSON_MIME_TYPE, jsonResponse, nullIdError, requiresSessionHeader, sessionIdOfParams, textResponse, type WireMessage } from "./wire.ts";

/** The client gave up on a request that still waited for its connection. */
class RequestAbortedError extends Error {
  constructor() {
    super("Request aborted");
    this.name = "RequestAbortedError";
  }
}

/** A refusal: the status and text to answer with. */
type Refusal = { readonly ok: false; readonly status: number; readonly message: string };

/** Answers one request; `agent` serves the connection an `initialize` opens. */
export async function answerHttp(registry: ConnectionRegistry, request: Request, agent: () => ServedAgent): Promise<Response> {
  try {
    if (request.method === "POST") return await post(registry, request, agent);
    if (request.method === "GET") return get(registry, request);
    if (request.method === "DELETE") return remove(registry, request);
    return textResponse("Method Not Allowed", 405);
  } catch (error) {
    // Requests meet connection limits only through over-long ids.
    if (error instanceof ConnectionLimitError) return textResponse(error.message, 400);
    // A connection that shut down mid-request is answered as gone.
    if (error instanceof ConnectionClosedError) return textResponse("Unknown Acp-Connection-Id", 404);
    if (error instanceof RequestAbortedError) return textResponse("Request aborted", 499);
    throw error;
  }
}

async function post(registry: ConnectionRegistry, request: Request, agent: () => ServedAgent): Promise<Response> {
  if (request.headers.get("Content-Type")?.split(";", 1)[0]?.trim().toLowerCase() !== JSON_MIME_TYPE) return textResponse("Unsupported Media Type", 415);
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return textResponse("Invalid JSON", 400);
  }
  // ACP has no batches: one -32600 with id null, the entries untouched.
  if (Array.isArray(body)) return jsonResponse(nullIdError(-32600, "Invalid request: JSON-RPC batches are not supported"), 400);
  if (!isRecord(body)) return textResponse("Invalid JSON-RPC message", 400);
  const connectionId = request.headers.get(HEADER_CONNECTION_ID);
  if (isInitializeRequest(body)) {
    if (connectionId) return textResponse("Initialize not allowed on existing connection", 400);
    return initialize(registry, body, request.signal, agent);
  }
  if (!connectionId) return textResponse("Missing Acp-Connection-Id", 400);
  const connection = registry.get(connectionId);
  if (connection === undefined) return textResponse("Unknown Acp-Connection-Id", 404);
  const refused = isResponse(body) ? await forwardResponse(connection, body, request.headers) : await forwardCall(connection, body, request.headers, request.signal);
  return refused === undefined ? new Response(null, { status: 202 }) : textResponse(refused.message, refused.status);
}

function get(registry: ConnectionRegistry, request: Request): Response {
  if (request.headers.get("Upgrade")?.toLowerCase() === "websocket") return textResponse("WebSocket upgrade is not implemented", 426);
  if (!request.headers.get("Accept")?.toLowerCase().includes(EVENT_STREAM_MIME_TYPE)) return textResponse("Not Acceptable", 406);
  const connectionId = request.headers.get(HEADER_CONNECTION_ID);
  if (!connectionId) return textResponse("Missing Acp-Connection-Id", 400);
  const connection = registry.get(connectionId);
  if (connection === undefined) return textResponse("Unknown Acp-Connection-Id", 404);
  const sessionId = request.headers.get(HEADER_SESSION_ID);
  const lease = sessionId ? connection.acquireSessionStream(sessionId) : connection.connectionStream.tryAcquire();
  if (lease === undefined) return textResponse("Outbound stream already has an active receiver", 409);
  return new Response(sseBody(lease), { status: 200, headers: { "Content-Type": EVENT_STREAM_MIME_TYPE, "Cache-Control": "no-cache", Connection: "keep-alive" } });
}

function remove(registry: ConnectionRegistry, request: Request): Response {
  const connectionId = request.headers.get(HEADER_CONNECTION_ID);
  if (!connectionId) return textResponse("Missing Acp-Connection-Id", 400);
  if (registry.remove(connectionId) === undefined) return textResponse("Unknown Acp-Connection-Id", 404);
  return new Response(null, { status: 202 });
}

/** Opens a connection with `initialize`: 200 with whatever the agent answered (an error too), 499 when the client left, 500 when no answer came. */
async function initialize(registry: ConnectionRegistry, message: WireMessage, signal: AbortSignal, agent: () => ServedAgent): Promise<Response> {
  if (!("id" in message) || message["id"] === null) return textResponse("Initialize request must include an ID", 400);
  if (signal.aborted) return textResponse("Request aborted", 499);
  let connection: ConnectionState | undefined;
  try {
    connection = registry.createConnection(agent());
    const opened = connection;
    const answer = (async () => {
      await opened.writeInbound(message);
      return opened.recvInitial(message["id"]);
    })();
    answer.catch(() => undefined);
    const initial = await raceAbort(answer, signal);
    if (signal.aborted) throw new RequestAbortedError();
    connection.startRouter();
    connection.startConnectHandlers();
    return jsonResponse(initial, 200, { [HEADER_CONNECTION_ID]: connection.connectionId });
  } catch (error) {
    if (connection !== undefined) registry.remove(connection.connectionId);
    if (error instanceof RequestAbortedError) return textResponse("Request aborted", 499);
    return jsonResponse({ jsonrpc: "2.0", id: message["id"], error: { code: -32603, message: "Initialize failed", data: error instanceof Error ? error.message : undefined } }, 500);
  }
}

/** `promise`, or a `RequestAbortedError` when `signal` aborts first. */
async function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) throw new RequestAbortedError();
  let stopListening = () => {};
  const aborted = new Promise<never>((_, reject) => {
    const onAbort = () => reject(new RequestAbortedError());
    signal.addEventListener("abort", onAbort, { once: true });
    stopListening = () => signal.removeEventListener("abort", onAbort);
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    stopListening();
  }
}

/** Forwards a client request or notification (or anything else object-shaped, for the agent to judge); returns a refusal or nothing. */
async function forwardCall(connection: ConnectionState, message: WireMessage, headers: Headers, signal: AbortSignal): Promise<Refusal | undefined> {
  const route = routeOf(message, headers);
  if (typeof route === "object" && "ok" in route) return route;
  if (route !== "connection") connection.validateSessionId(route.session);
  // Anything but a notification makes the agent answer: wait until the client has read enough to make room.
  if (!isNotification(message)) {
    connection.validateRequestId(message["id"]);
    await connection.waitForOutboundCapacity(signal).catch((error: unknown) => {
      throw signal.aborted ? new RequestAbortedError() : error;
    });
  }
  // Only a valid request is answered with its own id, which is what removes its route.
  const key = isRequest(message) ? idKey(message.id) : undefined;
  // `session/load` replays the session's history on the session stream and answers on the connection's.
  if (key !== undefined) connection.pendingRoutes.set(key, message["method"] === "session/load" ? "connection" : route);
  await connection.writeInbound(message);
  return undefined;
}

/** Forwards the client's answer to an agent request, checking it names the session the request came from. */
async function forwardResponse(connection: ConnectionState, message: WireMessage, headers: Headers): Promise<Refusal | undefined> {
  const key = idKey(message["id"]);
  const route = key === undefined ? undefined : connection.clientResponseRoutes.get(key);
  const sessionId = headers.get(HEADER_SESSION_ID);
  if (route !== undefined && route !== "connection") {
    if (!sessionId) return { ok: false, status: 400, message: "Missing Acp-Session-Id" };
    if (sessionId !== route.session) return { ok: false, status: 400, message: "Mismatched Acp-Session-Id" };
  }
  if (key !== undefined) connection.clientResponseRoutes.delete(key);
  await connection.writeInbound(message);
  return undefined;
}

/** Where a call's answer goes, from its `Acp-Session-Id` and `params.sessionId` (which must agree), or a refusal. */
function routeOf(message: WireMessage, headers: Headers): Route | Refusal {
  const header = headers.get(HEADER_SESSION_ID);
  const param = sessionIdOfParams(message["params"]);
  if ((requiresSessionHeader(message["method"]) || param !== undefined) && !header) return { ok: false, status: 400, message: "Missing Acp-Session-Id" };
  if (header !== null && param !== undefined && header !== param) return { ok: false, status: 400, message: "Mismatched Acp-Session-Id" };
  if (header) return { session: header };
  if (param) return { session: param };
  return "connection";
}
