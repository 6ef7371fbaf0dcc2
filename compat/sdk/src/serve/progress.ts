/**
 * Waiting for a connection's readers to take output: each waiter is told the next time a reader
 * takes some (or routing stops), or gives up after a time, or when its request's signal aborts.
 */

/** Resolves `true` at the next `notify` of `waiters`, `false` when `timeoutMs` passes first (when given), and rejects with `signal`'s reason when it aborts first; it leaves nothing in `waiters` either way. */
export function nextProgress(waiters: Set<() => void>, timeoutMs: number | undefined, signal?: AbortSignal): Promise<boolean> {
  return new Promise<boolean>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      waiters.delete(onProgress);
      signal?.removeEventListener("abort", onAbort);
      clearTimeout(timer);
    };
    const onProgress = () => {
      done();
      resolve(true);
    };
    const onAbort = () => {
      done();
      reject(signal?.reason as Error);
    };
    waiters.add(onProgress);
    signal?.addEventListener("abort", onAbort, { once: true });
    if (timeoutMs !== undefined)
      timer = setTimeout(() => {
        done();
        resolve(false);
      }, timeoutMs);
  });
}

/** Tells every waiter in `waiters`. */
export function notifyProgress(waiters: Set<() => void>): void {
  for (const waiter of [...waiters]) waiter();
}
