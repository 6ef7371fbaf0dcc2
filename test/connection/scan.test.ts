// The head reader a router uses instead of parsing (src/jsonrpc/scan.ts): whatever it takes, JSON.parse
// and classify would read the same way; whatever JSON.parse refuses (or the depth bound), it refuses.
import { describe, expect, it } from "vitest";
import { classify } from "../../src/jsonrpc/classify.ts";
import { DEFAULT_MAX_DEPTH, ParseFailure, parseValue } from "../../src/jsonrpc/parse.ts";
import { scanEnvelope, scanHead, stringMember } from "../../src/jsonrpc/scan.ts";

/** What JSON.parse and classify say of `line`, as the head reader should. */
function expected(line: string, maxDepth: number) {
  const value = parseValue(line, maxDepth);
  if (value instanceof ParseFailure || typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const kind = classify(value);
  return kind === "request" || kind === "notification" || kind === "response" ? { kind, body: value as Record<string, unknown> } : undefined;
}

/** Checks the head of `line` against {@link expected}; true when the reader took it. */
function agrees(line: string, maxDepth = DEFAULT_MAX_DEPTH): boolean {
  const head = scanHead(line, maxDepth);
  const want = expected(line, maxDepth);
  if (want === undefined) {
    expect(head, line).toBeUndefined();
    return false;
  }
  // A repeated member the reader reads is left to JSON.parse (it keeps the last): the only other refusal.
  if (head === undefined) {
    expect(/"(id|method|params|result|error)"[\s\S]*"\1"/.test(line), line).toBe(true);
    return false;
  }
  const { kind, body } = want;
  const text = (at: number, end: number) => (at === -1 ? undefined : JSON.parse(line.slice(at, end)));
  expect({ kind: head.kind, id: head.id, method: head.method, idText: text(head.idAt, head.idEnd), methodText: text(head.methodAt, head.methodEnd), params: text(head.paramsAt, head.paramsEnd) }, line).toEqual({
    kind,
    id: kind === "notification" ? undefined : body.id,
    method: body.method,
    idText: body.id,
    methodText: body.method,
    params: body.params,
  });
  return true;
}

const VALID = [
  '{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"hi \\"there\\" \\u00e9"}]}}',
  '{"jsonrpc":"2.0","method":"session/update","params":{"update":{"n":-1.5e+3,"t":true,"f":false,"z":null,"a":[[],{}]}}}',
  '{"jsonrpc":"2.0","id":"x\\ny","result":{"stopReason":"end_turn"}}',
  '{"jsonrpc":"2.0","id":0,"error":{"code":-32601,"message":"nope"}}',
  '{"jsonrpc":"2.0","id":7,"result":null}',
  '{"jsonrpc":"2.0","id":7,"error":null}',
  ' { "params" : [ 1 , 2 ] , "method" : "m\\u0041" , "id" : -0 } ',
  '{"\\u0069d":5,"method":"m"}',
  '{"jsonrpc":"2.0","method":"a/b","params":{"s":"\\\\","t":"\\/"}}',
  '{"id":1e2,"method":"m"}',
  '{"method":"m","id":9007199254740991}',
  '{"method":"héllo ✓","params":{"emoji":"😀"}}',
];

const NOT_TAKEN = [
  "",
  "not json",
  "[]",
  '[{"jsonrpc":"2.0","method":"m"}]',
  '"string"',
  "42",
  "{",
  '{"jsonrpc":"2.0","method":"m"',
  '{"jsonrpc":"2.0","method":"m"}}',
  '{"jsonrpc":"2.0","method":"m"} x',
  '{"jsonrpc":"2.0","method":"m",}',
  '{"jsonrpc":"2.0","method":"m","params":{"a":tru}}',
  '{"jsonrpc":"2.0","method":"m","params":{"a":01}}',
  '{"jsonrpc":"2.0","method":"m","params":{"a":1.}}',
  '{"jsonrpc":"2.0","method":"m","params":{"a":-}}',
  '{"jsonrpc":"2.0","method":"m","params":{"a":"\\x"}}',
  '{"jsonrpc":"2.0","method":"m","params":{"a":"\\u12g4"}}',
  '{"jsonrpc":"2.0","method":"m","params":{"a":"tab\there"}}',
  '{"jsonrpc":"2.0","method":"m","params":{"a" 1}}',
  '{"jsonrpc":"2.0","method":"m","params":[1 2]}',
  "{'method':'m'}",
  '{"jsonrpc":"2.0","id":1.5,"method":"m"}',
  '{"jsonrpc":"2.0","id":null,"method":"m"}',
  '{"jsonrpc":"2.0","id":9007199254740993,"method":"m"}',
  '{"jsonrpc":"2.0","id":1}',
  '{"jsonrpc":"2.0","id":1,"result":{},"error":{}}',
  '{"jsonrpc":"2.0","method":5}',
  '{"jsonrpc":"2.0","id":1,"method":"m","id":2}',
  '{"jsonrpc":"2.0","method":"m","params":{},"params":[]}',
  "\ufeff{}",
];

describe("the head reader", () => {
  it("reads what JSON.parse and classify read, off the line", () => {
    for (const line of VALID) expect(agrees(line), line).toBe(true);
  });

  it("takes nothing JSON.parse refuses, nor other kinds, nor a repeated member it reads", () => {
    for (const line of NOT_TAKEN) expect(agrees(line), line).toBe(false);
  });

  it("bounds nesting as parseValue does", () => {
    const nested = (n: number) => `{"jsonrpc":"2.0","method":"m","params":${"[".repeat(n - 1)}${"]".repeat(n - 1)}}`;
    expect(scanHead(nested(10), 10)).toBeDefined();
    expect(scanHead(nested(11), 10)).toBeUndefined();
    expect(parseValue(nested(11), 10)).toBeInstanceOf(ParseFailure);
    expect(scanHead(nested(5000), DEFAULT_MAX_DEPTH)).toBeUndefined();
  });

  it("agrees with JSON.parse on mutations of real messages (every one-character deletion, and a quote, brace or digit put in)", () => {
    let taken = 0;
    let refused = 0;
    for (const line of VALID) {
      for (let i = 0; i < line.length; i++) {
        for (const mutated of [line.slice(0, i) + line.slice(i + 1), `${line.slice(0, i)}"${line.slice(i)}`, `${line.slice(0, i)}}${line.slice(i)}`, `${line.slice(0, i)}0${line.slice(i)}`]) {
          if (agrees(mutated)) taken++;
          else refused++;
        }
      }
    }
    // Both sides of the line were exercised.
    expect(taken).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(500);
  });

  it("reads an envelope's members and a string member without parsing the object", () => {
    const line = '{"jsonrpc":"2.0","id":1,"method":"proxy/successor","params":{"_meta":{"method":"no"},"method":"session/prompt","params":{"sessionId":"s\\u0031","x":{"sessionId":"inner"}}}}';
    const head = scanHead(line, DEFAULT_MAX_DEPTH);
    if (head === undefined) throw new Error("not read");
    const env = scanEnvelope(line, head.paramsAt);
    expect(env?.method).toBe("session/prompt");
    const params = line.slice(env?.paramsSpan.at, env?.paramsSpan.end);
    expect(JSON.parse(params)).toEqual({ sessionId: "s1", x: { sessionId: "inner" } });
    expect(stringMember(params, 0, "sessionId")).toBe("s1");
    expect(stringMember('{"sessionId":1}', 0, "sessionId")).toBeUndefined();
    expect(stringMember('{"sessionId":"a","sessionId":"b"}', 0, "sessionId")).toBe("b");
    expect(scanEnvelope('{"method":"a","method":"b"}', 0)).toBeUndefined();
  });
});
