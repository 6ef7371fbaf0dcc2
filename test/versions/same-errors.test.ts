// One error vocabulary: the same bad input gets byte-for-byte the same error answer from a plain
// connection and from that connection behind routeAgent, for v1 and for v2, before and after
// initialize. Both sides are driven through bytes (memoryPair) and compared as raw text.
import { describe, expect, it } from "vitest";
import * as v1 from "../../src/index.ts";
import * as v2 from "../../src/v2/index.ts";
import type { Transport } from "../../src/transport/transport.ts";
import { routeAgent } from "../../src/versions/route-agent.ts";

/** Small limits, so "too long" and "too deep" lines stay small. */
const limits = { maxMessageBytes: 2048, maxDepth: 16 };
const info = { name: "test", version: "1" };

const v1Agent: v1.AgentHandler = {
  initialize: () => ({ protocolVersion: 1, agentCapabilities: {} }),
  newSession: () => ({ sessionId: "s1" }),
  prompt: () => ({ stopReason: "end_turn" }),
  authenticate: () => ({}),
};
const v2Agent: v2.AgentHandler = {
  initialize: () => ({ protocolVersion: 2, info, capabilities: { session: {} } }),
  newSession: () => ({ sessionId: "s1" }),
  prompt: () => ({ messageId: "m1" }),
};

type Version = 1 | 2;
/** How the agent end is served: a plain connection, or that connection behind routeAgent with the given versions configured. */
type Serve = { readonly routed: false; readonly options?: v1.ConnectionOptions } | { readonly routed: true; readonly versions: readonly Version[]; readonly options?: v1.ConnectionOptions };

function serve(version: Version, how: Serve, transport: Transport): void {
  const options = { ...limits, ...how.options };
  if (!how.routed) return void (version === 1 ? v1.connectAgent(v1Agent, transport, options) : v2.connectAgent(v2Agent, transport, options));
  // One options object: the router's bounds and the connection's are the same by construction.
  const routes = { v1: { protocol: v1.protocol, handler: v1Agent }, v2: { protocol: v2.protocol, handler: v2Agent } };
  void routeAgent(transport, how.versions.length > 1 ? routes : version === 1 ? { v1: routes.v1 } : { v2: routes.v2 }, options);
}

const request = (id: unknown, method: string, params?: unknown) => JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
const initialize = (version: Version) => request(0, "initialize", version === 1 ? { protocolVersion: 1, clientCapabilities: {} } : { protocolVersion: 2, info, capabilities: {} });
/** A request every state answers at once with an error: the end of one case's output. */
const sentinel = request("end", "_probe/nothing");

/**
 * Writes `setup` then `input` (each line its own write, as a client would) and the sentinel,
 * and returns every byte the agent wrote after `setup` was answered, up to the sentinel's answer.
 */
async function exchange(version: Version, how: Serve, setup: readonly string[], input: readonly string[], chunkBytes?: number): Promise<string> {
  const [agentEnd, clientEnd] = v1.memoryPair(chunkBytes === undefined ? {} : { chunkBytes });
  let text = "";
  let wake: () => void = () => {};
  const decoder = new TextDecoder();
  clientEnd.start({ data: (c) => ((text += typeof c === "string" ? c : decoder.decode(c, { stream: true })), wake()), end: () => wake() });
  serve(version, how, agentEnd);
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise<void>((r) => (wake = r));
  };
  for (const line of setup) {
    const before = text.split("\n").length;
    clientEnd.write(`${line}\n`);
    await until(() => text.split("\n").length > before);
  }
  const from = text.length;
  for (const line of input) clientEnd.write(`${line}\n`);
  clientEnd.write(`${sentinel}\n`);
  await until(() => text.includes('"id":"end"'));
  clientEnd.close();
  return text.slice(from);
}

const clientFields = (version: Version) => (version === 1 ? { clientCapabilities: {} } : { info, capabilities: {} });
const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
const newSession = (version: Version) => (version === 1 ? { cwd: "/w", mcpServers: [] } : { cwd: "/w" });

/** Each bad input: its name, whether it is sent after initialize, and its lines for a version. */
const cases: readonly [string, "before" | "after", (v: Version) => string[]][] = [
  ["invalid JSON", "before", () => ["{not json"]],
  ["invalid JSON", "after", () => ['{"jsonrpc":"2.0","id":1,']],
  ["a line nested too deep", "before", () => [deep(40)]],
  ["a line nested too deep", "after", () => [`{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":${deep(40)}}}`]],
  ["a line over maxMessageBytes", "before", () => [request(1, "initialize", { pad: "x".repeat(3000) })]],
  ["a line over maxMessageBytes", "after", () => [request(1, "session/new", { pad: "x".repeat(3000) })]],
  ["a request before initialize", "before", (v) => [request(1, "session/new", newSession(v))]],
  ["an unknown method before initialize", "before", () => [request(1, "no/such_method", {})]],
  ["a null id", "before", () => [request(null, "initialize", { protocolVersion: 1 })]],
  ["a fractional id", "before", () => [request(1.5, "session/new", {})]],
  ["an object id", "after", () => [request({ n: 1 }, "session/new", {})]],
  ['jsonrpc "1.0"', "before", () => [JSON.stringify({ jsonrpc: "1.0", id: 1, method: "initialize", params: { protocolVersion: 1 } })]],
  ['jsonrpc "1.0"', "after", () => [JSON.stringify({ jsonrpc: "1.0", id: 1, method: "session/new", params: {} })]],
  ["params an array", "before", () => [request(1, "initialize", [1])]],
  ["params an array", "after", (v) => [request(1, "session/new", [newSession(v)])]],
  ["not a JSON-RPC message", "before", () => ["{}", "42"]],
  ["a notification and a response (never answered)", "before", () => [JSON.stringify({ jsonrpc: "2.0", method: "session/cancel", params: {} }), JSON.stringify({ jsonrpc: "2.0", id: 9, result: {} })]],
  ["an unknown method", "after", () => [request(1, "no/such_method", {})]],
  ["a method gated by a capability not advertised", "after", (v) => [v === 1 ? request(1, "session/load", { sessionId: "s", cwd: "/w", mcpServers: [] }) : request(1, "session/delete", { sessionId: "s" })]],
  ["bad params", "after", () => [request(1, "session/new", { cwd: 5 })]],
  // v1's initialize repairs everything but its protocolVersion; v2's requires info.
  ["bad initialize params", "before", (v) => [request(1, "initialize", v === 1 ? { protocolVersion: "1", clientCapabilities: {} } : { protocolVersion: 2, capabilities: {} })]],
  ["a protocolVersion that is a string", "before", (v) => [request(1, "initialize", { protocolVersion: String(v), ...clientFields(v) })]],
  ["a protocolVersion beyond 65535", "before", (v) => [request(1, "initialize", { protocolVersion: 70000, ...clientFields(v) })]],
  ["a negative protocolVersion", "before", (v) => [request(1, "initialize", { protocolVersion: -1, ...clientFields(v) })]],
  ["no protocolVersion", "before", (v) => [request(1, "initialize", clientFields(v))]],
  ["an empty batch", "before", () => ["[]"]],
  ["an empty batch", "after", () => ["[]"]],
  ["a batch", "after", (v) => [`[${request(1, "session/new", newSession(v))},${request(2, "no/such_method", {})}]`]],
];

/** A case whose answer is, by design, not the v2 connection's before initialize when v1 and v2 are routed and no `batches` option says how (see routeAgent's doc). */
const v2BatchBeforeInitialize: readonly [string, "before", (v: Version) => string[]][] = [["a batch", "before", (v) => [`[${request(1, "session/new", newSession(v))}]`]]];

type Answer = { id: unknown; error?: { code: number; data?: unknown } };

const serves: readonly [string, Version, Serve][] = [
  ["v1 alone", 1, { routed: true, versions: [1] }],
  ["v1 of v1 and v2", 1, { routed: true, versions: [1, 2] }],
  ["v2 alone", 2, { routed: true, versions: [2] }],
  ["v2 of v1 and v2", 2, { routed: true, versions: [1, 2] }],
];

describe("the same bad input gets the same bytes with and without routeAgent", () => {
  for (const [label, version, how] of serves) {
    it.each(cases)(`${label}: %s (%s initialize)`, async (_name, when, lines) => {
      const setup = when === "after" ? [initialize(version)] : [];
      const plain = await exchange(version, { routed: false }, setup, lines(version));
      const routed = await exchange(version, how, setup, lines(version));
      expect(routed).toBe(plain);
      // Every case is answered with an error or (notifications, responses) not at all, and the sentinel last.
      const answers = plain
        .trimEnd()
        .split("\n")
        .flatMap((l) => JSON.parse(l) as Answer | Answer[]);
      expect(answers.at(-1)?.id).toBe("end");
      for (const a of answers) {
        expect(Number.isInteger(a.error?.code)).toBe(true);
        if (a.error?.data !== undefined) expect(typeof a.error.data === "object" && a.error.data !== null && !Array.isArray(a.error.data)).toBe(true);
      }
    });
  }

  it.each([1, 2] as const)("v%s: gives the same bytes when every delivery is cut into 5-byte chunks", async (version) => {
    // Lines cut mid-character too: the router decodes the stream itself and hands the rest on as text.
    const lines = [request(1, "session/new", { cwd: "/é€😀" }), "{not json", initialize(version), request(2, "no/such_method", { s: "é€😀" }), request(3, "session/new", { cwd: 5 })];
    const plain = await exchange(version, { routed: false }, [], lines, 5);
    expect(await exchange(version, { routed: true, versions: [1, 2] }, [], lines, 5)).toBe(plain);
    expect(
      plain
        .trimEnd()
        .split("\n")
        .map((l) => (JSON.parse(l) as { id: unknown }).id),
    ).toEqual([1, null, 0, 2, 3, "end"]);
  });

  it("v2: an initialize with an unusable protocolVersion is answered by the router, which lists only /protocolVersion", async () => {
    // No version is chosen, so no table judges the rest of the params; the v2 connection would also list the missing info.
    const lines = [request(1, "initialize", { protocolVersion: "2" })];
    const routed = await exchange(2, { routed: true, versions: [2] }, [], lines);
    expect(routed.split("\n")[0]).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params","data":{"errors":[{"path":"/protocolVersion","message":"must be integer"}]}}}');
    expect((await exchange(2, { routed: false }, [], lines)).split("\n")[0]).toContain('{"path":"/info","message":"is required"}');
  });

  // A batch before initialize with a request, an initialize (unbatched in v2), a notification, an unknown method and a bad element.
  const batchBeforeInitialize = (v: Version) => [`[${request(1, "session/new", newSession(v))},${initialize(v).replace('"id":0', '"id":7')},${JSON.stringify({ jsonrpc: "2.0", method: "session/cancel", params: {} })},${request(2, "no/such_method", {})},42,[]]`];

  it("v2 alone: a batch before initialize gets the v2 connection's bytes, element by element (every table routed accepts batches)", async () => {
    const lines = batchBeforeInitialize(2);
    const plain = await exchange(2, { routed: false }, [], lines);
    expect(await exchange(2, { routed: true, versions: [2] }, [], lines)).toBe(plain);
    const answers = JSON.parse(plain.split("\n")[0] as string) as Answer[];
    expect(answers.map((a) => [a.id, a.error?.code])).toEqual([
      [1, -32600],
      [7, -32600],
      [2, -32600],
      [null, -32600],
      [null, -32600],
    ]);
  });

  it.each([["reject"], ["accept"]] as const)("v1 and v2 routed, batches %s in the one options object: the v2 connection's bytes", async (batches) => {
    const lines = batchBeforeInitialize(2);
    const plain = await exchange(2, { routed: false, options: { batches } }, [], lines);
    expect(await exchange(2, { routed: true, versions: [1, 2], options: { batches } }, [], lines)).toBe(plain);
  });

  it("v1: a batch before initialize is one -32600, with and without the router", async () => {
    const lines = (v2BatchBeforeInitialize[0] as (typeof v2BatchBeforeInitialize)[number])[2];
    const plain = await exchange(1, { routed: false }, [], lines(1));
    expect(await exchange(1, { routed: true, versions: [1] }, [], lines(1))).toBe(plain);
    expect(plain.split("\n")[0]).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: batches are not supported"}}');
  });
});
