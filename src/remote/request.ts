/**
 * The request and response shapes the remote server core works on. Each
 * adapter (node:http, node:http2, fetch `Request`/`Response`) maps its own
 * objects onto these, so the core never touches a runtime's HTTP types.
 */
import type { EventSink } from "./sink.ts";

/** One HTTP request to the endpoint, as an adapter presents it. */
export interface RemoteRequest {
  /** `GET`, `POST`, `DELETE`, … */
  readonly method: string;
  /** Reads a request header (lower-case name); undefined when absent. */
  header(name: string): string | undefined;
  /** Reads the body as UTF-8 text; rejects with {@link BodyTooLargeError} once more than `limit` bytes arrived. */
  text(limit: number): Promise<string>;
  /** Registers a callback for a client that goes away before the answer was sent. Optional. */
  onAbort?(callback: () => void): void;
}

/** The answer an adapter writes. */
export interface RemoteResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body, when there is one (JSON or plain text per `content-type`). */
  readonly body?: string;
  /** For an event stream (200 to a GET): called with the stream's sink once the head went out. */
  readonly open?: (sink: EventSink) => void;
}

/** The body was longer than the server's `maxBodyBytes`. */
export class BodyTooLargeError extends Error {
  constructor(limit: number) {
    super(`request body over ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}
