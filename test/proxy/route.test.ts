// The conductor's parts that need no process: what it routes by (read off the rows), where each
// message goes (a pure function), and how a message leaves when only its id changes (spliced).
import { describe, expect, it } from "vitest";
import { chainRows } from "../../src/proxy/chain-rows.ts";
import { protocol as proxy } from "../../src/proxy/generated/protocol.ts";
import { createRelay } from "../../src/proxy/relay.ts";
import { PEER, route, type ChainShape } from "../../src/proxy/route.ts";
import { Inbound, readLine, withId } from "../../src/proxy/splice.ts";
import { kindOf } from "../../src/transport/reader.ts";
import { protocol as unstable } from "../../src/unstable/generated/protocol.ts";

const rows = chainRows(proxy, unstable);
const inbound = (line: string): Inbound => {
  const read = readLine(line, 128, kindOf);
  if (!(read instanceof Inbound)) throw new Error(`not a message: ${line}`);
  return read;
};
const msg = (body: Record<string, unknown>) => inbound(JSON.stringify({ jsonrpc: "2.0", ...body }));
const shape = (last: number, mode: "terminal" | "proxy" = "terminal"): ChainShape => ({ last, mode, name: (i) => `component ${i}` });

describe("what the conductor routes by", () => {
  it("is read off the proxy table's rows and its base's", () => {
    expect([rows.cancel, rows.initialize, rows.proxyInitialize, rows.envelope]).toEqual(["$/cancel_request", "initialize", "proxy/initialize", "proxy/successor"]);
    expect([...rows.proxyOnly].sort()).toEqual(["proxy/initialize", "proxy/successor"]);
    expect([...rows.opensSession].sort()).toEqual(["session/fork", "session/load", "session/new", "session/resume"]);
    expect(rows.mcp).toEqual({ wire: "mcp/message", capability: ["mcpCapabilities", "acp"] });
    expect(rows.agentCapabilities).toBe("agentCapabilities");
    expect([rows.sessionCancel, [...rows.turns]]).toEqual(["session/cancel", ["session/prompt"]]);
  });
});

describe("where a message goes", () => {
  const chain = shape(1); // client ⇄ proxy 0 ⇄ agent 1
  it("sends the client's messages to the head as they are, initialize as the proxy's initialize", () => {
    expect(route(chain, rows, PEER, msg({ id: 1, method: "session/prompt", params: { sessionId: "s" } }))).toEqual({ do: "forward", to: 0, method: "session/prompt", how: "same" });
    expect(route(chain, rows, PEER, msg({ id: 1, method: "initialize", params: {} }))).toEqual({ do: "forward", to: 0, method: "proxy/initialize", how: "rename" });
    expect(route(shape(0), rows, PEER, msg({ id: 1, method: "initialize", params: {} }))).toEqual({ do: "forward", to: 0, method: "initialize", how: "same" });
  });

  it("unwraps a proxy's envelope for its successor, and wraps what a component sends back", () => {
    expect(route(chain, rows, 0, msg({ id: 3, method: "proxy/successor", params: { method: "session/prompt", params: { a: 1 }, _meta: { hop: true } } }))).toEqual({ do: "forward", to: 1, method: "session/prompt", how: "unwrap", inner: { method: "session/prompt", paramsText: '{"a":1}' } });
    expect(route(chain, rows, 1, msg({ method: "session/update", params: { u: 1 } }))).toEqual({ do: "forward", to: 0, method: "proxy/successor", how: "wrap" });
    expect(route(chain, rows, 0, msg({ method: "session/update", params: { u: 1 } }))).toEqual({ do: "forward", to: PEER, method: "session/update", how: "same" });
    expect(route(shape(2), rows, 0, msg({ id: 3, method: "proxy/successor", params: { method: "initialize", params: {} } }))).toMatchObject({ to: 1, method: "proxy/initialize", how: "unwrap" });
  });

  it("refuses what it cannot route, and leaves cancels and answers to the hop's books", () => {
    expect(route(chain, rows, PEER, msg({ id: 1, method: "proxy/successor", params: {} }))).toMatchObject({ do: "refuse", error: { code: -32601 } });
    expect(route(chain, rows, 0, msg({ id: 1, method: "proxy/successor", params: { params: {} } }))).toMatchObject({ do: "refuse", error: { code: -32602 } });
    expect(route(chain, rows, 1, msg({ id: 1, method: "proxy/successor", params: { method: "x" } }))).toMatchObject({ do: "refuse", error: { code: -32601, data: { reason: "component 1 is the agent: it has no successor" } } });
    expect(route(chain, rows, PEER, msg({ method: "$/cancel_request", params: { requestId: 1 } }))).toEqual({ do: "cancel" });
    expect(route(chain, rows, 1, msg({ id: 4, result: {} }))).toEqual({ do: "answer" });
  });

  it("leaves what is not a request, notification or response to the hop (answered there), and never takes it for one", () => {
    expect(readLine(JSON.stringify({ jsonrpc: "2.0", id: 0.5, method: "x" }), 128, kindOf)).toEqual({ value: { jsonrpc: "2.0", id: 0.5, method: "x" }, kind: "unidentified_request" });
    expect(readLine('{"jsonrpc":"2.0","id":4}', 128, kindOf)).toMatchObject({ kind: "unknown" });
    expect(readLine("[1]", 128, kindOf)).toMatchObject({ kind: undefined });
  });

  it("in proxy mode, reaches the outer chain from the tail and hands the outer successor's messages to the tail", () => {
    const nested = shape(0, "proxy");
    const wrapped = { method: "session/prompt", paramsText: '{"a":1}' };
    expect(route(nested, rows, 0, msg({ id: 1, method: "proxy/successor", params: { method: "session/prompt", params: { a: 1 } } }))).toEqual({ do: "forward", to: PEER, method: "proxy/successor", how: "rewrap", inner: wrapped });
    expect(route(nested, rows, PEER, msg({ method: "proxy/successor", params: { method: "session/update", params: { u: 1 } } }))).toEqual({ do: "forward", to: 0, method: "proxy/successor", how: "rewrap", inner: { method: "session/update", paramsText: '{"u":1}' } });
  });
});

describe("a message that goes on with another id", () => {
  it("leaves as its own line with the id spliced in, wherever the id lies", () => {
    const m = inbound('{"jsonrpc":"2.0","id":"7","method":"session/prompt","params":{"prompt":[{"type":"text","text":"x"}]}}');
    expect(withId(m, 12)).toBe('{"jsonrpc":"2.0","id":12,"method":"session/prompt","params":{"prompt":[{"type":"text","text":"x"}]}}');
    expect(withId(inbound('{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}'), "a")).toBe('{"jsonrpc":"2.0","id":"a","result":{"stopReason":"end_turn"}}');
    expect(withId(inbound('{"id":7,"jsonrpc":"2.0","method":"m"}'), 1)).toBe('{"id":1,"jsonrpc":"2.0","method":"m"}');
    expect(withId(inbound('{"result":{"id":5},"jsonrpc":"2.0","id":9}'), 2)).toBe('{"result":{"id":5},"jsonrpc":"2.0","id":2}');
  });

  it("is passed on as it came when it is a notification going on unchanged", () => {
    const n = inbound('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s"}}');
    expect(withId(n, undefined)).toBe(n.line);
  });

  it("is held, with what follows it, until a rewritten line is ready", async () => {
    const sent: string[] = [];
    const relay = createRelay();
    const hop = relay.link("agent", (t) => void sent.push(t));
    let ready: (line: string) => void = () => {};
    relay.hold(hop, new Promise<string>((resolve) => (ready = resolve)));
    relay.send(hop, "after");
    expect(sent).toEqual([]);
    ready("first");
    await new Promise((r) => setTimeout(r, 0));
    expect(sent).toEqual(["first", "after"]);
  });
});

describe("what a router writes to one hop", () => {
  it("is handed to the stream each time FORWARD_BYTES more were written (Transport.flush), the rest with the turn's writes", async () => {
    const { FORWARD_BYTES, lineWriter } = await import("../../src/proxy/hop.ts");
    const events: string[] = [];
    const write = lineWriter({ start: () => {}, write: (text) => void events.push(text), flush: () => void events.push("flush"), close: () => {} });
    // Lines of 1023 characters and their newline: 16 of them make FORWARD_BYTES.
    const perFlush = FORWARD_BYTES / 1024;
    const line = (i: number) => `${i}`.padEnd(1023, "x");
    for (let i = 0; i < 2 * perFlush + 3; i++) write(line(i));
    expect(events.filter((e) => e === "flush")).toHaveLength(2);
    expect(events.indexOf("flush")).toBe(perFlush);
    expect(events.filter((e) => e !== "flush")).toEqual(Array.from({ length: 2 * perFlush + 3 }, (_, i) => `${line(i)}\n`));
    // A transport without flush is written to all the same.
    const plain: string[] = [];
    const writePlain = lineWriter({ start: () => {}, write: (text) => void plain.push(text), close: () => {} });
    for (let i = 0; i < perFlush + 1; i++) writePlain(line(i));
    expect(plain).toHaveLength(perFlush + 1);
  });
});
