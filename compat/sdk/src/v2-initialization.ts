/**
 * The ACP v2 initialization lifecycle of one side of a connection, as SDK 2.4.0's v2 API keeps
 * it: uninitialized → initializing (one `initialize` on its way) → initialized (the exchange
 * recorded), or failed for good (the connection closed first). A failed first attempt leaves the
 * connection uninitialized, so `initialize` may be sent again; a repeat is allowed until another
 * request was sent, and a failed repeat keeps the earlier exchange. Calls made before the exchange
 * wait while one is on its way and are refused `-32600` when none is; `initialized` resolves with
 * a copy of the exchange (`{ request, response }`).
 */
import { RequestError } from "./request-error.ts";

/** A promise with its settle functions. */
function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** The recorded `initialize` exchange. */
export interface InitializationSnapshot {
  readonly request: unknown;
  readonly response: unknown;
}

/** The refusal of a call made before the connection was initialized. */
export function notInitialized(method: string): RequestError {
  return RequestError.invalidRequest(`ACP v2 connection must be initialized before '${method}'`);
}

/** See the module comment. */
export class V2Initialization {
  #phase: "uninitialized" | "initializing" | "initialized" | "failed" = "uninitialized";
  #request: unknown;
  #snapshot: InitializationSnapshot | undefined;
  #otherRequestSeen = false;
  /** Settles when the attempt on its way ends, whichever way. */
  #attempt = deferred<void>();
  /** Settles with the first exchange, or fails for good. */
  readonly #barrier = deferred<InitializationSnapshot>();

  constructor() {
    this.#barrier.promise.catch(() => {});
    this.#attempt.resolve();
  }

  /** Where the lifecycle is. */
  get status(): "uninitialized" | "initializing" | "initialized" | "failed" {
    return this.#phase;
  }

  /** Whether an exchange completed (a repeat may be on its way). */
  get hasInitialized(): boolean {
    return this.#snapshot !== undefined && this.#phase !== "failed";
  }

  /** A copy of the exchange, once there is one and no repeat is on its way; rejects when initialization failed for good. */
  get initialized(): Promise<InitializationSnapshot> {
    return this.#barrier.promise.then(() => this.#attempt.promise).then(() => structuredClone(this.#snapshot as InitializationSnapshot));
  }

  /** Why an `initialize` cannot start now, or undefined when it can. */
  beginError(): RequestError | undefined {
    if (this.#phase === "initializing") return RequestError.invalidRequest("ACP v2 initialize is already in progress");
    if (this.#phase === "failed") return RequestError.invalidRequest("ACP v2 connection initialization failed");
    if (this.#phase === "initialized" && this.#otherRequestSeen) return RequestError.invalidRequest("ACP v2 initialize must not be repeated after other requests");
    return undefined;
  }

  /** Starts an attempt with `request` (copied now: later changes to it change nothing); throws the `beginError`, or when `request` cannot be copied. */
  begin(request: unknown): void {
    const error = this.beginError();
    if (error !== undefined) throw error;
    const copy = structuredClone(request);
    this.#request = copy;
    this.#phase = "initializing";
    this.#attempt = deferred<void>();
  }

  /** Records the answer of the attempt on its way. */
  complete(response: unknown): void {
    if (this.#phase !== "initializing") throw RequestError.invalidRequest("ACP v2 initialization is not in progress");
    const snapshot = { request: structuredClone(this.#request), response: structuredClone(response) };
    this.#snapshot = snapshot;
    this.#request = undefined;
    this.#phase = "initialized";
    this.#barrier.resolve(snapshot);
    this.#attempt.resolve();
  }

  /** Ends the attempt on its way without an exchange: the earlier one stays, or the connection is uninitialized again. */
  failAttempt(): void {
    if (this.#phase !== "initializing") return;
    this.#phase = this.#snapshot !== undefined ? "initialized" : "uninitialized";
    this.#request = undefined;
    this.#attempt.resolve();
  }

  /** Fails initialization for good (the connection closed before it); a repeat on its way only fails its attempt. */
  fail(error?: unknown): void {
    if (this.#phase === "initializing" && this.#snapshot !== undefined) return this.failAttempt();
    if (this.#phase !== "uninitialized" && this.#phase !== "initializing") return;
    this.#phase = "failed";
    this.#request = undefined;
    this.#barrier.reject(error ?? RequestError.invalidRequest("ACP v2 connection initialization failed"));
    this.#attempt.resolve();
  }

  /** Records a request other than `initialize` (no repeat after it). */
  noteRequest(): void {
    if (this.#phase === "initializing" || this.#phase === "initialized") this.#otherRequestSeen = true;
  }

  /** Resolves once initialized; waits for an attempt on its way; rejects `-32600` when there is none (or it failed), or with the failure for good. */
  waitUntilInitialized(method: string): Promise<void> {
    if (this.#phase === "initialized") return Promise.resolve();
    if (this.#phase === "initializing") return this.#attempt.promise.then(() => this.waitUntilInitialized(method));
    if (this.#phase === "failed") return this.#barrier.promise.then(() => undefined);
    return Promise.reject(notInitialized(method));
  }
}
