// Issue 39, item 3: one answer for a line that is not a usable message (jsonrpc/unusable.ts), a
// message-level write on Transport (writeMessage), and a message-level transport's lines parsed
// once with the receiver's own limits (deliverLine).
import { describe, expect, it } from "vitest";
import { connectAgent } from "../../src/index.ts";
import type { Transport, TransportReceiver } from "../../src/index.ts";
import { classify } from "../../src/jsonrpc/classify.ts";
import { ParseFailure, parseValue } from "../../src/jsonrpc/parse.ts";
import { oversizedAnswer, unusableAnswer } from "../../src/jsonrpc/unusable.ts";
import { deliverLine, kindOf, lineReader, messageReader, readerLimits } from "../../src/transport/reader.ts";
import { turn } from "../support/async.ts";
import { testAgent } from "../support/handlers.ts";

const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } };

/** A transport that sends messages: what the connection wrote through `writeMessage` and through `write`, and its receiver. */
function messageTransport() {
  const messages: string[] = [];
  const texts: string[] = [];
  let receiver: TransportReceiver | undefined;
  const transport: Transport = {
    start: (r) => void (receiver = r),
    write: (text) => void texts.push(text),
    writeMessage: (text) => void messages.push(text),
    close: () => undefined,
  };
  return { transport, messages, texts, receiver: () => receiver as TransportReceiver };
}

describe("unusableAnswer: the one answer to a line that is not a usable message", () => {
  const line = (text: string) => {
    const value = parseValue(text);
    return unusableAnswer(value, kindOf(value));
  };

  it("answers every kind of unusable line as the connection always has, with id null", () => {
    expect(line("{nope")).toEqual({ id: null, error: { code: -32700, message: "Parse error", data: { reason: expect.any(String) } } });
    expect(line("[1,2]")).toEqual({ id: null, error: { code: -32600, message: "Invalid request: batches are not supported" } });
    expect(line("[]")).toEqual({ id: null, error: { code: -32600, message: "Invalid request: empty batch" } });
    expect(line("42")).toEqual({ id: null, error: { code: -32600, message: "Invalid request: not a JSON-RPC 2.0 message" } });
    expect(line('{"jsonrpc":"2.0"}')).toEqual({ id: null, error: { code: -32600, message: "Invalid request: not a JSON-RPC 2.0 message" } });
    expect(line('{"jsonrpc":"2.0","id":null,"method":"x"}')).toEqual({ id: null, error: { code: -32600, message: "Invalid request: id must be a string or an integer" } });
    expect(oversizedAnswer(10)).toEqual({ id: null, error: { code: -32700, message: "Parse error", data: { reason: "line longer than maxMessageBytes (10)" } } });
  });

  it("gives nothing for usable messages and for response-shaped bodies, which are never answered", () => {
    expect(line('{"jsonrpc":"2.0","id":1,"method":"x"}')).toBeUndefined();
    expect(line('{"jsonrpc":"2.0","method":"x"}')).toBeUndefined();
    expect(line('{"jsonrpc":"2.0","id":1,"result":{}}')).toBeUndefined();
    expect(line('{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}')).toBeUndefined();
  });

  it("answers an array inside a batch (its element's kind given) as not a message, not as a batch", () => {
    const item = [1];
    expect(unusableAnswer(item, classify(item))?.error.message).toBe("Invalid request: not a JSON-RPC 2.0 message");
  });
});

describe("the reader fed by hand", () => {
  it("hands back the unread rest of the chunk when released from inside a message, and reads nothing more", () => {
    const seen: unknown[] = [];
    let rest = "";
    const stop = messageReader(
      {
        message(value) {
          seen.push(value);
          rest = stop.release();
        },
        oversized: () => undefined,
      },
      readerLimits(),
    );
    stop.push('{"a":1}\n{"b":2}\npartial');
    expect(seen).toEqual([{ a: 1 }]);
    expect(rest).toBe('{"b":2}\npartial');
    stop.push('{"c":3}\n');
    stop.end();
    expect(seen).toEqual([{ a: 1 }]);
  });

  it("gives lines unparsed, reports an oversized one, and recovers a message after junk when asked", () => {
    const out: string[] = [];
    const reader = lineReader({ line: (text) => void out.push(text), oversized: (n) => void out.push(`oversized ${n}`), prefixed: (p) => void out.push(`prefix ${p}`) }, readerLimits({ maxMessageBytes: 25, recoverPrefixedLines: true }));
    reader.push('not json\n{"x":"aaaaaaaaaaaaaaaaaaaa"}\n\u001b[1 q{"jsonrpc":"2.0"}\n');
    reader.end();
    expect(out).toEqual(["not json", "oversized 28", "prefix \u001b[1 q", '{"jsonrpc":"2.0"}']);
  });
});

describe("Transport.writeMessage", () => {
  it("gets every message the connection sends, one whole line per call, and write gets nothing", async () => {
    const t = messageTransport();
    const conn = connectAgent(testAgent().handler, t.transport);
    const r = t.receiver();
    deliverLine(r, JSON.stringify(INIT));
    deliverLine(r, '{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}');
    deliverLine(r, '{"jsonrpc":"2.0","id":3,"method":"nope"}');
    deliverLine(r, "{bad");
    await turn();
    await turn();
    expect(t.texts).toEqual([]);
    expect(t.messages.length).toBe(4);
    for (const m of t.messages) expect(m.indexOf("\n")).toBe(m.length - 1);
    const answers = t.messages.map((m) => JSON.parse(m) as { id: unknown; error?: { code: number } });
    expect(answers.map((a) => [a.id, a.error?.code])).toEqual([
      [1, undefined],
      [2, undefined],
      [3, -32601],
      [null, -32700],
    ]);
    conn.close();
  });

  it("is not needed: a transport without it gets the same messages through write", async () => {
    const texts: string[] = [];
    let receiver: TransportReceiver | undefined;
    connectAgent(testAgent().handler, { start: (r) => void (receiver = r), write: (text) => void texts.push(text), close: () => undefined });
    (receiver as TransportReceiver).data(`${JSON.stringify(INIT)}\n`);
    await turn();
    expect(texts.map((t) => (JSON.parse(t) as { id: unknown }).id)).toEqual([1]);
  });
});

describe("deliverLine: a message-level transport's line, parsed once with the receiver's limits", () => {
  it("parses with the connection's maxDepth and bounds the line by its maxMessageBytes", async () => {
    const t = messageTransport();
    connectAgent(testAgent().handler, t.transport, { maxDepth: 3, maxMessageBytes: 200 });
    const r = t.receiver();
    expect(r.limits).toMatchObject({ maxMessageBytes: 200, maxDepth: 3 });
    deliverLine(r, '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"a":{"b":{"c":{}}}}}');
    deliverLine(r, `{"jsonrpc":"2.0","id":2,"method":"x","params":{"pad":"${"p".repeat(300)}"}}`);
    deliverLine(r, "   ");
    deliverLine(r, `\ufeff${JSON.stringify(INIT)}`);
    await turn();
    const answers = t.messages.map((m) => JSON.parse(m) as { id: unknown; error?: { code: number; data?: { reason?: string } } });
    expect(answers.map((a) => [a.id, a.error?.code, a.error?.data?.reason])).toEqual([
      [null, -32700, "nesting deeper than 3 levels"],
      [null, -32700, "line longer than maxMessageBytes (200)"],
      [1, undefined, undefined],
    ]);
  });

  it("shows the parsed message to the transport first, and falls back to text for a receiver that reads bytes", () => {
    const t = messageTransport();
    connectAgent(testAgent().handler, t.transport);
    const seen: unknown[] = [];
    deliverLine(t.receiver(), JSON.stringify(INIT), (value, kind) => void seen.push(kind, value));
    expect(seen).toEqual(["request", INIT]);

    const data: string[] = [];
    const bytesOnly: TransportReceiver = { data: (chunk) => void data.push(String(chunk)), end: () => undefined };
    const fallback: unknown[] = [];
    deliverLine(bytesOnly, '{"jsonrpc":"2.0","method":"n"}', (value, kind) => void fallback.push(kind, value));
    deliverLine(bytesOnly, "{bad");
    expect(data).toEqual(['{"jsonrpc":"2.0","method":"n"}\n', "{bad\n"]);
    expect(fallback).toEqual(["notification", { jsonrpc: "2.0", method: "n" }]);
    expect(parseValue("{bad")).toBeInstanceOf(ParseFailure);
  });
});
