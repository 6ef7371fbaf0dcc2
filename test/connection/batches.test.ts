// DESIGN §4.2 with batches: "accept": the batch examples of JSON-RPC 2.0 §7
// (https://www.jsonrpc.org/specification#examples), adapted to ACP: methods are
// `_`-prefixed extension methods handled by extMethod/extNotification, params are objects.
import { describe, expect, it } from "vitest";
import type { AgentHandler } from "../../src/index.ts";
import { delay } from "../support/async.ts";
import { testAgent } from "../support/handlers.ts";
import { rawAgent, type WireLine } from "../support/raw-peer.ts";

/** `_sum`, `_subtract` (answers after a delay, so answers finish out of order) and `_get_data`. */
const arithmetic: Partial<AgentHandler> = {
  async extMethod(method, p) {
    const values = (p.values ?? []) as number[];
    switch (method) {
      case "_sum":
        return { value: values.reduce((a, b) => a + b, 0) };
      case "_subtract":
        await delay(5);
        return { value: (values[0] ?? 0) - (values[1] ?? 0) };
      case "_get_data":
        return { value: ["hello", 5] };
      default:
        throw new Error(`unexpected ${method}`);
    }
  },
};

async function acceptingAgent() {
  const agent = testAgent(arithmetic);
  const d = rawAgent(agent.handler, { connection: { batches: "accept" } });
  await d.initialize();
  agent.calls.length = 0;
  return { agent, d };
}

/** A batch answer reduced to comparable entries (id, result or error code), sorted by id. */
function bySet(answers: readonly WireLine[]): { id: unknown; result?: unknown; code?: number }[] {
  const entries = answers.map((a) => (a.error !== undefined ? { id: a.id, code: a.error.code } : { id: a.id, result: a.result }));
  return entries.sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
}

describe('batches: "accept" reproduces the JSON-RPC 2.0 §7 batch examples', () => {
  it("answers the rpc call batch in one array: results, -32600 id null for the invalid element, -32601 for the unknown method, nothing for the notification", async () => {
    const { agent, d } = await acceptingAgent();
    d.send([
      { jsonrpc: "2.0", method: "_sum", params: { values: [1, 2, 4] }, id: "1" },
      { jsonrpc: "2.0", method: "_notify_hello", params: { values: [7] } },
      { jsonrpc: "2.0", method: "_subtract", params: { values: [42, 23] }, id: "2" },
      { foo: "boo" },
      { jsonrpc: "2.0", method: "foo.get", params: { name: "myself" }, id: "5" },
      { jsonrpc: "2.0", method: "_get_data", id: "9" },
    ]);
    const answers = await d.nextBatch();
    expect(answers).toHaveLength(5);
    expect(answers.every((a) => a.jsonrpc === "2.0")).toBe(true);
    expect(bySet(answers)).toEqual(
      bySet([
        { id: "1", result: { value: 7 } },
        { id: "2", result: { value: 19 } },
        { id: null, error: { code: -32600, message: "" } },
        { id: "5", error: { code: -32601, message: "" } },
        { id: "9", result: { value: ["hello", 5] } },
      ]),
    );
    expect(agent.calls.sort()).toEqual(["extMethod:_get_data", "extMethod:_subtract", "extMethod:_sum", "extNotification:_notify_hello"]);
    expect(await d.sync()).toEqual([]);
  });

  it("answers the invalid batch [1] with an array of one -32600, id null", async () => {
    const { d } = await acceptingAgent();
    d.send("[1]");
    const answers = await d.nextBatch();
    expect(answers).toMatchObject([{ jsonrpc: "2.0", id: null, error: { code: -32600 } }]);
  });

  it("answers the invalid batch [1,2,3] with an array of three -32600, id null", async () => {
    const { d } = await acceptingAgent();
    d.send("[1,2,3]");
    const answers = await d.nextBatch();
    expect(answers).toHaveLength(3);
    for (const a of answers) expect(a).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
  });

  it("writes nothing for an all-notification batch, and still runs the notifications", async () => {
    const { agent, d } = await acceptingAgent();
    d.send([
      { jsonrpc: "2.0", method: "_notify_sum", params: { values: [1, 2, 4] } },
      { jsonrpc: "2.0", method: "_notify_hello", params: { values: [7] } },
    ]);
    expect(await d.sync()).toEqual([]);
    expect(agent.calls).toEqual(["extNotification:_notify_sum", "extNotification:_notify_hello"]);
  });

  it("answers the empty array with a single -32600, id null, not an array", async () => {
    const { d } = await acceptingAgent();
    d.send("[]");
    const [answer, ...rest] = await d.sync();
    expect(rest).toEqual([]);
    expect(Array.isArray(answer)).toBe(false);
    expect(answer).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
  });

  it("answers a batch that is invalid JSON with a single -32700, id null", async () => {
    const { agent, d } = await acceptingAgent();
    d.send('[{"jsonrpc":"2.0","method":"_sum","params":{"values":[1,2,4]},"id":"1"},{"jsonrpc":"2.0","method"');
    expect(await d.sync()).toMatchObject([{ jsonrpc: "2.0", id: null, error: { code: -32700 } }]);
    expect(agent.calls).toEqual([]);
  });

  it("answers the single rpc calls of §7 outside a batch as plain objects", async () => {
    const { d } = await acceptingAgent();
    d.send({ jsonrpc: "2.0", method: "_subtract", params: { values: [42, 23] }, id: 1 });
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { value: 19 } });
  });

  it('rejects the same rpc call batch as a whole under the default batches: "reject", running nothing', async () => {
    const agent = testAgent(arithmetic);
    const d = rawAgent(agent.handler);
    await d.initialize();
    agent.calls.length = 0;
    d.send([
      { jsonrpc: "2.0", method: "_sum", params: { values: [1, 2, 4] }, id: "1" },
      { jsonrpc: "2.0", method: "_notify_hello", params: { values: [7] } },
    ]);
    expect(await d.sync()).toMatchObject([{ id: null, error: { code: -32600 } }]);
    expect(agent.calls).toEqual([]);
  });
});
