/**
 * The async helpers of every test folder: waiting without wall-clock
 * assertions (`delay`, `turn`, `deferred`, `track`) and deadlines (`within`
 * for a promise, `until` for a condition). Timeouts here only turn a hang
 * into a readable failure.
 */

/** Resolves after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves after one turn of the event loop (every queued microtask has run). */
export function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A promise with its resolve/reject exposed. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * Settles like `promise`, or rejects with `timed out after <ms> ms: <label>`.
 * Default 5000 ms: long enough for a child process on a loaded 2-core
 * machine; the deadline only turns a hang into a readable failure.
 */
export function within<T>(promise: Promise<T>, label: string, ms = 5000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${label}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Polls `condition` every 2 ms until it holds; rejects naming `label` after `ms` (default 5000, as `within`). */
export async function until(condition: () => boolean, label: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${label}`);
    await delay(2);
  }
}

/** What a promise did, without awaiting it: for asserting "not settled yet". */
export function track<T>(promise: Promise<T>): { readonly state: "pending" | "resolved" | "rejected"; readonly value: T | undefined; readonly error: unknown } {
  const t: { state: "pending" | "resolved" | "rejected"; value: T | undefined; error: unknown } = { state: "pending", value: undefined, error: undefined };
  promise.then(
    (value) => {
      t.state = "resolved";
      t.value = value;
    },
    (error: unknown) => {
      t.state = "rejected";
      t.error = error;
    },
  );
  return t;
}
