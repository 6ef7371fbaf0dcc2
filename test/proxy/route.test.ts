// The conductor's parts that need no process: what it routes by (read off the rows), where each
// message goes (a pure function), and how a message leaves when only its id changes (spliced).
import { describe, expect, it } from "vitest";
import { classify } from "../../src/jsonrpc/classify.ts";
import { chainRows } from "../../src/proxy/chain-rows.ts";
import { protocol as proxy } from "../../src/proxy/generated/protocol.ts";
import { answerLine, makeHop, notificationLine, requestLine, splicedId, type Inbound } from "../../src/proxy/hop.ts";
import { PEER, route, type ChainShape } from "../../src/proxy/route.ts";
import { protocol as unstable } from "../../src/unstable/generated/protocol.ts";

const rows = chainRows(proxy, unstable);
const inbound = (line: string): Inbound => {
  const body = JSON.parse(line) as Record<string, unknown>;
  return { body, kind: classify(body), line };
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
    expect(route(chain, rows, PEER, msg({ id: 1, method: "session/prompt", params: { sessionId: "s" } }))).toEqual({ do: "forward", to: 0, method: "session/prompt", params: { sessionId: "s" }, same: true });
    expect(route(chain, rows, PEER, msg({ id: 1, method: "initialize", params: {} }))).toMatchObject({ do: "forward", to: 0, method: "proxy/initialize", same: false });
    expect(route(shape(0), rows, PEER, msg({ id: 1, method: "initialize", params: {} }))).toMatchObject({ to: 0, method: "initialize", same: true });
  });

  it("unwraps a proxy's envelope for its successor, and wraps what a component sends back", () => {
    expect(route(chain, rows, 0, msg({ id: 3, method: "proxy/successor", params: { method: "session/prompt", params: { a: 1 }, _meta: { hop: true } } }))).toEqual({ do: "forward", to: 1, method: "session/prompt", params: { a: 1 }, same: false });
    expect(route(chain, rows, 1, msg({ method: "session/update", params: { u: 1 } }))).toEqual({ do: "forward", to: 0, method: "proxy/successor", params: { method: "session/update", params: { u: 1 } }, same: false });
    expect(route(chain, rows, 0, msg({ method: "session/update", params: { u: 1 } }))).toEqual({ do: "forward", to: PEER, method: "session/update", params: { u: 1 }, same: true });
  });

  it("refuses what it cannot route, and leaves cancels and answers to the hop's books", () => {
    expect(route(chain, rows, PEER, msg({ id: 1, method: "proxy/successor", params: {} }))).toMatchObject({ do: "refuse", error: { code: -32601 } });
    expect(route(chain, rows, 0, msg({ id: 1, method: "proxy/successor", params: { params: {} } }))).toMatchObject({ do: "refuse", error: { code: -32602 } });
    expect(route(chain, rows, 1, msg({ id: 1, method: "proxy/successor", params: { method: "x" } }))).toMatchObject({ do: "refuse", error: { code: -32601, data: { reason: "component 1 is the agent: it has no successor" } } });
    expect(route(chain, rows, PEER, msg({ id: 0.5, method: "x" }))).toMatchObject({ do: "refuse", anonymous: true, error: { code: -32600 } });
    expect(route(chain, rows, PEER, msg({ method: "$/cancel_request", params: { requestId: 1 } }))).toEqual({ do: "cancel" });
    expect(route(chain, rows, 1, msg({ id: 4, result: {} }))).toEqual({ do: "answer" });
    expect(route(chain, rows, 1, msg({ id: 4 }))).toMatchObject({ do: "refuse", anonymous: true });
  });

  it("in proxy mode, reaches the outer chain from the tail and hands the outer successor's messages to the tail", () => {
    const nested = shape(0, "proxy");
    expect(route(nested, rows, 0, msg({ id: 1, method: "proxy/successor", params: { method: "session/prompt", params: { a: 1 } } }))).toEqual({ do: "forward", to: PEER, method: "proxy/successor", params: { method: "session/prompt", params: { a: 1 } }, same: false });
    expect(route(nested, rows, PEER, msg({ method: "proxy/successor", params: { method: "session/update", params: { u: 1 } } }))).toEqual({ do: "forward", to: 0, method: "proxy/successor", params: { method: "session/update", params: { u: 1 } }, same: false });
  });
});

describe("a message that goes on with another id", () => {
  it("leaves as its own line with the id spliced in", () => {
    const m = inbound('{"jsonrpc":"2.0","id":"7","method":"session/prompt","params":{"prompt":[{"type":"text","text":"x"}]}}');
    expect(splicedId(m, 12)).toBe('{"jsonrpc":"2.0","id":12,"method":"session/prompt","params":{"prompt":[{"type":"text","text":"x"}]}}');
    expect(requestLine(12, "session/prompt", m.body.params, m)).toBe(splicedId(m, 12));
    expect(answerLine("a", inbound('{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}'))).toBe('{"jsonrpc":"2.0","id":"a","result":{"stopReason":"end_turn"}}');
  });

  it("is encoded anew when the line starts otherwise or names another id after its own", () => {
    const reordered = inbound('{"id":7,"jsonrpc":"2.0","method":"m"}');
    expect(splicedId(reordered, 1)).toBeUndefined();
    expect(JSON.parse(requestLine(1, "m", undefined, reordered))).toEqual({ jsonrpc: "2.0", id: 1, method: "m" });
    const repeated = inbound('{"jsonrpc":"2.0","id":7,"method":"m","id":7}');
    expect(splicedId(repeated, 1)).toBeUndefined();
    const prefixOfAnother = inbound('{"jsonrpc":"2.0","id":70,"method":"m"}');
    expect(JSON.parse(splicedId(prefixOfAnother, 1) as string)).toEqual({ jsonrpc: "2.0", id: 1, method: "m" });
    expect(JSON.parse(answerLine(2, inbound('{"result":{},"jsonrpc":"2.0","id":9}')))).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
  });

  it("is passed on as it came when it is a notification going on unchanged", () => {
    const n = inbound('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s"}}');
    expect(notificationLine("session/update", n.body.params, n)).toBe(n.line);
    expect(JSON.parse(notificationLine("session/update", n.body.params, inbound('{"method":"session/update","params":{"sessionId":"s"}}')))).toEqual(n.body);
  });

  it("is held, with what follows it, until a rewritten line is ready", async () => {
    const sent: string[] = [];
    const hop = makeHop(1, "agent", (t) => void sent.push(t));
    let ready: (line: string) => void = () => {};
    const { holdUntil } = await import("../../src/proxy/hop.ts");
    holdUntil(hop, new Promise<string>((resolve) => (ready = resolve)));
    hop.send("after");
    expect(sent).toEqual([]);
    ready("first");
    await new Promise((r) => setTimeout(r, 0));
    expect(sent).toEqual(["first\n", "after\n"]);
  });
});
