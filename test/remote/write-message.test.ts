// Issue 39, item 3: the remote server's HTTP leg takes each message the connection sends whole
// (Transport.writeMessage) and puts it on its stream as it is; text from a writer that only knows
// `write` is still split into lines, a line cut across writes included.
import { describe, expect, it } from "vitest";
import { HttpConnection } from "../../src/remote/http-connection.ts";
import { resolveLimits } from "../../src/remote/options.ts";
import { ConnectionSessions } from "../../src/remote/sessions.ts";
import type { EventSink } from "../../src/remote/sink.ts";

function sink(): EventSink & { readonly text: string[] } {
  const text: string[] = [];
  return { text, write: (t) => void text.push(t), end: () => undefined, buffered: () => 0, blockedSince: () => undefined, onClose: () => undefined };
}

/** The `data:` payloads of the SSE events written to `s`. */
const events = (s: { readonly text: string[] }) =>
  s.text
    .join("")
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => l.slice("data: ".length));

describe("the HTTP leg of the remote server", () => {
  it("puts each message written whole on the stream as one event, and splits text written with write into its lines", () => {
    const connection = new HttpConnection("c1", new ConnectionSessions({ count: 0, max: 10 }), resolveLimits({}), () => undefined);
    const out = sink();
    expect(connection.attach(out)).toBe(true);
    connection.writeMessage('{"jsonrpc":"2.0","method":"one","params":{}}\n');
    connection.write('{"jsonrpc":"2.0","method":"two"}\n{"jsonrpc":"2.0","me');
    connection.write('thod":"three"}\n');
    connection.writeMessage('{"jsonrpc":"2.0","method":"four"}\n');
    expect(events(out)).toEqual(['{"jsonrpc":"2.0","method":"one","params":{}}', '{"jsonrpc":"2.0","method":"two"}', '{"jsonrpc":"2.0","method":"three"}', '{"jsonrpc":"2.0","method":"four"}']);
    connection.close();
    connection.writeMessage('{"jsonrpc":"2.0","method":"late"}\n');
    expect(events(out)).toHaveLength(4);
  });
});
