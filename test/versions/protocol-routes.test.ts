// routeAgent and negotiateClient take the generated `protocol` values, as every generated
// protocol's doc comment says: a v1 client and a v2 client routed by one agent over memory
// transports, and one options object bounding the router and the connection alike.
import { describe, expect, it } from "vitest";
import * as v1 from "../../src/index.ts";
import * as v2 from "../../src/v2/index.ts";
import { negotiateClient, routeAgent, type RouteAgentOptions } from "../../src/versions/index.ts";
import { testAgent, testClient } from "../support/handlers.ts";

const info = { name: "test", version: "1" };
const v2Agent: v2.AgentHandler = {
  initialize: () => ({ protocolVersion: 2, info: { name: "v2-agent", version: "1" }, capabilities: { session: {} } }),
  newSession: () => ({ sessionId: "v2-session" }),
  prompt: () => ({ messageId: "m1" }),
};
const v2Client: v2.ClientHandler = { requestPermission: () => ({ outcome: { outcome: "cancelled" } }), sessionUpdate: () => {} };

/** The agent end of a memory pair, routed by v1 and v2 from the generated protocols; resolves with the route. */
function dualAgent(options?: RouteAgentOptions) {
  const [agentEnd, clientEnd] = v1.memoryPair();
  const routed = routeAgent(agentEnd, { v1: { protocol: v1.protocol, handler: testAgent().handler }, v2: { protocol: v2.protocol, handler: v2Agent } }, options);
  return { routed, clientEnd };
}

describe("routeAgent and negotiateClient over the generated protocol values", () => {
  it("routes a v1 client (negotiateClient with v1 alone) to the v1 connection", async () => {
    const { routed, clientEnd } = dualAgent();
    const negotiated = await negotiateClient(clientEnd, { v1: { protocol: v1.protocol, handler: testClient().handler, initialize: { protocolVersion: 1, clientCapabilities: {} } } });
    expect(negotiated.version).toBe(1);
    expect((await routed)?.version).toBe(1);
    if (negotiated.version === 1) expect(await negotiated.agent.newSession({ cwd: "/w", mcpServers: [] })).toEqual({ sessionId: "sess-1" });
    negotiated.connection.close();
  });

  it("routes a v2 client (negotiateClient offering v1 and v2) to the v2 connection, whose typed peer calls the v2 agent", async () => {
    const { routed, clientEnd } = dualAgent();
    const negotiated = await negotiateClient(clientEnd, {
      v1: { protocol: v1.protocol, handler: testClient().handler, initialize: { protocolVersion: 1, clientCapabilities: {} } },
      v2: { protocol: v2.protocol, handler: v2Client, initialize: { protocolVersion: 2, info, capabilities: {} } },
    });
    expect(negotiated.version).toBe(2);
    const route = await routed;
    expect(route?.version).toBe(2);
    if (negotiated.version !== 2 || route?.version !== 2) return;
    expect(negotiated.initialized.info).toEqual({ name: "v2-agent", version: "1" });
    expect(await negotiated.agent.newSession({ cwd: "/w" })).toEqual({ sessionId: "v2-session" });
    // The routed connection is the v2 table's: its client peer has v2's methods.
    expect(typeof route.connection.client.createElicitation).toBe("function");
    negotiated.connection.close();
  });

  it("one options object: maxMessageBytes bounds the router before initialize and the connection after it, with one answer", async () => {
    const { routed, clientEnd } = dualAgent({ maxMessageBytes: 512 });
    const lines: string[] = [];
    let wake = () => {};
    const decoder = new TextDecoder();
    let text = "";
    clientEnd.start({
      data: (c) => {
        text += typeof c === "string" ? c : decoder.decode(c, { stream: true });
        for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n")) {
          lines.push(text.slice(0, nl));
          text = text.slice(nl + 1);
        }
        wake();
      },
      end: () => {},
    });
    const next = async () => {
      while (lines.length === 0) await new Promise<void>((r) => (wake = r));
      return lines.shift() as string;
    };
    const long = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "x".repeat(600) } });
    clientEnd.write(`${long}\n`);
    const before = await next();
    clientEnd.write(`${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 2, info, capabilities: {} } })}\n`);
    expect(JSON.parse(await next())).toMatchObject({ id: 0, result: { protocolVersion: 2 } });
    expect((await routed)?.version).toBe(2);
    clientEnd.write(`${long}\n`);
    const after = await next();
    expect(JSON.parse(before)).toMatchObject({ id: null, error: { code: -32700 } });
    expect(after).toBe(before);
    clientEnd.close();
  });
});
