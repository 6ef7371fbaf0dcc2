// The small pure parts of the remote transport: the cookie jar, the SSE parser and the outbound peek.
import { describe, expect, it } from "vitest";
import { createCookieJar } from "../../src/remote/cookies.ts";
import { sessionIdOfLine } from "../../src/jsonrpc/session-id.ts";
import { peekLine } from "../../src/remote/peek.ts";
import { createSseParser } from "../../src/remote/sse-parser.ts";

describe("the cookie jar", () => {
  it("returns a host's cookies on later requests to the same host and path", () => {
    const jar = createCookieJar();
    jar.store("http://lb.example:8080/acp", ["SERVERID=s2; Path=/", "theme=dark; Path=/other"]);
    expect(jar.header("http://lb.example:8080/acp")).toBe("SERVERID=s2");
    expect(jar.header("http://other.example/acp")).toBeUndefined();
  });

  it("replaces a cookie of the same name and removes one set in the past", () => {
    const jar = createCookieJar();
    jar.store("http://h/acp", ["a=1", "b=2"]);
    jar.store("http://h/acp", ["a=3", "b=; Max-Age=0"]);
    expect(jar.header("http://h/acp")).toBe("a=3");
  });

  it("sends Secure cookies only over https and wss, and Domain cookies to subdomains", () => {
    const jar = createCookieJar();
    jar.store("https://a.example.com/acp", ["s=1; Secure", "d=2; Domain=example.com"]);
    expect(jar.header("http://a.example.com/acp")).toBe("d=2");
    expect(jar.header("wss://a.example.com/acp")).toBe("s=1; d=2");
    expect(jar.header("https://b.example.com/acp")).toBe("d=2");
  });
});

describe("the SSE parser", () => {
  it("yields each event's data whatever the chunking and line endings, skipping comments", () => {
    const text = ':\r\n\r\ndata: {"a":1}\r\n\r\ndata:{"b":2}\n\ndata: x\rdata: y\r\r';
    const all: string[] = [];
    const parser = createSseParser((d) => all.push(d), 1000);
    for (const ch of text) parser.push(ch);
    expect(all).toEqual(['{"a":1}', '{"b":2}', "x\ny"]);
  });

  it("fails an event longer than its bound instead of buffering it", () => {
    const parser = createSseParser(() => {}, 10);
    expect(() => parser.push(`data: ${"x".repeat(50)}\n`)).toThrow(/over 10 characters/);
  });
});

describe("peeking at outbound lines", () => {
  it("reads kind and id from the connection's own encodings and from other key orders", () => {
    expect(peekLine('{"jsonrpc":"2.0","id":12,"result":{}}')).toEqual({ kind: "result", id: 12 });
    expect(peekLine('{"jsonrpc":"2.0","id":"a\\"b","error":{"code":1}}')).toEqual({ kind: "error", id: 'a"b' });
    expect(peekLine('{"jsonrpc":"2.0","id":3,"method":"session/request_permission","params":{}}')).toEqual({ kind: "request", id: 3 });
    expect(peekLine('{"jsonrpc":"2.0","method":"session/update","params":{}}')).toEqual({ kind: "notification", id: undefined });
    expect(peekLine('{"id":null,"jsonrpc":"2.0","error":{"code":-32700}}')).toEqual({ kind: "error", id: null });
    expect(peekLine("[1,2]")).toEqual({ kind: "other", id: undefined });
  });

  it("reads the session of a line the same whether its prefix or a full parse finds it", () => {
    const update = (params: unknown) => JSON.stringify({ jsonrpc: "2.0", method: "session/update", params });
    // The encoder's own shape: read from the prefix.
    expect(sessionIdOfLine(update({ sessionId: "s-1", update: { sessionUpdate: "agent_message_chunk" } }))).toBe("s-1");
    // Escapes in the id: the decoded value.
    expect(sessionIdOfLine(update({ sessionId: 's"2\\x', update: {} }))).toBe('s"2\\x');
    expect(sessionIdOfLine(update({ sessionId: "caf\u00e9" }))).toBe("caf\u00e9");
    // sessionId not first, or only inside a nested object: the top-level params decide.
    expect(sessionIdOfLine(update({ update: { params: { sessionId: "inner" } }, sessionId: "outer" }))).toBe("outer");
    expect(sessionIdOfLine(update({ update: { params: { sessionId: "inner" } } }))).toBeUndefined();
    expect(sessionIdOfLine(update({ sessionId: 7 }))).toBeUndefined();
    // Requests and other key orders.
    expect(sessionIdOfLine('{"jsonrpc":"2.0","id":4,"method":"session/request_permission","params":{"sessionId":"s-4"}}')).toBe("s-4");
    expect(sessionIdOfLine('{"method":"session/update","jsonrpc":"2.0","params":{"sessionId":"s-5"}}')).toBe("s-5");
    expect(sessionIdOfLine("not json")).toBeUndefined();
  });
});
