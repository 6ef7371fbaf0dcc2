/**
 * Pieces of the HTTP client transport: the order its POSTs leave in, and the
 * JSON-RPC answers it makes up for requests the server could not take.
 */
import { wireError } from "../errors.ts";
import type { StreamRefusedError } from "./http-client-stream.ts";

/**
 * Ordering: one session's messages leave one after another (each POST waits
 * for the previous one's answer); a message of no session (lane undefined)
 * is a barrier: it waits for everything before it, and everything after
 * waits for it. Different sessions' messages travel concurrently. A run that
 * rejects goes to `onError`.
 */
export function createLanes(onError: (error: unknown) => void): (lane: string | undefined, run: () => Promise<void>) => void {
  let barrier: Promise<void> = Promise.resolve();
  const lanes = new Map<string, Promise<void>>();
  return (lane, run) => {
    const guarded = () => run().catch(onError);
    if (lane === undefined) {
      barrier = Promise.all([barrier, ...lanes.values()]).then(guarded);
      lanes.clear();
      return;
    }
    const tail = (lanes.get(lane) ?? barrier).then(guarded);
    lanes.set(lane, tail);
    void tail.then(() => {
      if (lanes.get(lane) === tail) lanes.delete(lane);
    });
  };
}

/** The answer for a request whose POST failed: the server's own JSON-RPC error for that id, else a -32603 with the status. */
export function answerFor(id: unknown, status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { id?: unknown; error?: unknown };
    if (body.id === id && body.error !== undefined) return text;
  } catch {
    // Not JSON: described below.
  }
  return JSON.stringify({ jsonrpc: "2.0", id, error: wireError.internal(`HTTP ${status}`, { status, body: text.slice(0, 8192) }) });
}

/** The answer for a request whose session stream the server refused. */
export function refusedAnswer(id: unknown, session: string, error: StreamRefusedError): string {
  const message = `the event stream of session ${session} was refused (HTTP ${error.status}): its answers cannot arrive`;
  return JSON.stringify({ jsonrpc: "2.0", id, error: wireError.internal(message, { status: error.status, body: error.body.slice(0, 8192) }) });
}
