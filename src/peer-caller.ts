/** What generated peer proxies call into: the connection's outbound side. */

/** Options of one outbound request. */
export interface RequestOptions {
  /** Aborting sends `$/cancel_request` and, by default, keeps waiting for the peer's one answer. */
  readonly signal?: AbortSignal;
  /** Cancels (as `signal` does) after this many milliseconds, then rejects. No default: calls wait as long as the peer takes. */
  readonly timeoutMs?: number;
}

/** The outbound side of a connection as generated peer proxies see it. */
export interface PeerCaller {
  /** Sends a request and settles with its validated result. */
  request(wire: string, params: unknown, options?: RequestOptions): Promise<unknown>;
  /** Sends a notification. */
  notify(wire: string, params: unknown): Promise<void>;
}
