// The public message builders (acp-router/messages) write exactly the lines a peer expects.
import { describe, expect, it } from "vitest";
import { batch, encode, error, notification, parse, request, result } from "../../src/messages.ts";
import { RpcError } from "../../src/index.ts";

describe("the message builders", () => {
  it("build a request, leaving params out when undefined", () => {
    expect(encode(request(1, "initialize", { protocolVersion: 1 }))).toBe('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}\n');
    expect(encode(request("a", "session/list"))).toBe('{"jsonrpc":"2.0","id":"a","method":"session/list"}\n');
  });

  it("build a notification, with or without params", () => {
    expect(encode(notification("session/cancel", { sessionId: "s" }))).toBe('{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}\n');
    expect(encode(notification("_example.com/ping"))).toBe('{"jsonrpc":"2.0","method":"_example.com/ping"}\n');
  });

  it("build a result, sending an undefined value as null", () => {
    expect(encode(result(7, { stopReason: "end_turn" }))).toBe('{"jsonrpc":"2.0","id":7,"result":{"stopReason":"end_turn"}}\n');
    expect(result("x", undefined)).toEqual({ jsonrpc: "2.0", id: "x", result: null });
  });

  it("build an error from a plain object or an RpcError, keeping only the wire fields", () => {
    expect(encode(error(3, { code: -32601, message: "Method not found" }))).toBe('{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}}\n');
    const built = error(null, RpcError.methodNotFound("nope", "unknown"));
    expect(built).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32601, message: "Method not found", data: { method: "nope", reason: "unknown" } } });
    expect(built.error).not.toBeInstanceOf(RpcError);
  });

  it("build a batch that encodes as one array on one line", () => {
    const line = encode(batch(request(1, "a"), notification("b")));
    expect(line).toBe('[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"}]\n');
  });

  it("keep a line one line even when a string holds newlines", () => {
    const line = encode(notification("n", { text: "one\ntwo\r\n" }));
    expect(line.indexOf("\n")).toBe(line.length - 1);
    expect(line).toBe('{"jsonrpc":"2.0","method":"n","params":{"text":"one\\ntwo\\r\\n"}}\n');
  });

  it("refuse what a peer would have to reject: a fractional or unsafe id, a non-integer code, an empty batch", () => {
    expect(() => request(1.5, "a")).toThrow(RangeError);
    expect(() => result(2 ** 53, null)).toThrow("a JSON-RPC request id is a string or a safe integer, got 9007199254740992");
    expect(() => error(1, { code: 1.5, message: "x" })).toThrow("a JSON-RPC error code is an integer, got 1.5");
    expect(() => batch()).toThrow("a JSON-RPC batch needs at least one message");
  });
});

describe("parse", () => {
  it("classifies each kind of line as a connection does", () => {
    expect(parse('{"jsonrpc":"2.0","id":1,"method":"a"}\n')).toEqual({ kind: "request", body: { jsonrpc: "2.0", id: 1, method: "a" } });
    expect(parse('{"jsonrpc":"2.0","id":null,"method":"a"}').kind).toBe("unidentified_request");
    expect(parse('{"jsonrpc":"2.0","method":"a"}\r\n').kind).toBe("notification");
    expect(parse('{"jsonrpc":"2.0","id":"1","result":{}}').kind).toBe("response");
    expect(parse('{"jsonrpc":"2.0","id":1,"result":{},"error":{}}').kind).toBe("unknown");
    expect(parse("[1,2]")).toEqual({ kind: "batch", items: [1, 2] });
    expect(parse("{nope").kind).toBe("invalid");
    expect(parse(`${"[".repeat(129)}${"]".repeat(129)}`)).toEqual({ kind: "invalid", reason: "nesting deeper than 128 levels" });
  });

  it("reads back what the builders wrote", () => {
    const message = request(9, "session/prompt", { sessionId: "s", prompt: [] });
    expect(parse(encode(message))).toEqual({ kind: "request", body: message });
  });
});
