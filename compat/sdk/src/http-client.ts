/**
 * `@agentclientprotocol/sdk/experimental/http-client`: `createHttpStream(url)`,
 * a client stream over Streamable HTTP, on acp-router's HTTP client
 * transport (`acp-router/remote`'s `httpClientTransport`).
 *
 * @module
 */
import { httpClientTransport, type HttpClientOptions } from "../../../src/remote/http-client.ts";
import { transportStream, type Stream } from "./message-stream.ts";
import { cookieJarOf, type AcpCookieStore } from "./cookie-store.ts";

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
  /** Longest message accepted. Default 32 MiB. */
  readonly maxMessageBytes?: number;
}

/** A stream to the ACP server at `serverUrl` (its endpoint, e.g. `http://host:port/acp`), for `client().connect(stream)`. */
export function createHttpStream(serverUrl: string, options: HttpStreamOptions = {}): Stream {
  const mapped: { -readonly [K in keyof HttpClientOptions]: HttpClientOptions[K] } = {};
  if (options.fetch !== undefined) mapped.fetch = options.fetch;
  if (options.headers !== undefined) mapped.headers = options.headers;
  const jar = cookieJarOf(options);
  if (jar !== undefined) mapped.cookies = jar;
  if (options.maxMessageBytes !== undefined) mapped.maxMessageBytes = options.maxMessageBytes;
  return transportStream(httpClientTransport(serverUrl, mapped), "createHttpStream(url)");
}
