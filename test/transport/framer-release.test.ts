// Framer.release(): a reader that frames only a prefix of a stream (the version router, the switchboard)
// gets back, unchanged, everything pushed after the line it stopped at.
import { describe, expect, it } from "vitest";
import { createFramer } from "../../src/transport/framer.ts";

function framer(stopAt: string) {
  const lines: string[] = [];
  let rest: string | undefined;
  const f = createFramer(
    {
      line(text) {
        lines.push(text);
        if (text === stopAt) rest = f.release();
      },
      oversized: (n) => lines.push(`oversized ${n}`),
    },
    16,
  );
  return { f, lines, rest: () => rest };
}

describe("Framer.release", () => {
  it("called from line(), returns the rest of the chunk byte for byte and delivers nothing more", () => {
    const { f, lines, rest } = framer("b");
    f.push("a\nb\r\nc\n\n  \nd");
    expect(lines).toEqual(["a", "b"]);
    expect(rest()).toBe("c\n\n  \nd");
    f.push("e\n");
    f.end();
    expect(lines).toEqual(["a", "b"]);
  });

  it("after a line completed from an earlier chunk, returns the text after it", () => {
    const { f, lines, rest } = framer("abc");
    f.push("a");
    f.push("bc\nnext\n");
    expect(lines).toEqual(["abc"]);
    expect(rest()).toBe("next\n");
  });

  it("on the last line of a chunk returns an empty rest; between pushes, the incomplete line", () => {
    const first = framer("x");
    first.f.push("x\n");
    expect(first.rest()).toBe("");
    const between = createFramer({ line: () => {}, oversized: () => {} });
    between.push("done\npart");
    expect(between.release()).toBe("part");
    expect(between.release()).toBe("");
  });

  it("keeps skipping an oversized line before the stop, as without release", () => {
    const { f, lines, rest } = framer("ok");
    f.push(`${"x".repeat(40)}\nok\n{"after":1}\n`);
    expect(lines).toEqual(["oversized 40", "ok"]);
    expect(rest()).toBe('{"after":1}\n');
  });
});
