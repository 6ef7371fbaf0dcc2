// The proxy's analysis queue: lines are analysed after forwarding, in arrival order across directions, and a full queue skips and resynchronises.
import { describe, expect, it } from "vitest";
import { lineReader, readerLimits } from "../../src/transport/reader.ts";
import { createAnalysisQueue } from "../../tools/inspect/analysis.ts";
import type { Sender } from "../../tools/inspect/rules.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A queue whose analysed lines are collected. Its slices are unbounded: what these tests show is the order, the
 * arrival times and the bound, and a 1 ms slice (ANALYSIS_SLICE_MS) on a loaded machine may end after one chunk,
 * so what one turn analyses would depend on the machine's load.
 */
function collect(maxBytes?: number) {
  const seen: string[] = [];
  const open = (from: Sender, time: () => number) => lineReader({ line: (text) => void seen.push(`${from}@${time()} ${text}`), oversized: () => undefined }, readerLimits());
  return { seen, queue: createAnalysisQueue(open, maxBytes, Number.POSITIVE_INFINITY) };
}

describe("createAnalysisQueue", () => {
  it("analyses nothing while the chunk is being forwarded, then every line in arrival order with its arrival time", async () => {
    const { seen, queue } = collect();
    queue.push("client", bytes('{"a":1}\n{"b"'), 1);
    queue.push("agent", bytes('{"c":3}\n'), 2);
    queue.push("client", bytes(":2}\n"), 3);
    expect(seen).toEqual([]);
    await turn();
    expect(seen).toEqual(['client@1 {"a":1}', 'agent@2 {"c":3}', 'client@3 {"b":2}']);
    queue.end("client");
    queue.finish();
    expect(queue.skipped).toEqual({ client: 0, agent: 0 });
  });

  it("gives the event loop back after each slice: a slice that ends at once analyses one chunk per turn, in order", async () => {
    const seen: string[] = [];
    const open = (from: Sender, time: () => number) => lineReader({ line: (text) => void seen.push(`${from}@${time()} ${text}`), oversized: () => undefined }, readerLimits());
    // A slice already over when it starts: each turn analyses exactly one chunk, then schedules the next.
    const queue = createAnalysisQueue(open, undefined, -1);
    queue.push("client", bytes('{"a":1}\n'), 1);
    queue.push("agent", bytes('{"b":2}\n'), 2);
    queue.push("client", bytes('{"c":3}\n'), 3);
    const perTurn: number[] = [];
    for (let turns = 0; turns < 3; turns++) {
      await turn();
      perTurn.push(seen.length);
    }
    expect(perTurn).toEqual([1, 2, 3]);
    expect(seen).toEqual(['client@1 {"a":1}', 'agent@2 {"b":2}', 'client@3 {"c":3}']);
    queue.finish();
  });

  it("skips chunks past its bound, counts their lines, and restarts that direction at the next newline", async () => {
    const { seen, queue } = collect(20);
    queue.push("agent", bytes('{"a":1}\n{"b":'), 1);
    queue.push("agent", bytes('2}\n{"c":3}\n{"d":'), 2);
    await turn();
    queue.push("agent", bytes('4}\n{"e":5}\n'), 3);
    queue.push("client", bytes('{"f":6}\n'), 4);
    queue.finish();
    expect(seen).toEqual(['agent@1 {"a":1}', 'agent@3 {"e":5}', 'client@4 {"f":6}']);
    expect(queue.skipped).toEqual({ client: 0, agent: 3 });
  });
});
