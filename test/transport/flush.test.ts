// `Transport.flush`: what was written so far goes to the stream now, not with the rest of the
// event-loop turn's writes (a router forwarding a long chunk lets the next process start early).
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { memoryPair } from "../../src/transport/memory.ts";
import { nodeStreamTransport } from "../../src/transport/node.ts";

describe("Transport.flush", () => {
  it("hands a Node stream transport's queued text to the writable at once, in order", async () => {
    const out = new PassThrough();
    const t = nodeStreamTransport(new PassThrough(), out);
    t.start({ data: () => {}, end: () => {} });
    t.write("a\n");
    t.write("b\n");
    // Coalesced: nothing reached the writable yet in this turn.
    expect(out.writableLength + out.readableLength).toBe(0);
    t.flush?.();
    expect((out.read() as Buffer | null)?.toString()).toBe("a\nb\n");
    t.write("c\n");
    await new Promise((r) => setImmediate(r));
    expect((out.read() as Buffer | null)?.toString()).toBe("c\n");
    t.close();
  });

  it("delivers a memory transport's queued text as one chunk, in order", async () => {
    const [a, b] = memoryPair();
    const got: string[] = [];
    b.start({ data: (c) => void got.push(typeof c === "string" ? c : new TextDecoder().decode(c)), end: () => {} });
    a.start({ data: () => {}, end: () => {} });
    a.write("x\n");
    a.flush?.();
    a.write("y\n");
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual(["x\n", "y\n"]);
  });
});
