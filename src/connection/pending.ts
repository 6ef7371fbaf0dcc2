/**
 * Outbound requests awaiting their answer, keyed by our integer id. A
 * response matches only by id AND type: `"1"` never answers `1`.
 */
import type { Row } from "../row.ts";
import type { CancelCause } from "./cancel-cause.ts";
import { requestSettled, type HandlerRun } from "./lanes.ts";

export interface PendingCall {
  readonly id: number;
  readonly wire: string;
  /** The result marker chosen when the request was sent (undefined: unvalidated extension). */
  readonly row: Row<never, never> | undefined;
  readonly sessionId: string | undefined;
  /** The notification handlers running when it was sent (any may await it); see `lanes.ts`. */
  readonly sentDuring: HandlerRun[] | undefined;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  cancelSent: boolean;
  /** Why we sent `$/cancel_request` (set with `cancelSent`): names the cause when the peer then answers `-32800`. */
  cancelCause: CancelCause | undefined;
  /** When it was sent (`performance.now()`), set only by a watchdog (watchdog.ts); 0 otherwise. */
  sentAt: number;
}

/** Slots the ring starts with; it doubles while more than half of them are taken, up to {@link MAX_RING}. */
const MIN_RING = 64;
/** The ring's largest size: calls beyond it (or whose slot is taken by an older call) wait in the overflow map. */
const MAX_RING = 1 << 16;

/**
 * Holds pending calls by id. Ids come from a counter, so the calls in flight
 * are (nearly) a window of consecutive ids: each sits in a ring slot indexed by
 * `id & mask`, which costs no hashing and no table growing and shrinking as a
 * `Map` does when thousands come and go per burst. A call whose slot is still
 * held by an older call goes to a small overflow `Map`.
 */
export class PendingMap {
  private slots: (PendingCall | undefined)[] = new Array<PendingCall | undefined>(MIN_RING).fill(undefined);
  private mask = MIN_RING - 1;
  private readonly overflow = new Map<number, PendingCall>();
  private count = 0;
  private nextId = 0;

  get size(): number {
    return this.count;
  }

  /** The next request id: integers from a counter, starting at 0. */
  allocate(): number {
    return this.nextId++;
  }

  /** Adds a call under its id. */
  add(call: PendingCall): void {
    if (this.count >= this.slots.length >> 1 && this.slots.length < MAX_RING) this.grow();
    this.count++;
    const i = call.id & this.mask;
    if (this.slots[i] === undefined) this.slots[i] = call;
    else this.overflow.set(call.id, call);
  }

  /** Removes and returns the call answered by `id`, or undefined for an unknown id (or a string id). */
  take(id: unknown): PendingCall | undefined {
    if (typeof id !== "number") return undefined;
    const i = id & this.mask;
    let call = this.slots[i];
    if (call !== undefined && call.id === id) this.slots[i] = undefined;
    else {
      if (this.overflow.size === 0) return undefined;
      call = this.overflow.get(id);
      if (call === undefined) return undefined;
      this.overflow.delete(id);
    }
    this.count--;
    release(call);
    return call;
  }

  /** Every pending call, oldest (lowest id) first. */
  values(): PendingCall[] {
    const all: PendingCall[] = [];
    for (const call of this.slots) if (call !== undefined) all.push(call);
    for (const call of this.overflow.values()) all.push(call);
    return all.sort(byId);
  }

  /** Removes every call, releasing timers and listeners; returns them, oldest first. */
  drain(): PendingCall[] {
    const all = this.values();
    this.slots.fill(undefined);
    this.overflow.clear();
    this.count = 0;
    for (const call of all) release(call);
    return all;
  }

  /** Counts of live timers and abort listeners (for stats). */
  resources(): { timers: number; listeners: number } {
    let timers = 0;
    let listeners = 0;
    for (const c of this.values()) {
      if (c.timer !== undefined) timers++;
      if (c.onAbort !== undefined) listeners++;
    }
    return { timers, listeners };
  }

  /** Doubles the ring and places every call again (overflowed ones too, where their new slot is free). */
  private grow(): void {
    const all = this.values();
    this.slots = new Array<PendingCall | undefined>(this.slots.length * 2).fill(undefined);
    this.mask = this.slots.length - 1;
    this.overflow.clear();
    for (const call of all) {
      const i = call.id & this.mask;
      if (this.slots[i] === undefined) this.slots[i] = call;
      else this.overflow.set(call.id, call);
    }
  }
}

/** Orders calls by id (the order they were sent). */
function byId(a: PendingCall, b: PendingCall): number {
  return a.id - b.id;
}

/** Clears a call's timer and abort listener, and tells the handlers that sent it that it is settled. */
export function release(call: PendingCall): void {
  // Called once per call: `take` and `drain` remove it from the map first.
  if (call.sentDuring !== undefined) requestSettled(call.sentDuring);
  if (call.timer !== undefined) {
    clearTimeout(call.timer);
    call.timer = undefined;
  }
  if (call.onAbort !== undefined) {
    call.signal?.removeEventListener("abort", call.onAbort);
    call.onAbort = undefined;
  }
}
