/**
 * The SDK server's per-connection limits (`ConnectionLimits`), their defaults and checks, and the
 * two errors a connection stops with: a broken limit, and a connection that is closed.
 */

/** Default of {@link ConnectionLimits.maxBufferedBytes}: 64 MiB. */
export const DEFAULT_MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
/** Default of {@link ConnectionLimits.maxOutputStallMs}: 60 s. */
export const DEFAULT_MAX_OUTPUT_STALL_MS = 60_000;
/** Default of {@link ConnectionLimits.maxBufferedSessionStreams}: 1024. */
export const DEFAULT_MAX_BUFFERED_SESSION_STREAMS = 1024;
/** Default of {@link ConnectionLimits.maxIdLength}: 1024. */
export const DEFAULT_MAX_ID_LENGTH = 1024;

/** Longest timer Node accepts, the bound of `maxOutputStallMs`. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * What one connection may hold. `maxBufferedBytes`: output (JSON text) queued for HTTP readers,
 * or unsent on a WebSocket, before the agent's sends and the client's requests wait.
 * `maxOutputStallMs`: how long output may wait with no reader taking any before the connection
 * closes. `maxBufferedSessionStreams`: session streams holding output with no reader.
 * `maxIdLength`: longest session id or string request id.
 */
export interface ConnectionLimits {
  readonly maxBufferedBytes?: number;
  readonly maxOutputStallMs?: number;
  readonly maxBufferedSessionStreams?: number;
  readonly maxIdLength?: number;
}

/** Every limit, defaults filled in. */
export type ResolvedLimits = Required<ConnectionLimits>;

/** The limits with their defaults, each a positive safe integer (a `RangeError` names the first that is not). */
export function resolveLimits(options: ConnectionLimits): ResolvedLimits {
  const limits = {
    maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
    maxOutputStallMs: options.maxOutputStallMs ?? DEFAULT_MAX_OUTPUT_STALL_MS,
    maxBufferedSessionStreams: options.maxBufferedSessionStreams ?? DEFAULT_MAX_BUFFERED_SESSION_STREAMS,
    maxIdLength: options.maxIdLength ?? DEFAULT_MAX_ID_LENGTH,
  };
  for (const [name, value] of Object.entries(limits)) if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive safe integer`);
  if (limits.maxOutputStallMs > MAX_TIMER_MS) throw new RangeError(`maxOutputStallMs must be at most ${MAX_TIMER_MS}`);
  return limits;
}

/** A client or agent went past a limit; the message names it and its value. */
export class ConnectionLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConnectionLimitError";
  }
}

/** The error for holding more than `limit` allows. */
export function limitExceeded(limit: keyof ResolvedLimits, limits: ResolvedLimits): ConnectionLimitError {
  return new ConnectionLimitError(`Connection exceeds ${limit} (${limits[limit]})`);
}

/** The error for output nobody took for `maxOutputStallMs`. */
export function outputStalled(limits: ResolvedLimits): ConnectionLimitError {
  return new ConnectionLimitError(`Connection output stalled for maxOutputStallMs (${limits.maxOutputStallMs})`);
}

/** A message came for a connection that has shut down. */
export class ConnectionClosedError extends Error {
  constructor() {
    super("ACP connection is closed");
    this.name = "ConnectionClosedError";
  }
}
