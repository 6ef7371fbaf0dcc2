// An SDK app on the compatibility package, connected through ndJsonStream to byte pipes the test
// writes raw lines into and reads raw lines from: what a peer on stdio would see.
import { ndJsonStream } from "../../compat/sdk/src/index.ts";

export interface Wire {
  /** Sends one line (an object is JSON-encoded). */
  send(line: unknown): void;
  /** The next message the app wrote. */
  next(): Promise<Record<string, unknown>>;
  /** Every message read so far. */
  readonly seen: Record<string, unknown>[];
  /** Ends the app's input. */
  end(): void;
}

/** Byte pipes and the SDK stream over them; `connect` is given the stream. */
export function wire<C>(connect: (stream: ReturnType<typeof ndJsonStream>) => C): Wire & { connection: C } {
  const toApp = new TransformStream<Uint8Array, Uint8Array>();
  const fromApp = new TransformStream<Uint8Array, Uint8Array>();
  const connection = connect(ndJsonStream(fromApp.writable, toApp.readable));
  const writer = toApp.writable.getWriter();
  const reader = fromApp.readable.getReader();
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const seen: Record<string, unknown>[] = [];
  const queue: Record<string, unknown>[] = [];
  let pending = "";
  let waiting: ((m: Record<string, unknown>) => void) | undefined;
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      pending += decoder.decode(value, { stream: true });
      for (let i = pending.indexOf("\n"); i >= 0; i = pending.indexOf("\n")) {
        const message = JSON.parse(pending.slice(0, i)) as Record<string, unknown>;
        pending = pending.slice(i + 1);
        seen.push(message);
        if (waiting) {
          const w = waiting;
          waiting = undefined;
          w(message);
        } else queue.push(message);
      }
    }
  })();
  return {
    connection,
    seen,
    send: (line) => void writer.write(encoder.encode(`${typeof line === "string" ? line : JSON.stringify(line)}\n`)),
    next: () => (queue.length > 0 ? Promise.resolve(queue.shift() as Record<string, unknown>) : new Promise((resolve) => (waiting = resolve))),
    end: () => void writer.close(),
  };
}
