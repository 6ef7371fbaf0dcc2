/**
 * The channel that carries an agent's output to its connection's router, paced by the router:
 * a write resolves at once when the router is waiting for a message, and otherwise when the
 * router takes it and asks for the next. So an agent that awaits its sends goes no faster than
 * the router, which stops taking output while the connection's readers are behind.
 */

/** The two ends of the channel, and `end` for an agent that is gone without closing its end. */
export interface AgentOutput<T> {
  /** What the router reads. */
  readonly readable: ReadableStream<T>;
  /** What the agent writes. */
  readonly writable: WritableStream<T>;
  /**
   * Ends the channel after the writes already made (the writable hands them over one per
   * microtask): they stop waiting for the router, and the channel closes on the next turn.
   */
  end(): void;
}

/** Makes a channel; `onEnd` runs once when it ends (closed, failed, cancelled or `end`ed). */
export function agentOutput<T>(onEnd: () => void): AgentOutput<T> {
  let controller: ReadableStreamDefaultController<T> | undefined;
  let finished = false;
  let ending = false;
  let waitingWriter: (() => void) | undefined;
  const resume = () => {
    const resolve = waitingWriter;
    waitingWriter = undefined;
    resolve?.();
  };
  const stop = (how: (c: ReadableStreamDefaultController<T>) => void) => {
    if (finished) return;
    finished = true;
    try {
      if (controller !== undefined) how(controller);
    } catch {
      // The router already cancelled its end.
    }
    resume();
    onEnd();
  };
  const readable = new ReadableStream<T>(
    {
      start(c) {
        controller = c;
      },
      // With no high-water mark this runs only when the router waits on an empty queue: it took the last message.
      pull: resume,
      cancel() {
        finished = true;
        resume();
      },
    },
    { highWaterMark: 0 },
  );
  const writable = new WritableStream<T>({
    async write(message) {
      if (finished) throw new Error("ACP outbound channel is closed");
      try {
        controller?.enqueue(message);
      } catch (error) {
        stop((c) => c.error(error));
        throw error;
      }
      // Queued, not taken: wait until the router asks for more.
      if (!finished && !ending && (controller?.desiredSize ?? 0) < 0) await new Promise<void>((resolve) => (waitingWriter = resolve));
    },
    close: () => stop((c) => c.close()),
    abort: (reason) => stop((c) => c.error(reason)),
  });
  return {
    readable,
    writable,
    end() {
      if (finished || ending) return;
      ending = true;
      resume();
      setTimeout(() => stop((c) => c.close()), 0);
    },
  };
}
