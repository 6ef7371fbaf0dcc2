/**
 * `@agentclientprotocol/sdk/experimental/http-client`: `createHttpStream(url)`, a client stream
 * over Streamable HTTP that makes the requests SDK 2.4.0's client makes, in its order
 * (remote-client/http-stream.ts).
 *
 * @module
 */
import { DEFAULT_MAX_MESSAGE_BYTES, type Stream } from "./message-stream.ts";
import type { AcpCookieStore } from "./cookie-store.ts";
import { HttpStreamClient } from "./remote-client/http-stream.ts";
import type { AnyMessage } from "./wire-types.ts";

export { MemoryAcpCookieStore, type AcpCookieStore } from "./cookie-store.ts";

export { DEFAULT_MAX_MESSAGE_BYTES, MessageTooLargeError } from "./message-stream.ts";

/** Options of {@link createHttpStream} (the SDK's). */
export interface HttpStreamOptions {
  /** The `fetch` to use. Default the platform's. */
  readonly fetch?: typeof globalThis.fetch;
  /** Headers sent with every request. */
  readonly headers?: Record<string, string>;
  /** `"omit"`: no cookie is kept or sent. Default `"include"`. */
  readonly cookies?: "include" | "omit";
  /** A store of your own, kept across streams (reconnects); default a store per stream, cleared when it closes. */
  readonly cookieStore?: AcpCookieStore;
  /** Longest message (an SSE event, an answer's body) accepted. Default 32 MiB. */
  readonly maxMessageBytes?: number;
}

/** A stream to the ACP server at `serverUrl` (its endpoint, e.g. `http://host:port/acp`), for `client().connect(stream)`. Throws a `RangeError` for a `maxMessageBytes` that is not a positive safe integer. */
export function createHttpStream<Message extends AnyMessage = AnyMessage>(serverUrl: string, options: HttpStreamOptions = {}): Stream<Message> {
  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  if (!Number.isSafeInteger(maxMessageBytes) || maxMessageBytes <= 0) throw new RangeError("maxMessageBytes must be a positive safe integer");
  return new HttpStreamClient(serverUrl, { ...options, maxMessageBytes }).stream as unknown as Stream<Message>;
}
