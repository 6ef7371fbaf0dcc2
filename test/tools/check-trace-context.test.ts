// ACP-META-101 on the wire: the reserved _meta keys hold W3C trace context wherever an agent writes them.
import { describe, expect, it } from "vitest";
import { traceContextProblem, traceContextUses } from "../../tools/check/trace-context.ts";

describe("check's trace-context rule", () => {
  it.each([
    ["traceparent", "00-80e1afed08e019fc1110464cfa66635c-7a085853722dc6d2-01"],
    ["tracestate", "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"],
    ["baggage", "userId=alice,serverNode=DF%2028;prop=1"],
  ] as const)("accepts a valid %s", (key, value) => {
    expect(traceContextProblem(key, value)).toBeUndefined();
  });

  it.each([
    ["traceparent", "session-42", 'traceparent "session-42" is not version-traceid-parentid-flags in lowercase hex'],
    ["traceparent", "00-00000000000000000000000000000000-7a085853722dc6d2-01", 'traceparent "00-00000000000000000000000000000000-7a085853722dc6d2-01" is not version-traceid-parentid-flags in lowercase hex'],
    ["tracestate", 42, "tracestate is 42, not a string"],
    ["baggage", "no equals sign", 'baggage "no equals sign" is not a list of key=value members'],
  ] as const)("names what is wrong with %s %j", (key, value, problem) => {
    expect(traceContextProblem(key, value)).toBe(problem);
  });

  it("finds the reserved keys in _meta at any depth, and only there", () => {
    const body = { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", traceparent: "not in _meta", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x", _meta: { traceparent: "bad" } } }, _meta: { tracestate: "a=1" } } };
    expect(traceContextUses(body)).toEqual([
      { key: "tracestate", problem: undefined },
      { key: "traceparent", problem: 'traceparent "bad" is not version-traceid-parentid-flags in lowercase hex' },
    ]);
  });
});
