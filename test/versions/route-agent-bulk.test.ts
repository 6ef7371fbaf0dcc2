// The version router frames with the connection's framer: 10,000 lines arriving in one chunk are each
// answered exactly once and in order — those before initialize by the router, those after it (the rest
// of the same chunk, handed on unchanged) by the routed connection.
import { describe, expect, it, vi } from "vitest";
import { protocol, type AgentHandler, type Transport, type TransportReceiver } from "../../src/index.ts";
import { routeAgent } from "../../src/versions/route-agent.ts";

const agent: AgentHandler = {
  initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }),
  newSession: () => ({ sessionId: "s1" }),
  prompt: () => ({ stopReason: "end_turn" }),
  authenticate: () => ({}),
};

/** A transport whose whole input is one chunk, delivered at start; records each write. */
function oneChunk(chunk: string): { transport: Transport; writes: string[]; ended: Promise<void> } {
  const writes: string[] = [];
  let receiver: TransportReceiver | undefined;
  let closed!: () => void;
  const ended = new Promise<void>((r) => (closed = r));
  const transport: Transport = {
    start(r) {
      receiver = r;
      queueMicrotask(() => receiver?.data(new TextEncoder().encode(chunk)));
    },
    write: (text) => void writes.push(text),
    close: () => closed(),
  };
  return { transport, writes, ended };
}

describe("routeAgent on 10,000 lines in one chunk", () => {
  it("answers each line exactly once, in order, before and after routing", async () => {
    const before = 5000;
    const after = 4999;
    const lines: string[] = [];
    for (let i = 0; i < before; i++) lines.push(JSON.stringify({ jsonrpc: "2.0", id: i, method: "session/new", params: {} }));
    lines.push(JSON.stringify({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } }));
    for (let i = 0; i < after; i++) lines.push(JSON.stringify({ jsonrpc: "2.0", id: before + i, method: "no/such_method", params: {} }));
    expect(lines).toHaveLength(10_000);
    const chunk = `${lines.join("\n")}\n`;
    const { transport, writes } = oneChunk(chunk);
    // Linear work, counted rather than timed: the characters of every string slice taken while the chunk is
    // split (router and connection) stay within a small multiple of the chunk. Re-slicing the buffer after
    // each line, as a naive splitter does, copies about lines²/2 line lengths (here some 10^9 characters).
    let sliced = 0;
    const slice = String.prototype.slice;
    const spy = vi.spyOn(String.prototype, "slice").mockImplementation(function (this: string, ...args: [number?, number?]) {
      const part = slice.apply(this, args);
      sliced += part.length;
      return part;
    });
    let routed: Awaited<ReturnType<typeof routeAgent>>;
    try {
      routed = await routeAgent(transport, { v1: { protocol, handler: agent } });
    } finally {
      spy.mockRestore();
    }
    expect(routed?.version).toBe(1);
    expect(sliced).toBeLessThan(3 * chunk.length);
    while (writes.join("").split("\n").length <= 10_000) await new Promise((r) => setTimeout(r, 5));
    const answers = writes
      .join("")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: unknown; error?: { code: number; message: string } });
    expect(answers).toHaveLength(10_000);
    // Before initialize: the router's answer, one per line, in order.
    expect(writes.slice(0, before).every((w) => w.endsWith("\n") && w.indexOf("\n") === w.length - 1)).toBe(true);
    expect(answers.slice(0, before).map((a) => a.id)).toEqual([...Array(before).keys()]);
    expect(new Set(answers.slice(0, before).map((a) => a.error?.message))).toEqual(new Set(["Not initialized: the first request must be initialize"]));
    // Then initialize's result, then the connection's answers to the rest of the chunk, in order.
    expect(answers[before]).toMatchObject({ id: "init", result: { protocolVersion: 1 } });
    expect(answers.slice(before + 1).map((a) => a.id)).toEqual(Array.from({ length: after }, (_, i) => before + i));
    expect(new Set(answers.slice(before + 1).map((a) => a.error?.code))).toEqual(new Set([-32601]));
  });
});
