// Conformance: the v2 rows added for every keyword sentence of the stable v2 pages and schema
// (docs/conformance-v2.md) that acp-router's v2 connection itself honours. Test names carry the ids.
import { describe, expect, it } from "vitest";
import { connectAgent, connectClient, type AgentHandler, type ClientHandler } from "../../src/v2/index.ts";
import { rawDriver } from "../support/raw-peer.ts";

const info = { name: "conformance", version: "1" };
const init = { protocolVersion: 2, info, capabilities: {} };
const note = (method: string, params: object = {}) => ({ jsonrpc: "2.0", method, params });
const client: ClientHandler = { requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} };

/** A raw driver around a v2 client connection, initialized against an agent advertising `capabilities`. */
async function clientDriver(capabilities: object) {
  const d = rawDriver((t, o) => connectClient(client, t, o));
  const initialize = d.conn.agent.initialize(init);
  const sent = await d.next();
  d.send({ jsonrpc: "2.0", id: sent.id, result: { protocolVersion: 2, info, capabilities } });
  await initialize;
  return d;
}

describe("v2 rows the connection honours", () => {
  it("[ACP-JSONRPC-311] matches the responses of a batch answer to its requests by id, whatever their order in the array", async () => {
    const d = await clientDriver({ session: {} });
    const first = d.conn.request("_x/first", { n: 1 });
    const second = d.conn.request("_x/second", { n: 2 });
    const [a, b] = [await d.next(), await d.next()];
    d.send([
      { jsonrpc: "2.0", id: b.id, result: { answered: "second" } },
      { jsonrpc: "2.0", id: a.id, result: { answered: "first" } },
    ]);
    expect(await Promise.all([first, second])).toEqual([{ answered: "first" }, { answered: "second" }]);
  });

  it("[ACP-DELETE-301] refuses session/delete locally, unsent, when the agent's session.delete was not advertised", async () => {
    const d = await clientDriver({ session: {} });
    await expect(d.conn.agent.deleteSession({ sessionId: "s1" })).rejects.toMatchObject({ code: -32601 });
    expect(await d.sync()).toEqual([]);
  });

  it("[ACP-CANCEL-310] sends $/cancel_request for the agent's own pending request of a session when session/cancel arrives", async () => {
    const handler: AgentHandler = {
      initialize: () => ({ protocolVersion: 2, info, capabilities: { session: {} } }),
      newSession: () => ({ sessionId: "s1" }),
      prompt: (p, ctx) => {
        void ctx.peer.requestPermission({ sessionId: p.sessionId, title: "Run it?", options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }] }).catch(() => undefined);
        return { messageId: "m1" };
      },
    };
    const d = rawDriver((t, o) => connectAgent(handler, t, o));
    d.send({ jsonrpc: "2.0", id: "init", method: "initialize", params: init });
    await d.next();
    d.send({ jsonrpc: "2.0", id: 1, method: "session/prompt", params: { sessionId: "s1", prompt: [{ type: "text", text: "hi" }] } });
    const lines = [await d.next(), await d.next()];
    const permission = lines.find((l) => l.method === "session/request_permission");
    expect(permission).toBeDefined();
    d.send(note("session/cancel", { sessionId: "s1" }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: permission?.id } });
  });
});
