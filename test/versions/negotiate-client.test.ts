// The client connector: offers v2, keeps it when the agent answers v2, falls back to v1 on the same
// transport when the agent answers v1, and reconnects when v1 cannot follow on that transport.
import { describe, expect, it } from "vitest";
import { connectAgent, ConnectionClosedError, memoryPair, protocol as v1Protocol, RpcError, type AgentHandler, type Transport } from "../../src/index.ts";
import * as v2 from "../../src/v2/index.ts";
import { negotiateClient, routeAgent, type NegotiateClientOptions } from "../../src/versions/index.ts";
import { testAgent, testClient } from "../support/handlers.ts";

const info = { name: "test-client", version: "1" };
const v1Init = { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: false } } } as const;
const v2Init = { protocolVersion: 2, info, capabilities: {} } as const;

function v2Agent(): v2.AgentHandler {
  return {
    initialize: () => ({ protocolVersion: 2, info: { name: "v2-agent", version: "1" }, capabilities: { session: {} } }),
    newSession: () => ({ sessionId: "v2-session" }),
    prompt: () => ({ messageId: "m1" }),
  };
}
const v2Client: v2.ClientHandler = { requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} };

/** Both versions configured, connecting with our generated clients. */
const both = {
  v1: { protocol: v1Protocol, handler: testClient().handler, initialize: v1Init },
  v2: { protocol: v2.protocol, handler: v2Client, initialize: v2Init },
};

/** A client transport to an agent served by `serve` on the other end of a memory pair. */
function agentBy(serve: (t: Transport) => unknown): Transport {
  const [agentSide, clientSide] = memoryPair();
  serve(agentSide);
  return clientSide;
}

/** A reconnect factory that counts its calls. */
function reconnectTo(serve: (t: Transport) => unknown): NegotiateClientOptions & { readonly calls: () => number } {
  let calls = 0;
  return { reconnect: () => (calls++, agentBy(serve)), calls: () => calls };
}

describe("negotiateClient against agents of either version", () => {
  it("keeps v2 with an agent routing v1 and v2, and hands back the v2 proxy", async () => {
    const transport = agentBy((t) => routeAgent(t, { v1: { protocol: v1Protocol, handler: testAgent().handler }, v2: { protocol: v2.protocol, handler: v2Agent() } }));
    const negotiated = await negotiateClient(transport, both);
    expect(negotiated.version).toBe(2);
    if (negotiated.version !== 2) return;
    expect(negotiated.initialized).toMatchObject({ protocolVersion: 2, info: { name: "v2-agent" } });
    expect(await negotiated.agent.newSession({ cwd: "/w" })).toEqual({ sessionId: "v2-session" });
    negotiated.connection.close();
  });

  it("keeps v2 with a v2-only agent", async () => {
    const negotiated = await negotiateClient(
      agentBy((t) => v2.connectAgent(v2Agent(), t)),
      both,
    );
    expect(negotiated.version).toBe(2);
    negotiated.connection.close();
  });

  it("falls back to v1 on the same transport when a v1 agent answers protocolVersion 1, re-initializing with the v1 params", async () => {
    const seen: unknown[] = [];
    const agent = testAgent({ initialize: (p) => (seen.push(p.protocolVersion), { protocolVersion: 1, agentCapabilities: { loadSession: true } }) });
    let agentConn: ReturnType<typeof connectAgent> | undefined;
    const reconnect = reconnectTo(() => {});
    const negotiated = await negotiateClient(
      agentBy((t) => (agentConn = connectAgent(agent.handler, t))),
      both,
      reconnect,
    );
    expect(negotiated.version).toBe(1);
    if (negotiated.version !== 1) return;
    expect(negotiated.initialized).toEqual({ protocolVersion: 1, agentCapabilities: { loadSession: true } });
    expect(seen).toEqual([2, 1]);
    expect(agentConn?.clientCapabilities).toEqual(v1Init.clientCapabilities);
    expect(reconnect.calls()).toBe(0);
    expect(await negotiated.agent.newSession({ cwd: "/w", mcpServers: [] })).toEqual({ sessionId: "sess-1" });
    negotiated.connection.close();
  });

  it("closes the connection with a clear error when the agent answers a version above 2, one it cannot speak", async () => {
    const agent: v2.AgentHandler = { ...v2Agent(), initialize: () => ({ protocolVersion: 3, info: { name: "v3-agent", version: "1" }, capabilities: { session: {} } }) };
    let agentConn: ReturnType<typeof v2.connectAgent> | undefined;
    const transport = agentBy((t) => (agentConn = v2.connectAgent(agent, t)));
    await expect(negotiateClient(transport, both)).rejects.toThrow("the agent answered protocol version 3; this client speaks 1 and 2 only, so it closed the connection");
    await agentConn?.closed;
    const { v1: _v1, ...v2Only } = both;
    await expect(
      negotiateClient(
        agentBy((t) => v2.connectAgent(agent, t)),
        v2Only,
      ),
    ).rejects.toThrow("the agent answered protocol version 3; this client speaks 2 only, so it closed the connection");
  });

  it("falls back to v1 behind a v1-only version router, which rewrote the v2 offer", async () => {
    const negotiated = await negotiateClient(
      agentBy((t) => routeAgent(t, { v1: { protocol: v1Protocol, handler: testAgent().handler } })),
      both,
    );
    expect(negotiated.version).toBe(1);
    if (negotiated.version === 1) expect(await negotiated.agent.newSession({ cwd: "/w", mcpServers: [] })).toEqual({ sessionId: "sess-1" });
    negotiated.connection.close();
  });

  it("initializes v1 directly when only v1 is configured", async () => {
    const seen: unknown[] = [];
    const agent = testAgent({ initialize: (p) => (seen.push(p.protocolVersion), { protocolVersion: 1, agentCapabilities: {} }) });
    const negotiated = await negotiateClient(
      agentBy((t) => connectAgent(agent.handler, t)),
      { v1: both.v1 },
    );
    expect(negotiated.version).toBe(1);
    expect(seen).toEqual([1]);
    negotiated.connection.close();
  });
});

describe("negotiateClient when v1 cannot follow on the same transport", () => {
  /** A v1 agent that answers its first initialize and refuses any repeat with -32600. */
  const once = (t: Transport) => {
    let count = 0;
    const handler: AgentHandler = testAgent({
      initialize: () => {
        if (count++ > 0) throw RpcError.invalidRequest("initialize may not be repeated");
        return { protocolVersion: 1, agentCapabilities: {} };
      },
    }).handler;
    connectAgent(handler, t);
  };

  it("reconnects through the factory when the agent refuses the repeated v1 initialize", async () => {
    const reconnect = reconnectTo(once);
    const negotiated = await negotiateClient(agentBy(once), both, reconnect);
    expect(negotiated.version).toBe(1);
    expect(reconnect.calls()).toBe(1);
    if (negotiated.version === 1) expect(await negotiated.agent.newSession({ cwd: "/w", mcpServers: [] })).toEqual({ sessionId: "sess-1" });
    negotiated.connection.close();
  });

  it("rejects with the agent's refusal when there is no factory", async () => {
    await expect(negotiateClient(agentBy(once), both)).rejects.toMatchObject({ code: -32600 });
  });

  /** An agent that closes the transport on the first line it reads. */
  const leaves = (t: Transport) => t.start({ data: () => t.close(), end: () => {} });

  it("reconnects when the agent closed the transport on the v2 offer", async () => {
    const reconnect = reconnectTo((t) => connectAgent(testAgent().handler, t));
    const negotiated = await negotiateClient(agentBy(leaves), both, reconnect);
    expect(negotiated.version).toBe(1);
    expect(reconnect.calls()).toBe(1);
    negotiated.connection.close();
  });

  it("rejects with ConnectionClosedError when the agent left and there is no factory", async () => {
    await expect(negotiateClient(agentBy(leaves), both)).rejects.toBeInstanceOf(ConnectionClosedError);
  });
});

describe("negotiateClient with one version the agent does not speak", () => {
  it("rejects a v2-only client of a v1 agent naming the version the agent answered", async () => {
    const [agentSide, clientSide] = memoryPair();
    const agentConn = connectAgent(testAgent().handler, agentSide);
    await expect(negotiateClient(clientSide, { v2: both.v2 })).rejects.toThrow("the agent answered protocol version 1; this client offers 2 only");
    expect((await agentConn.closed).reason).toBeDefined();
  });

  it("rejects a v1-only client of a v2-only router with its -32022 answer", async () => {
    const transport = agentBy((t) => routeAgent(t, { v2: { protocol: v2.protocol, handler: v2Agent() } }));
    await expect(negotiateClient(transport, { v1: both.v1 })).rejects.toMatchObject({ code: -32022, data: { requested: 1, supported: [2] } });
  });
});
