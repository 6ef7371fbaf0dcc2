/**
 * How the SDK-style HTTP client reads an answer's body and turns a refused request into an error:
 * `HttpResponseError` carries the status and (bounded) body text; a 409 on a session's request is
 * a conflict of that session alone.
 */
import { MessageTooLargeError } from "../message-stream.ts";

/** An HTTP answer that was not a success. */
export class HttpResponseError extends Error {
  readonly status: number;
  readonly body: string;
  constructor(message: string, status: number, body: string) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/** Whether `error` is a 409: the server refused a session's stream or request, not the connection. */
export function isSessionConflict(error: unknown): error is HttpResponseError {
  return error instanceof HttpResponseError && error.status === 409;
}

/**
 * The text of `response`'s body, up to `maxBytes`: past it, `truncate` cuts it there (a character
 * split by the cut is dropped), otherwise the read fails with `MessageTooLargeError`.
 */
export async function readBodyText(response: Response, maxBytes: number, truncate = false): Promise<string> {
  if (response.body === null) return "";
  const parts: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  const decode = (stream: boolean) => {
    const joined = new Uint8Array(size);
    let offset = 0;
    for (const part of parts) {
      joined.set(part, offset);
      offset += part.byteLength;
    }
    return new TextDecoder().decode(joined, { stream });
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return decode(false);
      if (value.byteLength > maxBytes - size) {
        if (!truncate) throw new MessageTooLargeError(maxBytes);
        parts.push(value.subarray(0, maxBytes - size));
        size = maxBytes;
        void reader.cancel().catch(() => {});
        return decode(true);
      }
      parts.push(value);
      size += value.byteLength;
    }
  } catch (error) {
    void reader.cancel(error).catch(() => {});
    throw error;
  } finally {
    reader.releaseLock();
  }
}

/** The error for a refused answer: `prefix: status statusText[: body]`, the body read up to `maxBytes` (a body over it is itself an error unless `truncate`). */
export async function httpError(prefix: string, response: Response, maxBytes: number, truncate = false): Promise<HttpResponseError> {
  let text = "";
  try {
    text = await readBodyText(response, maxBytes, truncate);
  } catch (error) {
    if (error instanceof MessageTooLargeError) throw error;
  }
  const head = `${prefix}: ${response.status} ${response.statusText}`;
  return new HttpResponseError(text ? `${head}: ${text}` : head, response.status, text);
}

/** A body as JSON when it is JSON, else the text. */
export function parsedBody(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}
