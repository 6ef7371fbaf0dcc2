/**
 * Per-session serial lanes (DESIGN §7): notification handlers with the same
 * key run one after another in arrival order; different keys run
 * concurrently. A lane exists only while it is busy, so idle sessions hold no
 * state.
 *
 * Besides handlers, a lane holds *barriers*: an answer or an inbound request
 * that must wait for the session's earlier notifications. A barrier never
 * holds the lane, so requests still run concurrently among themselves.
 *
 * The no-deadlock rule: nothing waits for a handler that may be waiting for
 * it.
 * - An answer does not wait for the handler that was already running when its
 *   request was sent, if that handler still runs: it may be awaiting exactly
 *   this answer, through `ctx.peer` or through the outer connection object,
 *   after any number of awaits.
 * - An inbound request does not wait for a handler that is *waiting on the
 *   peer*: one that still runs and has sent a request (through any object)
 *   that is not answered yet, since the peer may need this request answered
 *   before it answers. A request already queued is let go as soon as the
 *   handler ahead of it starts waiting on the peer.
 * Neither waits for the notifications queued behind such a handler either
 * (they cannot start before it ends). We cannot see which awaits a handler
 * makes, so "may be waiting" is judged by time: any request sent while a
 * handler runs counts as possibly sent by it, in every lane that has a
 * handler running.
 */

type Task = () => unknown;

/** An answer or a request start queued in a lane: it keeps its place but never holds the lane. */
interface Barrier {
  readonly run: () => void;
  /** True for a request start, which goes ahead once the handler ahead of it waits on the peer. */
  readonly jumps: boolean;
}

/** One run of a notification handler, created only when it sends a request. */
export interface HandlerRun {
  /** Requests sent during this run that are not answered yet. */
  waiting: number;
}

interface Lane {
  readonly queue: (Task | Barrier)[];
  head: number;
  /** True while a notification handler of this lane runs. */
  active: boolean;
  /** That handler's run, once it sent a request. */
  run: HandlerRun | undefined;
}

export class Lanes {
  private readonly lanes = new Map<string, Lane>();
  /** The lane whose handler runs synchronously right now, if any. */
  private current: string | undefined;
  /** A lane created for `current` while it runs synchronously through `runNow` (it sent a request). */
  private syncLane: Lane | undefined;
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

  /** Runs the handler `task` now if the lane is idle (synchronously), else after everything queued before it. */
  run(key: string, task: Task): void {
    const lane = this.lanes.get(key);
    if (lane) this.enqueue(lane, task);
    else this.start(key, task);
  }

  /**
   * The allocation-free form of {@link run} for an idle lane: calls
   * `fn(a, b, c)` now, as `key`'s handler. Returns false, running nothing,
   * when the lane is busy (queue a task with `run` instead).
   */
  runNow<A, B, C>(key: string, fn: (a: A, b: B, c: C) => unknown, a: A, b: B, c: C): boolean {
    // With no lane busy there is nothing to look up (a fresh key string would be hashed first).
    if (this.lanes.size !== 0 && this.lanes.has(key)) return false;
    const outer = this.current;
    const outerSync = this.syncLane;
    this.current = key;
    this.syncLane = undefined;
    let result: unknown;
    try {
      result = fn(a, b, c);
    } catch (error) {
      this.onError(error);
    } finally {
      this.current = outer;
    }
    const lane = this.syncLane;
    this.syncLane = outerSync;
    if (lane !== undefined) this.settle(key, lane, result);
    else if (isThenable(result)) this.hold(key, result);
    return true;
  }

  /**
   * Runs `answer` once every task queued in `key`'s lane before it is done,
   * or now when the lane is idle or its running handler is one of `sentDuring`
   * (the handlers running when the request was sent: it may await this answer).
   */
  answer(key: string, sentDuring: readonly HandlerRun[] | undefined, answer: () => void): void {
    const lane = this.lanes.get(key);
    if (lane === undefined || (lane.active && lane.run !== undefined && sentDuring !== undefined && sentDuring.includes(lane.run))) answer();
    else this.enqueue(lane, { run: answer, jumps: false });
  }

  /**
   * Starts an inbound request of session `key` once the session's earlier
   * notifications were handled; now when the lane is idle or its running
   * handler waits on the peer. Returns true when it was queued.
   */
  queueRequest(key: string, start: () => void): boolean {
    const lane = this.lanes.get(key);
    if (lane === undefined || waitsOnPeer(lane)) return false;
    this.enqueue(lane, { run: start, jumps: true });
    return true;
  }

  /**
   * Records that an outbound request is being sent: every handler running now
   * may wait for its answer. Returns those handlers' runs (pass them to
   * {@link answer}, then to {@link requestSettled} once it is settled), or undefined
   * when no handler runs.
   */
  sent(): HandlerRun[] | undefined {
    if (this.current === undefined && this.lanes.size === 0) return undefined;
    let runs: HandlerRun[] | undefined;
    if (this.current !== undefined && this.syncLane === undefined && !this.lanes.has(this.current)) {
      // A handler running synchronously through runNow has no lane object yet: give it one.
      this.syncLane = { queue: [], head: 0, active: true, run: undefined };
      this.lanes.set(this.current, this.syncLane);
    }
    for (const [key, lane] of this.lanes) {
      if (!lane.active) continue;
      const run = (lane.run ??= { waiting: 0 });
      if (run.waiting++ === 0) queueMicrotask(() => this.letRequestsGo(key, lane));
      (runs ??= []).push(run);
    }
    return runs;
  }

  /** Tasks waiting (not running) in all lanes. */
  get waiting(): number {
    return this.queued;
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

  private enqueue(lane: Lane, item: Task | Barrier): void {
    lane.queue.push(item);
    if (++this.queued > this.maxQueued && !this.high) {
      this.high = true;
      this.onPressure(true, this.queued);
    }
  }

  private dequeued(): void {
    if (--this.queued <= this.maxQueued / 2 && this.high) {
      this.high = false;
      this.onPressure(false, this.queued);
    }
  }

  private start(key: string, task: Task): void {
    const lane: Lane = { queue: [], head: 0, active: true, run: undefined };
    this.lanes.set(key, lane);
    this.settle(key, lane, this.invoke(key, task));
  }

  /** Marks the lane busy until `result` settles, then runs what queued meanwhile. */
  private hold(key: string, result: PromiseLike<unknown>): void {
    const lane: Lane = { queue: [], head: 0, active: true, run: undefined };
    this.lanes.set(key, lane);
    this.after(key, lane, result);
  }

  /** Continues `lane` after its handler returned `result`: at once, or once a thenable settles. */
  private settle(key: string, lane: Lane, result: unknown): void {
    if (isThenable(result)) this.after(key, lane, result);
    else this.next(key, lane);
  }

  private after(key: string, lane: Lane, result: PromiseLike<unknown>): void {
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
    lane.active = false;
    lane.run = undefined;
    while (lane.head < lane.queue.length) {
      const item = lane.queue[lane.head] as Task | Barrier;
      lane.queue[lane.head++] = noop;
      if (item === released) continue; // counted when it was let go
      this.dequeued();
      if (typeof item !== "function") {
        runBarrier(item, this.onError);
        continue;
      }
      lane.active = true;
      const result = this.invoke(key, item);
      if (isThenable(result)) return this.after(key, lane, result);
      lane.active = false;
      lane.run = undefined;
    }
    this.lanes.delete(key);
  }

  /** Runs the request starts queued in `lane` now: its handler waits on the peer, which may need them answered. */
  private letRequestsGo(key: string, lane: Lane): void {
    if (this.lanes.get(key) !== lane || !waitsOnPeer(lane)) return;
    for (let i = lane.head; i < lane.queue.length; i++) {
      const item = lane.queue[i] as Task | Barrier;
      if (typeof item === "function" || !item.jumps) continue;
      lane.queue[i] = released;
      this.dequeued();
      runBarrier(item, this.onError);
    }
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

/** A request sent during `runs` was answered, timed out, was abandoned or closed: those handlers wait on the peer for one request less. */
export function requestSettled(runs: readonly HandlerRun[]): void {
  for (const run of runs) run.waiting--;
}

/** True when the lane's running handler has sent a request that is not answered yet. */
function waitsOnPeer(lane: Lane): boolean {
  return lane.active && lane.run !== undefined && lane.run.waiting > 0;
}

function runBarrier(barrier: Barrier, onError: (error: unknown) => void): void {
  try {
    barrier.run();
  } catch (error) {
    onError(error);
  }
}

function noop(): void {}

/** Stands in the queue for a request start that already went ahead. */
const released: Barrier = { run: noop, jumps: false };

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}
