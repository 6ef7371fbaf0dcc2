/**
 * `@agentclientprotocol/sdk/experimental/ws-client`: `createWebSocketStream(url)`, a client
 * stream over WebSocket that behaves as SDK 2.4.0's (remote-client/ws-stream.ts).
 *
 * @module
 */
import type { Stream } from "./message-stream.ts";
import type { AcpCookieStore } from "./cookie-store.ts";
import { WebSocketStreamClient, type WebSocketConstructor } from "./remote-client/ws-stream.ts";
import type { AnyMessage } from "./wire-types.ts";

export { MemoryAcpCookieStore, type AcpCookieStore } from "./cookie-store.ts";

export type { WebSocketConstructor, WebSocketLike } from "./remote-client/ws-stream.ts";

/** Options of {@link createWebSocketStream} (the SDK's). */
export interface WebSocketStreamOptions {
  /** Subprotocols to offer. */
  readonly protocols?: string[];
  /** Headers of the upgrade request (constructors that take them, such as `ws`; browsers ignore them). */
  readonly headers?: Record<string, string>;
  /** The WebSocket constructor. Default the platform's (Node 22+, browsers); pass `ws`'s on Node 20. */
  readonly WebSocket?: WebSocketConstructor;
  /** `"omit"`: no cookie is kept or sent. Default `"include"`. */
  readonly cookies?: "include" | "omit";
  /** A store of your own, kept across streams (reconnects); default a store per stream, cleared when it closes. Browsers use their own jar. */
  readonly cookieStore?: AcpCookieStore;
}

/** A stream to the ACP server at `serverUrl` (`ws://host:port/acp`), for `client().connect(stream)`. */
export function createWebSocketStream<Message extends AnyMessage = AnyMessage>(serverUrl: string, options: WebSocketStreamOptions = {}): Stream<Message> {
  return new WebSocketStreamClient(serverUrl, options).stream as unknown as Stream<Message>;
}
