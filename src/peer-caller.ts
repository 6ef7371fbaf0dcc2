/** What generated peer proxies call into: the connection's outbound side. */

/** Options of one outbound request. */
export interface RequestOptions {
  /** Aborting sends `$/cancel_request` and, by default, keeps waiting for the peer's one answer. */
  readonly signal?: AbortSignal;
  /**
   * Cancels (as `signal` does) after this many milliseconds, then rejects with
   * `RequestTimeoutError`. Default: the connection's `requestTimeoutMs` (none
   * unless set, so calls wait as long as the peer takes); `Infinity` waits
   * without a timeout whatever the connection's default.
   */
  readonly timeoutMs?: number;
  /**
   * On abort, reject at once with `-32800` instead of waiting for the peer's
   * answer (which is then dropped quietly). Default false: the peer's answer —
   * a result, its `onCancel` result, or `-32800` — settles the call.
   */
  readonly stopWaitingOnCancel?: boolean;
}

/** The outbound side of a connection as generated peer proxies see it. */
export interface PeerCaller {
  /** Sends a request and settles with its validated result. */
  request(wire: string, params: unknown, options?: RequestOptions): Promise<unknown>;
  /** Sends a notification. */
  notify(wire: string, params: unknown): Promise<void>;
}
