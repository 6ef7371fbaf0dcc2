/**
 * A queue of outbound messages with at most one reader at a time (an SSE response, or a
 * WebSocket's pump): messages wait here until a reader takes them, a reader that leaves lets the
 * next one take what is left, and the connection can end the queue cleanly (`finish`: the reader
 * gets what is queued, then the end) or stop it (`abort`: queued messages are dropped and the
 * reader's `stopped` signal fires with the reason).
 */

/** Told of each message queued and taken (the connection counts the bytes waiting). */
export interface MailboxObserver<T> {
  queued?(message: T): void;
  taken(message: T): void;
}

/** The one reader of a mailbox, until it `release`s it. */
export class MailboxLease<T> {
  readonly #mailbox: Mailbox<T>;
  readonly #stopped = new AbortController();
  #released = false;
  #receiving = false;
  #wake: (() => void) | undefined;

  constructor(mailbox: Mailbox<T>) {
    this.#mailbox = mailbox;
  }

  /** Aborted when the mailbox was stopped; its reason says why. */
  get stopped(): AbortSignal {
    return this.#stopped.signal;
  }

  /** Whether this reader let go. */
  get released(): boolean {
    return this.#released;
  }

  /** The next message, waiting for one; done once the mailbox finished, this lease was released, or (throwing) the mailbox stopped with an error. One receive at a time. */
  async receive(): Promise<IteratorResult<T, undefined>> {
    if (this.#receiving) throw new Error("ACP outbound mailbox lease already has a pending receive");
    this.#receiving = true;
    try {
      for (;;) {
        const next = this.#mailbox.next(this);
        if (next !== "wait") return next;
        await new Promise<void>((resolve) => (this.#wake = resolve));
      }
    } finally {
      this.#receiving = false;
    }
  }

  /** Lets go of the mailbox; what is still queued waits for the next reader. */
  release(): void {
    this.#mailbox.release(this);
  }

  /** Wakes a waiting `receive`. @internal */
  wake(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /** Marks this lease released (by the mailbox). @internal */
  markReleased(): void {
    this.#released = true;
    this.wake();
  }

  /** Fires `stopped` (by the mailbox). @internal */
  stop(reason: unknown): void {
    this.#stopped.abort(reason);
    this.wake();
  }
}

/** A queue with one reader at a time (see the module comment). */
export class Mailbox<T> {
  readonly #enabled: boolean;
  #onReceiverChange: (() => void) | undefined;
  #observer: MailboxObserver<T> | undefined;
  /** Queued messages, from `#head` on: taking one moves the head instead of shifting the array. */
  #queue: (T | undefined)[] = [];
  #head = 0;
  #lease: MailboxLease<T> | undefined;
  #finished = false;
  #aborted = false;
  #abortError: unknown;
  readonly #stopError: () => unknown;

  /** `enabled` false makes a mailbox that takes nothing (the stream a transport does not use). `stopError` is what a reader is stopped with when `abort` gives no reason. */
  constructor(enabled: boolean, stopError: () => unknown, onReceiverChange?: () => void, observer?: MailboxObserver<T>) {
    this.#enabled = enabled;
    this.#onReceiverChange = onReceiverChange;
    this.#observer = observer;
    this.#stopError = stopError;
  }

  /** Queues `message` for the reader (nothing once finished, or when disabled). */
  push(message: T): void {
    if (!this.#enabled || this.#finished) return;
    this.#queue.push(message);
    this.#observer?.queued?.(message);
    this.#lease?.wake();
  }

  /** Whether a reader holds the mailbox. */
  get hasReceiver(): boolean {
    return this.#lease !== undefined;
  }

  /** Whether messages wait to be taken. */
  get hasQueuedMessages(): boolean {
    return this.#head < this.#queue.length;
  }

  /** The lease of a new reader, or undefined while another holds it (or the mailbox is disabled or stopped). */
  tryAcquire(): MailboxLease<T> | undefined {
    if (!this.#enabled || this.#aborted || this.#lease !== undefined) return undefined;
    const lease = new MailboxLease(this);
    this.#lease = lease;
    this.#onReceiverChange?.();
    return lease;
  }

  /** Ends the mailbox: the reader gets what is queued, then the end. */
  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#lease?.wake();
  }

  /** Stops the mailbox: queued messages are dropped, and the reader is stopped with `error` (or the closed error). */
  abort(error?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#finished = true;
    this.#abortError = error;
    while (this.hasQueuedMessages) this.#take();
    // A reader that never comes back (a stalled response body) must not keep the connection reachable.
    this.#observer = undefined;
    this.#onReceiverChange = undefined;
    this.#lease?.stop(error ?? this.#stopError());
  }

  /** What `lease`'s receive gets now: a result, or "wait". @internal */
  next(lease: MailboxLease<T>): IteratorResult<T, undefined> | "wait" {
    if (lease.released || this.#lease !== lease) return { done: true, value: undefined };
    if (this.#aborted) {
      if (this.#abortError !== undefined) throw this.#abortError as Error;
      return { done: true, value: undefined };
    }
    if (this.hasQueuedMessages) return { done: false, value: this.#take() };
    if (this.#finished) return { done: true, value: undefined };
    return "wait";
  }

  /** `lease` lets go. @internal */
  release(lease: MailboxLease<T>): void {
    if (this.#lease !== lease) return;
    this.#lease = undefined;
    lease.markReleased();
    this.#onReceiverChange?.();
  }

  /** Takes the oldest message; drops the taken prefix once the queue empties or is mostly taken. */
  #take(): T {
    const message = this.#queue[this.#head] as T;
    this.#queue[this.#head] = undefined;
    this.#head += 1;
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    this.#observer?.taken(message);
    return message;
  }
}
