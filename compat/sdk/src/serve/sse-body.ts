/**
 * The body of an SSE response: each message a mailbox lease yields, as one event. A message is
 * taken only when the body's reader asks for one, so what a client has not read stays queued (and
 * counted) in its connection. A waiting reader gets a keep-alive comment every 15 s.
 */
import type { MailboxLease } from "./mailbox.ts";
import { SSE_KEEP_ALIVE, sseEvent } from "./wire.ts";

/** How often a waiting reader gets a keep-alive. */
const KEEP_ALIVE_MS = 15_000;

/** A byte stream of SSE events over `lease` (see the module comment). */
export function sseBody(lease: MailboxLease<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  // Whether the reader asked for a chunk it has not got: with no high-water mark, a reader that is
  // not waiting may still be writing the last chunk to a client that stopped reading.
  let waiting = false;
  let receiving = false;
  let ended = false;
  const stopTimer = () => {
    clearInterval(keepAlive);
    keepAlive = undefined;
  };
  const enqueue = (controller: ReadableStreamDefaultController<Uint8Array>, text: string): boolean => {
    waiting = false;
    try {
      controller.enqueue(encoder.encode(text));
      return true;
    } catch {
      return false;
    }
  };
  const end = (controller: ReadableStreamDefaultController<Uint8Array>, error?: { reason: unknown }) => {
    if (ended) return;
    ended = true;
    stopTimer();
    lease.release();
    try {
      if (error === undefined) controller.close();
      else controller.error(error.reason);
    } catch {
      // The consumer cancelled the body already.
    }
  };
  // Once the stream stopped, the body can only end: a waiting reader took every chunk, and its
  // pending receive ends the body; any other reader may be stuck on a chunk its client never takes.
  const endIfStopped = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (lease.stopped.aborted && !waiting) end(controller, { reason: lease.stopped.reason });
  };
  const deliver = async (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (receiving) return;
    receiving = true;
    try {
      while (waiting && !ended) {
        const next = await lease.receive();
        if (ended) return;
        if (next.done || !enqueue(controller, sseEvent(next.value))) return end(controller);
        endIfStopped(controller);
      }
    } catch (error) {
      end(controller, { reason: error });
    } finally {
      receiving = false;
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        lease.stopped.addEventListener("abort", () => endIfStopped(controller), { once: true });
        keepAlive = setInterval(() => {
          if (ended || !waiting) return;
          if (!enqueue(controller, SSE_KEEP_ALIVE)) end(controller);
        }, KEEP_ALIVE_MS);
      },
      // Runs only when the reader asks for a chunk; returns at once, so it runs again while a receive is pending.
      pull(controller) {
        waiting = true;
        void deliver(controller);
      },
      cancel() {
        ended = true;
        stopTimer();
        lease.release();
      },
    },
    { highWaterMark: 0 },
  );
}
