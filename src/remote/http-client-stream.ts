/**
 * One event stream of the HTTP client transport: a GET read until it ends,
 * reopened after a drop. Every event's id is kept; when the body fails (the
 * server or the network dropped it), the stream is requested again with
 * `Last-Event-ID`, after a backoff, a bounded number of times, so the
 * server replays exactly what was missed. A refused resumption (the server
 * no longer holds those events: 410) fails the stream with that reason,
 * never a silent gap. Flow control: while the gate is closed the body is
 * not read.
 */
import type { PauseGate } from "../transport/transport.ts";
import { EVENT_STREAM_TYPE } from "./protocol.ts";
import { createSseParser } from "./sse-parser.ts";

/** What a stream needs from its transport. */
export interface StreamHost {
  request(method: string, headers: Record<string, string>, body?: string, signal?: AbortSignal): Promise<Response>;
  readonly gate: PauseGate;
  readonly maxBytes: number;
  /** Open streams' controllers: the transport aborts them all when it ends. */
  readonly aborts: Set<AbortController>;
  /** True once the transport closed or ended: stop reading, never reconnect. */
  stopped(): boolean;
  /** One event's data. */
  event(data: string): void;
  /** Reconnects after a drop, and the first delay (doubled each time). */
  readonly reconnectAttempts: number;
  readonly reconnectDelayMs: number;
}

/** A GET the server answered with something other than a stream. */
export class StreamRefusedError extends Error {
  readonly status: number;
  readonly body: string;
  constructor(status: number, body: string, resuming: boolean) {
    super(`the event stream was ${resuming ? "not resumed" : "refused"}: HTTP ${status} ${body}`);
    this.status = status;
    this.body = body;
  }
}

/**
 * Opens the stream with `headers`; resolves once the server answered 200
 * (rejects with {@link StreamRefusedError} otherwise). `read` settles when
 * the stream is over: resolved when the server ended it (or the transport
 * stopped), rejected when it dropped and could not be resumed.
 */
export async function openEventStream(host: StreamHost, headers: Record<string, string>): Promise<{ read: Promise<void> }> {
  let lastEventId: string | undefined;
  /** One GET: its body, and its controller (registered with the host while the body is read). */
  const connect = async (resuming: boolean): Promise<{ body: ReadableStream<Uint8Array>; controller: AbortController }> => {
    const all: Record<string, string> = { accept: EVENT_STREAM_TYPE, ...headers };
    // Ids start at 1, so "0" asks for every event the server still holds: none had arrived.
    if (resuming) all["last-event-id"] = lastEventId ?? "0";
    const controller = new AbortController();
    if (host.stopped()) controller.abort();
    host.aborts.add(controller);
    try {
      const response = await host.request("GET", all, undefined, controller.signal);
      if (response.status !== 200 || !response.body) throw new StreamRefusedError(response.status, await response.text().catch(() => ""), resuming);
      return { body: response.body, controller };
    } catch (error) {
      host.aborts.delete(controller);
      throw error;
    }
  };
  const readBody = async ({ body, controller }: { body: ReadableStream<Uint8Array>; controller: AbortController }) => {
    // A fresh parser per GET: an event cut by the drop is dropped with it, and comes again in the replay.
    const parser = createSseParser((data, id) => {
      lastEventId = id;
      host.event(data);
    }, host.maxBytes);
    const decoder = new TextDecoder();
    const reader = body.getReader();
    try {
      for (;;) {
        if (host.gate.wait) await host.gate.wait;
        if (host.stopped()) return void reader.cancel().catch(() => {});
        const { done, value } = await reader.read();
        if (done) return;
        parser.push(decoder.decode(value, { stream: true }));
      }
    } finally {
      host.aborts.delete(controller);
    }
  };
  const reconnect = async (dropped: unknown) => {
    // fetch says only "terminated" when the server or the network drops the stream.
    const why = dropped instanceof Error ? dropped.message : String(dropped);
    let last = why;
    for (let attempt = 0; attempt < host.reconnectAttempts; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, host.reconnectDelayMs * 2 ** attempt));
      if (host.stopped()) return undefined;
      try {
        return await connect(true);
      } catch (error) {
        // The server answered: it will not resume this stream, and says why.
        if (error instanceof StreamRefusedError) throw new Error(`the event stream dropped (${why}) and ${error.message}`, { cause: error });
        last = error instanceof Error ? error.message : String(error);
      }
    }
    throw new Error(`the event stream dropped (${why}) and ${host.reconnectAttempts} reconnects failed (last: ${last})`, { cause: dropped });
  };
  let current: Awaited<ReturnType<typeof connect>> | undefined = await connect(false);
  const read = (async () => {
    while (current !== undefined) {
      try {
        await readBody(current);
        return;
      } catch (error) {
        if (host.stopped()) return;
        current = await reconnect(error);
      }
    }
  })();
  return { read };
}
