/**
 * Outbound requests awaiting their answer, keyed by our integer id. A
 * response matches only by id AND type: `"1"` never answers `1`.
 */
import type { Row } from "../row.ts";
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
}

export class PendingMap {
  private readonly calls = new Map<number, PendingCall>();
  private nextId = 0;

  get size(): number {
    return this.calls.size;
  }

  /** The next request id: integers from a counter, starting at 0. */
  allocate(): number {
    return this.nextId++;
  }

  add(call: PendingCall): void {
    this.calls.set(call.id, call);
  }

  /** Removes and returns the call answered by `id`, or undefined for an unknown id (or a string id). */
  take(id: unknown): PendingCall | undefined {
    if (typeof id !== "number") return undefined;
    const call = this.calls.get(id);
    if (call) {
      this.calls.delete(id);
      release(call);
    }
    return call;
  }

  values(): IterableIterator<PendingCall> {
    return this.calls.values();
  }

  /** Removes every call, releasing timers and listeners; returns them. */
  drain(): PendingCall[] {
    const all = [...this.calls.values()];
    this.calls.clear();
    for (const call of all) release(call);
    return all;
  }

  /** Counts of live timers and abort listeners (for stats). */
  resources(): { timers: number; listeners: number } {
    let timers = 0;
    let listeners = 0;
    for (const c of this.calls.values()) {
      if (c.timer !== undefined) timers++;
      if (c.onAbort !== undefined) listeners++;
    }
    return { timers, listeners };
  }
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
