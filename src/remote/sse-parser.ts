/**
 * Parses a `text/event-stream` body (WHATWG HTML §9.2) into the data of its
 * events: `data:` lines joined with `\n`, with the stream's last event id
 * (`id:` fields, kept from event to event, for `Last-Event-ID`), comments
 * and other fields skipped, lines ending in LF, CRLF or CR. An event longer than `maxBytes`
 * (UTF-16 units) fails the stream rather than growing without bound.
 */

/** Feeds decoded text in; calls `onData` with each event's data and the last event id seen (undefined: none yet). */
export function createSseParser(onData: (data: string, lastEventId: string | undefined) => void, maxBytes: number): { push(text: string): void } {
  let pending = "";
  let lastEventId: string | undefined;
  let data: string[] = [];
  let size = 0;
  let skipLf = false;
  const line = (text: string) => {
    if (text === "") {
      if (data.length > 0) {
        const event = data.length === 1 ? (data[0] as string) : data.join("\n");
        data = [];
        size = 0;
        onData(event, lastEventId);
      }
      return;
    }
    if (text.startsWith("id")) {
      // WHATWG: an id field sets the last event id (one holding NUL is ignored).
      if (text.length === 2) lastEventId = "";
      else if (text.charCodeAt(2) === 58 /* : */) {
        const value = text.charCodeAt(3) === 32 ? text.slice(4) : text.slice(3);
        if (!value.includes("\0")) lastEventId = value;
      }
      return;
    }
    if (text.startsWith("data")) {
      if (text.length === 4) data.push("");
      else if (text.charCodeAt(4) === 58 /* : */) data.push(text.charCodeAt(5) === 32 ? text.slice(6) : text.slice(5));
      else return;
      size += text.length;
      if (size > maxBytes) throw new Error(`an event of the stream is over ${maxBytes} characters`);
    }
  };
  return {
    push(text) {
      let start = 0;
      if (skipLf && text.charCodeAt(0) === 10) start = 1;
      skipLf = false;
      for (let i = start; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        line(pending + text.slice(start, i));
        pending = "";
        if (c === 13) {
          if (i + 1 === text.length) skipLf = true;
          else if (text.charCodeAt(i + 1) === 10) i++;
        }
        start = i + 1;
      }
      if (start < text.length) {
        pending += text.slice(start);
        if (pending.length > maxBytes + 8) throw new Error(`an event of the stream is over ${maxBytes} characters`);
      }
    },
  };
}
