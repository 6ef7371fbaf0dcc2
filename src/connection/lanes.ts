/**
 * Per-session serial lanes (DESIGN §7): tasks with the same key run one
 * after another in arrival order; different keys run concurrently. A lane
 * exists only while it is busy, so idle sessions hold no state.
 */

type Task = () => unknown;

interface Lane {
  readonly queue: Task[];
  head: number;
}

export class Lanes {
  private readonly lanes = new Map<string, Lane>();
  /** The lane whose task is running synchronously right now, if any. */
  current: string | undefined;
  private readonly onError: (error: unknown) => void;
  private readonly maxQueued: number;
  private readonly onPressure: (high: boolean, queued: number) => void;
  /** Tasks waiting in all lanes. */
  private queued = 0;
  private high = false;

  /**
   * `onPressure(true)` is called once more than `maxQueued` tasks wait in all
   * lanes together, and `onPressure(false)` once they are back to half of it.
   */
  constructor(onError: (error: unknown) => void, maxQueued = Infinity, onPressure: (high: boolean, queued: number) => void = () => {}) {
    this.onError = onError;
    this.maxQueued = maxQueued;
    this.onPressure = onPressure;
  }

  /** Runs `task` now if the lane is idle (synchronously), else after the tasks queued before it. */
  run(key: string, task: Task): void {
    const lane = this.lanes.get(key);
    if (lane) {
      lane.queue.push(task);
      if (++this.queued > this.maxQueued && !this.high) {
        this.high = true;
        this.onPressure(true, this.queued);
      }
    } else this.start(key, task);
  }

  /** Tasks waiting (not running) in all lanes. */
  get waiting(): number {
    return this.queued;
  }

  /**
   * The allocation-free form of {@link run} for an idle lane: calls
   * `fn(a, b, c)` now, as `key`'s task. Returns false, running nothing, when the
   * lane is busy (queue a task with `run` instead).
   */
  runNow<A, B, C>(key: string, fn: (a: A, b: B, c: C) => unknown, a: A, b: B, c: C): boolean {
    if (this.lanes.has(key)) return false;
    const outer = this.current;
    this.current = key;
    let result: unknown;
    try {
      result = fn(a, b, c);
    } catch (error) {
      this.onError(error);
    } finally {
      this.current = outer;
    }
    if (isThenable(result)) this.hold(key, result);
    return true;
  }

  /** True while a task of this lane runs or waits. */
  busy(key: string): boolean {
    return this.lanes.has(key);
  }

  /** Number of busy lanes (for stats). */
  get size(): number {
    return this.lanes.size;
  }

  /** Drops every queued task (connection closed). */
  clear(): void {
    this.lanes.clear();
    this.queued = 0;
    this.high = false;
  }

  private start(key: string, task: Task): void {
    const result = this.invoke(key, task);
    if (isThenable(result)) this.hold(key, result);
  }

  /** Marks the lane busy until `result` settles, then runs what queued meanwhile. */
  private hold(key: string, result: PromiseLike<unknown>): void {
    const lane: Lane = { queue: [], head: 0 };
    this.lanes.set(key, lane);
    result.then(
      () => this.next(key, lane),
      (error: unknown) => {
        this.onError(error);
        this.next(key, lane);
      },
    );
  }

  private next(key: string, lane: Lane): void {
    if (this.lanes.get(key) !== lane) return; // cleared meanwhile
    while (lane.head < lane.queue.length) {
      const task = lane.queue[lane.head] as Task;
      lane.queue[lane.head++] = noop;
      if (--this.queued <= this.maxQueued / 2 && this.high) {
        this.high = false;
        this.onPressure(false, this.queued);
      }
      const result = this.invoke(key, task);
      if (isThenable(result)) {
        result.then(
          () => this.next(key, lane),
          (error: unknown) => {
            this.onError(error);
            this.next(key, lane);
          },
        );
        return;
      }
    }
    this.lanes.delete(key);
  }

  private invoke(key: string, task: Task): unknown {
    const outer = this.current;
    this.current = key;
    try {
      return task();
    } catch (error) {
      this.onError(error);
      return undefined;
    } finally {
      this.current = outer;
    }
  }
}

function noop(): void {}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}
