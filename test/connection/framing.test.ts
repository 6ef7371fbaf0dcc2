// DESIGN §4.1 and PITFALLS 14: NDJSON framing is independent of chunk boundaries, and an
// oversized line is answered -32700 and skipped without being buffered.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exceedsDepth, withinDepth } from "../../src/jsonrpc/parse.ts";
import { createFramer } from "../../src/transport/framer.ts";
import { turn } from "../support/async.ts";
import { testAgent } from "../support/handlers.ts";
import { forceGc, liveBytes } from "../support/heap.ts";
import { rawAgent } from "../support/raw-peer.ts";

const encoder = new TextEncoder();
type Event = { line: string } | { oversized: true };

/** Feeds `bytes` to a fresh framer in chunks cut at `cuts`, then ends it; returns what came out. */
function frame(bytes: Uint8Array, cuts: readonly number[], maxMessageBytes?: number): Event[] {
  const events: Event[] = [];
  const framer = createFramer({ line: (text) => events.push({ line: text }), oversized: () => events.push({ oversized: true }) }, maxMessageBytes);
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    framer.push(bytes.subarray(at, cut));
    at = cut;
  }
  framer.push(bytes.subarray(at));
  framer.end();
  return events;
}

/** Any text without line breaks that is not blank: multi-byte and astral characters included. */
const content = fc.string({ unit: "binary", minLength: 1, maxLength: 12 }).filter((s) => !/[\r\n]/.test(s) && s.trim() !== "");
const jsonish = fc
  .jsonValue({ maxDepth: 2 })
  .map((v) => JSON.stringify(v))
  .filter((s) => s.trim() !== "");
const ending = fc.constantFrom("\n", "\r\n");
const blank = fc.constantFrom("", " ", "\t", "  \t ");
/** A stream: content and blank lines, each with an ending; the last one's ending may be missing. */
const stream = fc.tuple(fc.array(fc.oneof(fc.record({ text: fc.oneof(content, jsonish), blank: fc.constant(false) }), fc.record({ text: blank, blank: fc.constant(true) })), { maxLength: 12 }), fc.array(ending, { minLength: 12, maxLength: 12 }), fc.boolean()).map(([items, endings, lastEnded]) => {
  const text = items.map((it, i) => it.text + (i < items.length - 1 || lastEnded ? (endings[i] as string) : "")).join("");
  return { text, lines: items.filter((it) => !it.blank).map((it) => it.text) };
});
const withCuts = stream.chain((s) => {
  const bytes = encoder.encode(s.text);
  return fc.record({ s: fc.constant(s), bytes: fc.constant(bytes), cuts: fc.array(fc.nat(bytes.length), { maxLength: 10 }) });
});

describe("createFramer", () => {
  it("yields the same lines for any split of the byte stream (UTF-8 splits, \\r\\n, blank lines, missing last newline)", () => {
    fc.assert(
      fc.property(withCuts, ({ s, bytes, cuts }) => {
        const expected = s.lines.map((line) => ({ line }));
        expect(frame(bytes, [])).toEqual(expected);
        expect(frame(bytes, cuts)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it("yields the same lines when fed one byte at a time", () => {
    const text = 'é{"a":"𝄞"}\r\n\n  \n{"b":"日本"}\n😀 last';
    const bytes = encoder.encode(text);
    const oneByOne = Array.from({ length: bytes.length }, (_, i) => i);
    expect(frame(bytes, oneByOne)).toEqual([{ line: 'é{"a":"𝄞"}' }, { line: '{"b":"日本"}' }, { line: "😀 last" }]);
  });

  it("reports each line longer than the limit once and delivers the others, for any split", () => {
    const limit = 16;
    const line = fc.string({ unit: "binary", minLength: 1, maxLength: 3 * limit }).filter((s) => !/[\r\n]/.test(s) && s.trim() !== "");
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 6 }).chain((lines) => {
          const bytes = encoder.encode(`${lines.join("\n")}\n`);
          return fc.record({ lines: fc.constant(lines), bytes: fc.constant(bytes), cuts: fc.array(fc.nat(bytes.length), { maxLength: 12 }) });
        }),
        ({ lines, bytes, cuts }) => {
          const expected = lines.map((l): Event => (l.length > limit ? { oversized: true } : { line: l }));
          expect(frame(bytes, cuts, limit)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("marks a line shallow only when it is at most 2 × bracketLimit + 1 long or has at most bracketLimit opening brackets, for any split", () => {
    const limit = 3;
    const bracketed = fc
      .array(fc.constantFrom("{", "[", "}", "]", "a", '"', " ", "é"), { minLength: 1, maxLength: 12 })
      .map((cs) => cs.join(""))
      .filter((s) => s.trim() !== "");
    fc.assert(
      fc.property(
        fc.array(bracketed, { minLength: 1, maxLength: 8 }).chain((lines) => {
          const bytes = encoder.encode(`${lines.join("\n")}\n`);
          return fc.record({ lines: fc.constant(lines), bytes: fc.constant(bytes), cuts: fc.array(fc.nat(bytes.length), { maxLength: 6 }) });
        }),
        ({ lines, bytes, cuts }) => {
          const seen: { line: string; shallow: boolean }[] = [];
          const framer = createFramer({ line: (line, shallow) => seen.push({ line, shallow }), oversized: () => undefined }, undefined, limit);
          let at = 0;
          for (const cut of [...cuts].sort((a, b) => a - b)) {
            framer.push(bytes.subarray(at, cut));
            at = cut;
          }
          framer.push(bytes.subarray(at));
          framer.end();
          expect(seen.map((e) => e.line)).toEqual(lines);
          const bounded = (line: string) => line.length <= 2 * limit + 1 || line.replace(/[^{[]/g, "").length <= limit;
          for (const { line, shallow } of seen) if (shallow) expect(bounded(line)).toBe(true);
          // Without cuts every line is judged.
          if (cuts.length === 0) for (const { line, shallow } of seen) expect(shallow).toBe(bounded(line));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("delivers a line of exactly the limit ending in \\r\\n whichever way it is split", () => {
    const bytes = encoder.encode("0123456789\r\n");
    expect(frame(bytes, [], 10)).toEqual([{ line: "0123456789" }]);
    expect(frame(bytes, [11], 10)).toEqual([{ line: "0123456789" }]);
  });
});

describe("an agent connection receiving a 40 MiB line", () => {
  const MiB = 1024 * 1024;
  const chunk = "a".repeat(64 * 1024);
  const chunks = (40 * MiB) / chunk.length;

  it("detects a retained 40 MiB string with this measurement (so the bound below can fail)", () => {
    const decoder = new TextDecoder();
    const bytes = encoder.encode(chunk);
    const base = liveBytes();
    let retained = "";
    for (let i = 0; i < chunks; i++) retained += decoder.decode(bytes, { stream: true });
    const grown = liveBytes() - base;
    expect(retained.length).toBe(40 * MiB);
    expect(grown).toBeGreaterThan((forceGc() ? 35 : 20) * MiB);
  });

  it("answers -32700 with id null, serves the next line, and never holds the line in memory", async () => {
    const d = rawAgent(testAgent().handler);
    await d.initialize();
    const base = liveBytes();
    d.write('{"jsonrpc":"2.0","id":1,"method":"_echo","params":{"pad":"');
    for (let i = 0; i < chunks; i++) {
      d.write(chunk);
      await turn(); // deliver each 64 KiB chunk on its own
    }
    const whileSkipping = liveBytes() - base; // the whole line has arrived except its newline
    d.write('"}}\n{"jsonrpc":"2.0","id":2,"method":"_echo"}\n');
    expect(await d.next()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 2, result: { method: "_echo", params: {} } });
    const after = liveBytes() - base;
    expect(whileSkipping).toBeLessThan(20 * MiB);
    expect(after).toBeLessThan(20 * MiB);
    expect(d.diagnostics.map((x) => x.kind)).toEqual(["oversized_line"]);
  });
});

describe("the depth bound's length shortcut", () => {
  /** How deep a parsed value nests (a scalar is 0, `[]` is 1). */
  const depthOf = (value: unknown): number => (typeof value === "object" && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0);

  it("holds for every JSON value: a line that parses nests at most half its length deep, so a short line is never too deep", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), (value) => {
        const line = JSON.stringify(value);
        expect(2 * depthOf(JSON.parse(line))).toBeLessThanOrEqual(line.length);
        // The shortcut and the scan agree on every line the shortcut lets through.
        for (const maxDepth of [1, 2, 4, 8]) if (withinDepth(line.length, maxDepth)) expect(exceedsDepth(line, maxDepth)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});
