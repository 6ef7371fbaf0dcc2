/**
 * The watchdog's settings and what it tells the app (src/connection/watchdog.ts
 * has the behaviour). Apart, with no imports, so the transport contract and
 * the connection options name them without importing the connection.
 */

/** The watchdog's settings: `ConnectionOptions.watchdog`, `SpawnAgentOptions.watchdog`. */
export interface WatchdogOptions {
  /**
   * How long the peer may send nothing while a request of ours is in
   * flight, in ms. No default: pick what the slowest honest turn of your
   * agent can take between two messages (a model's first token, a long
   * tool run that sends no progress).
   */
  readonly silenceMs: number;
  /**
   * Told when calls were given up on, before anything is rejected; returns
   * what to do (see {@link WatchdogDecision}). Nothing, or a throw: `"reject"`.
   */
  readonly onUnresponsive?: (event: UnresponsiveEvent) => WatchdogDecision | undefined | void;
}

/** What the app chose for an unresponsive peer: keep waiting, reject the silent calls, kill the peer, or restart it (supervised clients). */
export type WatchdogDecision = "wait" | "reject" | "kill" | "restart";

/** What `onUnresponsive` is told. */
export interface UnresponsiveEvent {
  /** The watchdog's `silenceMs`. */
  readonly silenceMs: number;
  /** How long the peer has sent nothing, in ms. */
  readonly silentMs: number;
  /** The calls that waited `silenceMs` or more with no sign of life, oldest first. */
  readonly requests: readonly UnresponsiveRequest[];
}

/** One call the watchdog is about to give up on. */
export interface UnresponsiveRequest {
  readonly id: number;
  readonly method: string;
  readonly sessionId: string | undefined;
  /** How long since it was sent, in ms. */
  readonly waitedMs: number;
}
