/**
 * Heap measurement for "does not buffer" tests. `forceGc()` is `global.gc`
 * when node runs with --expose-gc, else one obtained at run time through
 * `v8.setFlagsFromString` (works on Node 20); undefined if neither works, and
 * then callers must use generous bounds.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let cached: (() => void) | null | undefined;

export function forceGc(): (() => void) | undefined {
  if (cached === undefined) {
    const g = (globalThis as { gc?: () => void }).gc;
    if (typeof g === "function") cached = g;
    else {
      try {
        setFlagsFromString("--expose-gc");
        const fn: unknown = runInNewContext("gc");
        cached = typeof fn === "function" ? (fn as () => void) : null;
      } catch {
        cached = null;
      }
    }
  }
  return cached ?? undefined;
}

/** Live bytes (JS heap plus ArrayBuffer backing stores), after a full GC when one is available. */
export function liveBytes(): number {
  const gc = forceGc();
  if (gc) {
    gc();
    gc();
  }
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}
