// Issue 39, item 3, read from the code's text: one message reader (only src/transport/reader.ts
// makes framers), one place answering a line that is not a usable message (src/jsonrpc/unusable.ts
// builds the -32700/-32600 answers; src/errors.ts defines the constructors), and the reader's
// defaults applied in one function (readerLimits).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { filesIn, root } from "../support/imports.ts";

const read = (file: string) => readFileSync(join(root, file), "utf8");
/** Code lines of a file: comment lines (`//`, ` * `, `/**`) left out, so doc comments may name what the code may not call. */
const code = (text: string) => text.split("\n").filter((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line));
const FOLDERS = ["src", "tools", "bin", "bench", "examples"];
const sources = () => FOLDERS.flatMap(filesIn);

/** Code that makes a framer. */
const MAKES_FRAMER = /\bcreateFramer\s*\(|\bimport\s*\{[^}]*\bcreateFramer\b/;
/** Code that builds an answer to an unusable line: the wire error constructors of that answer, as `wireError` or `RpcError`. */
const BUILDS_UNUSABLE = /\b(wireError|RpcError)\.(parse|lineTooLong|batchRejected|notJsonRpc|unusableId)\(/;
/** Code that applies a default of the reader's options itself. */
const APPLIES_DEFAULT = /\b(DEFAULT_MAX_MESSAGE_BYTES|DEFAULT_MAX_DEPTH)\b|\b(maxMessageBytes|maxDepth|recoverPrefixedLines)\s*\?\?/;

const offenders = (files: readonly string[], pattern: RegExp) => files.filter((f) => code(read(f)).some((line) => pattern.test(line)));

describe("the detectors", () => {
  it("find what they look for, and pass over comments (the checks can fail)", () => {
    expect(code('import { createFramer } from "./framer.ts";').some((l) => MAKES_FRAMER.test(l))).toBe(true);
    expect(code("  const f = createFramer(sink, 10);").some((l) => MAKES_FRAMER.test(l))).toBe(true);
    expect(code(" * split by createFramer(…) once").some((l) => MAKES_FRAMER.test(l))).toBe(false);
    expect(code("    return answer(null, wireError.parse(reason));").some((l) => BUILDS_UNUSABLE.test(l))).toBe(true);
    expect(code("  error: wireError.notJsonRpc(),").some((l) => BUILDS_UNUSABLE.test(l))).toBe(true);
    expect(code("  error: wireError.invalidParams({}),").some((l) => BUILDS_UNUSABLE.test(l))).toBe(false);
    expect(code("  const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;").some((l) => APPLIES_DEFAULT.test(l))).toBe(true);
    expect(code("  const depth = opts.maxDepth ?? 128;").some((l) => APPLIES_DEFAULT.test(l))).toBe(true);
  });
});

describe("one message reader", () => {
  it("makes framers in src/transport/reader.ts only (framer.ts defines it)", () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(200);
    expect(offenders(files, MAKES_FRAMER).filter((f) => f !== "src/transport/framer.ts")).toEqual(["src/transport/reader.ts"]);
  });

  it("is the only framer user among the tests but the framer's own", () => {
    const own = ["test/connection/framing.test.ts", "test/package/portability.test.ts", "test/transport/framer-release.test.ts", "test/transport/junk-prefix.test.ts"];
    expect(
      offenders(filesIn("test"), MAKES_FRAMER)
        .filter((f) => f !== "test/transport/reader-structure.test.ts")
        .sort(),
    ).toEqual(own);
  });
});

describe("one place answers a line that is not a usable message", () => {
  it("builds -32700 (unparsable, too long) and -32600 (batch, not JSON-RPC, unusable id) in src/jsonrpc/unusable.ts only", () => {
    expect(offenders(sources(), BUILDS_UNUSABLE).sort()).toEqual(["src/errors.ts", "src/jsonrpc/unusable.ts"]);
  });
});

describe("the reader's options", () => {
  it("get their defaults in readerLimits only (src/transport/reader.ts), besides the modules that define them", () => {
    // framer.ts and parse.ts define the defaults (and their own parameters' defaults); index.ts re-exports one.
    // Options of other things with their own defaults: spawnAgent's transport says its peer may carry junk unless
    // told not (stdio.ts, default true), and the MCP provider bounds MCP messages (provider.ts, default 1 MiB).
    const defining = ["src/index.ts", "src/jsonrpc/parse.ts", "src/transport/framer.ts", "src/transport/reader.ts", "src/transport/stdio.ts", "src/mcp/provider.ts"];
    expect(offenders(sources(), APPLIES_DEFAULT).filter((f) => !defining.includes(f))).toEqual([]);
  });
});
