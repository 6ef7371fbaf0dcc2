/**
 * The fetch-style adapter: `Request` in, `Response` out, for runtimes that
 * serve with those (Deno, Bun, Cloudflare-style workers, service workers)
 * and for tests. Event streams are `ReadableStream` bodies whose queue is
 * the reader bound. Portable: no `node:` imports.
 */
import { BodyTooLargeError, type RemoteRequest, type RemoteResponse } from "./request.ts";
import type { EventSink } from "./sink.ts";

/** The byte queue of one event-stream body before the reader counts as behind: 64 KiB. */
const STREAM_HIGH_WATER = 64 * 1024;

/** Presents a fetch `Request` to the server core. */
export function fromFetchRequest(request: Request): RemoteRequest {
  return {
    method: request.method,
    header: (name) => request.headers.get(name) ?? undefined,
    text: (limit) => readLimited(request, limit),
    onAbort(callback) {
      request.signal.addEventListener("abort", callback, { once: true });
    },
  };
}

/** Builds a fetch `Response` from the server core's answer. */
export function toFetchResponse(answer: RemoteResponse): Response {
  const open = answer.open;
  if (open === undefined) return new Response(answer.body ?? null, { status: answer.status, headers: answer.headers });
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let since: number | undefined;
  let done = false;
  const callbacks: (() => void)[] = [];
  const finish = () => {
    if (done) return;
    done = true;
    for (const callback of callbacks.splice(0)) callback();
  };
  const sink: EventSink = {
    write(text) {
      if (done) return;
      controller.enqueue(encoder.encode(text));
      if ((controller.desiredSize ?? 0) <= 0) since ??= Date.now();
    },
    end() {
      if (done) return;
      try {
        controller.close();
      } catch {
        // Already closed or cancelled by the reader.
      }
      finish();
    },
    buffered: () => (done ? 0 : Math.max(0, STREAM_HIGH_WATER - (controller.desiredSize ?? 0))),
    blockedSince: () => since,
    onClose(callback) {
      if (done) callback();
      else callbacks.push(callback);
    },
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        since = undefined;
      },
      cancel() {
        finish();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: STREAM_HIGH_WATER }),
  );
  // The sink is handed over once the Response exists, as the head "went out".
  queueMicrotask(() => open(sink));
  return new Response(body, { status: answer.status, headers: answer.headers });
}

/** Reads a body as text, failing once it exceeds `limit` bytes (whatever `content-length` claims). */
async function readLimited(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
