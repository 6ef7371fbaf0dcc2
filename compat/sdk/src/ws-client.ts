/**
 * `@agentclientprotocol/sdk/experimental/ws-client`: `createWebSocketStream(url)`,
 * a client stream over WebSocket, on acp-router's WebSocket client transport.
 *
 * @module
 */
import { webSocketClientTransport, type WebSocketClientOptions, type WebSocketConstructor } from "../../../src/remote/ws-client.ts";
import { transportStream, type Stream } from "./message-stream.ts";
import { cookieJarOf, type AcpCookieStore } from "./cookie-store.ts";

export { MemoryAcpCookieStore, type AcpCookieStore } from "./cookie-store.ts";

export type { WebSocketConstructor, WebSocketLike } from "../../../src/remote/ws-client.ts";

/** Options of {@link createWebSocketStream} (the SDK's). */
export interface WebSocketStreamOptions {
  /** Subprotocols to offer. */
  readonly protocols?: string[];
  /** Headers of the upgrade request (constructors that take them, such as `ws`). */
  readonly headers?: Record<string, string>;
  /** `"omit"`: no cookie is kept or sent. Default `"include"`. */
  readonly cookies?: "include" | "omit";
  /** A store of your own, kept across streams (reconnects); default a store per stream, cleared when it closes. */
  readonly cookieStore?: AcpCookieStore;
  /** The WebSocket constructor. Default the platform's (Node 22+, browsers); pass `ws`'s on Node 20. */
  readonly WebSocket?: WebSocketConstructor;
}

/** A stream to the ACP server at `serverUrl` (`ws://host:port/acp`), for `client().connect(stream)`. */
export function createWebSocketStream(serverUrl: string, options: WebSocketStreamOptions = {}): Stream {
  const mapped: { -readonly [K in keyof WebSocketClientOptions]: WebSocketClientOptions[K] } = {};
  if (options.WebSocket !== undefined) mapped.WebSocket = options.WebSocket;
  if (options.headers !== undefined) mapped.headers = options.headers;
  const jar = cookieJarOf(options);
  if (jar !== undefined) mapped.cookies = jar;
  if (options.protocols !== undefined) mapped.protocols = options.protocols;
  return transportStream(webSocketClientTransport(serverUrl, mapped), "createWebSocketStream(url)");
}
