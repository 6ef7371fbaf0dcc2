/**
 * Remote ACP (RFD "Streamable HTTP & WebSocket Transport"), the portable
 * part: the server core with its fetch-style `handleRequest`, and the client
 * transports. Node servers: `listen`/`nodeHandler` from `./node.ts`;
 * WebSocket on Node: `./node-ws.ts` (needs the optional `ws` package).
 */
export { createRemoteServer, type RemoteServer, type RemoteServerStats } from "./server.ts";
export { bearer, type Authorize, type ConnectionInfo, type OnConnection, type RemoteServerOptions, type ServedConnection } from "./options.ts";
export type { RemoteRequest, RemoteResponse } from "./request.ts";
export { BodyTooLargeError } from "./request.ts";
export type { EventSink } from "./sink.ts";
export type { AcceptedSocket, SocketFlow } from "./websocket.ts";
export { httpClientTransport, type HttpClientOptions } from "./http-client.ts";
export { webSocketClientTransport, type WebSocketClientOptions, type WebSocketConstructor, type WebSocketLike } from "./ws-client.ts";
export { createCookieJar, type CookieJar } from "./cookies.ts";
export { DEFAULT_PATH, HEADER_CONNECTION_ID, HEADER_SESSION_ID } from "./protocol.ts";
