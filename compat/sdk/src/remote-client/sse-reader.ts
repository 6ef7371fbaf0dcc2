/**
 * Reads the messages of an SSE body, as the SDK's clients read them: lines end in CRLF, LF or a
 * lone CR; `data:` lines (one space after the colon dropped) join with newlines into an event, a
 * blank line ends it; other fields and comments are skipped. Each event's data is one JSON object;
 * an event that is not (a primitive, an array, text that is not JSON) is skipped with a warning
 * that does not quote it (it may carry credentials). An event or line past `maxMessageBytes`
 * fails the read with `MessageTooLargeError`.
 */
import { MessageTooLargeError } from "../message-stream.ts";

/** What each line may add beyond its event's data: a BOM and `data: `. */
const LINE_OVERHEAD = 9;

/** The messages of `body`, one per event; cancels the body when the reader stops early or fails. */
export async function* readSseMessages(body: ReadableStream<Uint8Array>, maxMessageBytes: number): AsyncGenerator<Record<string, unknown>> {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const reader = body.getReader();
  let pending = new Uint8Array(0);
  let data: Uint8Array[] = [];
  let dataBytes = 0;
  let hasData = false;
  let lastWasCr = false;
  let finished = false;
  let failure: unknown;
  const append = (bytes: Uint8Array) => {
    if (bytes.byteLength > maxMessageBytes - dataBytes) throw new MessageTooLargeError(maxMessageBytes);
    data.push(bytes);
    dataBytes += bytes.byteLength;
  };
  const takeEvent = (): Record<string, unknown> | undefined => {
    if (!hasData) return undefined;
    const joined = new Uint8Array(dataBytes);
    let offset = 0;
    for (const part of data) {
      joined.set(part, offset);
      offset += part.byteLength;
    }
    data = [];
    dataBytes = 0;
    hasData = false;
    return parseEvent(decoder.decode(joined));
  };
  const line = (bytes: Uint8Array): Record<string, unknown> | undefined => {
    let text = bytes;
    if (text[0] === 0xef && text[1] === 0xbb && text[2] === 0xbf) text = text.subarray(3);
    if (text.byteLength === 0) return takeEvent();
    // "data:" is 64 61 74 61 3a.
    if (text.byteLength < 5 || text[0] !== 0x64 || text[1] !== 0x61 || text[2] !== 0x74 || text[3] !== 0x61 || text[4] !== 0x3a) return undefined;
    const value = text.subarray(text[5] === 0x20 ? 6 : 5);
    if (hasData) append(new Uint8Array([0x0a]));
    append(value);
    hasData = true;
    return undefined;
  };
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) {
        finished = true;
        break;
      }
      const joined = new Uint8Array(pending.byteLength + chunk.value.byteLength);
      joined.set(pending);
      joined.set(chunk.value, pending.byteLength);
      // The LF of a CRLF split across chunks ends nothing (the CR ended the line and the chunk).
      let start: number = lastWasCr && joined[0] === 0x0a ? 1 : 0;
      lastWasCr = false;
      for (let i: number = start; i < joined.byteLength; i++) {
        const byte: number | undefined = joined[i];
        if (byte !== 0x0a && byte !== 0x0d) continue;
        const message = line(joined.subarray(start, i));
        if (message !== undefined) yield message;
        if (byte === 0x0d && joined[i + 1] === 0x0a) i++;
        lastWasCr = byte === 0x0d && i === joined.byteLength - 1;
        start = i + 1;
      }
      pending = joined.slice(start);
      if (pending.byteLength > maxMessageBytes + LINE_OVERHEAD) throw new MessageTooLargeError(maxMessageBytes);
    }
    if (pending.byteLength > 0) {
      const message = line(pending);
      if (message !== undefined) yield message;
    }
    const last = takeEvent();
    if (last !== undefined) yield last;
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    if (!finished) void reader.cancel(failure).catch(() => {});
    reader.releaseLock();
  }
}

/** An event's JSON object, or undefined (warned) when it is not one. */
function parseEvent(text: string): Record<string, unknown> | undefined {
  if (text.trim() === "") return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    console.warn("Skipping SSE payload that is not a JSON object");
  } catch {
    console.warn(`Failed to parse SSE JSON payload (${text.length} characters)`);
  }
  return undefined;
}
