// The client connector's switchboard frames with the connection's framer while it probes for the first
// answer: chunk boundaries do not matter, an oversized line is answered as a connection answers it, a
// junk-prefixed answer is still recognised, and what follows a withheld answer reaches the next leg unchanged.
import { describe, expect, it } from "vitest";
import type { Transport, TransportReceiver } from "../../src/transport/transport.ts";
import { createSwitchboard } from "../../src/versions/switchboard.ts";

/** A transport the test feeds by hand; records writes. */
function manual() {
  let receiver: TransportReceiver | undefined;
  const writes: string[] = [];
  const transport: Transport = { start: (r) => void (receiver = r), write: (t) => void writes.push(t), close: () => {} };
  return { transport, writes, feed: (text: string) => receiver?.data(new TextEncoder().encode(text)), end: () => receiver?.end(undefined) };
}

/** Starts `leg` and collects what it reads. */
function read(leg: Transport) {
  const got = { text: "", ended: false };
  leg.start({ data: (c) => void (got.text += typeof c === "string" ? c : new TextDecoder().decode(c)), end: () => void (got.ended = true) });
  return got;
}

const answer = '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}';

describe("the switchboard", () => {
  it("finds an answer split across chunks, withholds it, and gives the next leg the rest byte for byte", async () => {
    const io = manual();
    const board = createSwitchboard(io.transport);
    const first = read(board.leg());
    const found = board.firstAnswer(() => "withhold");
    io.feed('{"jsonrpc":"2.0","method":"x"}\n{"jsonrpc":"2.0","id":0,"res');
    io.feed('ult":{"protocolVersion":1}}\n{"a":"é"}\r\n\n');
    io.feed("tail");
    expect(await found).toEqual(JSON.parse(answer));
    expect(first.text).toBe('{"jsonrpc":"2.0","method":"x"}\n');
    const second = read(board.leg());
    expect(second.text).toBe('{"a":"é"}\r\n\ntail');
    io.end();
    expect(second.ended).toBe(true);
  });

  it("passes an answer on with what follows it", async () => {
    const io = manual();
    const board = createSwitchboard(io.transport);
    const leg = read(board.leg());
    const found = board.firstAnswer(() => "pass");
    io.feed(`${answer}\nnext\n`);
    await found;
    expect(leg.text).toBe(`${answer}\nnext\n`);
  });

  it("answers an oversized line -32700 as a connection does, skips it, and probes the next", async () => {
    const io = manual();
    const board = createSwitchboard(io.transport, { maxMessageBytes: 64 });
    const leg = read(board.leg());
    const found = board.firstAnswer(() => "pass");
    io.feed(`{"jsonrpc":"2.0","method":"x","params":{"pad":"${"x".repeat(100)}"}}\n${answer}\n`);
    expect(await found).toEqual(JSON.parse(answer));
    expect(io.writes).toEqual(['{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":{"reason":"line longer than maxMessageBytes (64)"}}}\n']);
    expect(leg.text).toBe(`${answer}\n`);
  });

  it("recognises an answer behind a terminal escape, and hands the leg the line as it came", async () => {
    const io = manual();
    const board = createSwitchboard(io.transport);
    const leg = read(board.leg());
    const found = board.firstAnswer(() => "pass");
    io.feed(`\u001b[1 q${answer}\n`);
    expect(await found).toEqual(JSON.parse(answer));
    expect(leg.text).toBe(`\u001b[1 q${answer}\n`);
  });

  it("resolves undefined when the stream ends first, flushing a last line without newline to the leg", async () => {
    const io = manual();
    const board = createSwitchboard(io.transport);
    const leg = read(board.leg());
    const found = board.firstAnswer(() => "pass");
    io.feed('{"jsonrpc":"2.0","method":"x"}');
    io.end();
    expect(await found).toBeUndefined();
    expect(leg).toEqual({ text: '{"jsonrpc":"2.0","method":"x"}\n', ended: true });
  });
});
