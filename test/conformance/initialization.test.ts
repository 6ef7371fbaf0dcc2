// Conformance: initialization, capability negotiation, the session baseline and authentication
// (initialization.mdx, session-setup.mdx, authentication.mdx). Test names carry the catalogue ids.
import { describe, expect, it } from "vitest";
import type { AgentCapabilities, ClientCapabilities } from "../../src/index.ts";
import { until } from "../support/async.ts";
import { chunkText, params, testAgent, testClient } from "../support/handlers.ts";
import { connectPair } from "../support/pair.ts";
import { initializedRawClient, rawAgent, rawClient } from "../support/raw-peer.ts";
import { agentGated, allAgentMethods, allClientMethods, clientGated, notification, reasonOf, request, rpcError, type AgentGatedWire, type ClientGatedWire } from "./support.ts";

describe("the initialization gate", () => {
  it("[ACP-INIT-101] answers -32600 to every request before initialize, runs no handler, and serves them after it", async () => {
    const agent = testAgent(allAgentMethods, { protocolVersion: 1, agentCapabilities: { sessionCapabilities: { list: {} } } });
    const d = rawAgent(agent.handler);
    const early = [request(1, "session/new", params.newSession()), request(2, "session/prompt", params.prompt("s")), request(3, "authenticate", { methodId: "m" }), request(4, "session/list", {}), request(5, "_vendor/x", {})];
    for (const r of early) d.send(r);
    for (const r of early) expect(await d.next()).toEqual({ jsonrpc: "2.0", id: r.id, error: { code: -32600, message: "Not initialized: the first request must be initialize" } });
    expect(agent.calls).toEqual([]);
    await d.initialize();
    d.send(request(6, "session/new", params.newSession()));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 6, result: { sessionId: "sess-1" } });
  });

  it("[ACP-INIT-101] keeps answering -32600 after an initialize that failed", async () => {
    const agent = testAgent({ initialize: () => Promise.reject(new Error("cannot start")) });
    const d = rawAgent(agent.handler);
    d.send(request(1, "initialize", params.initialize()));
    expect(await d.next()).toMatchObject({ id: 1, error: { code: -32603 } });
    d.send(request(2, "session/new", params.newSession()));
    expect(await d.next()).toMatchObject({ id: 2, error: { code: -32600 } });
    expect(agent.calls).toEqual(["initialize"]);
  });

  it("[ACP-SESSION-102] answers session/new sent before initialize with -32600 and creates no session", async () => {
    const agent = testAgent();
    const { client } = connectPair(agent.handler, testClient().handler);
    const error = await rpcError(client.agent.newSession(params.newSession()));
    expect([error.code, error.message]).toEqual([-32600, "Not initialized: the first request must be initialize"]);
    expect(agent.calls).toEqual([]);
  });
});

describe("the initialize result", () => {
  it("[ACP-INIT-001] rejects an initialize result without an integer protocolVersion, and records the capabilities of a valid one", async () => {
    for (const bad of [{ agentCapabilities: {} }, { protocolVersion: "1", agentCapabilities: {} }, { protocolVersion: 1.5 }]) {
      const d = rawClient(testClient().handler);
      const call = d.conn.agent.initialize(params.initialize());
      const sent = await d.next();
      d.send({ jsonrpc: "2.0", id: sent.id, result: bad });
      const error = await rpcError(call);
      expect([error.code, error.message]).toEqual([-32603, 'Invalid result for "initialize" from the agent']);
    }
    const d = rawClient(testClient().handler);
    const call = d.conn.agent.initialize(params.initialize());
    const sent = await d.next();
    d.send({ jsonrpc: "2.0", id: sent.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: true } } });
    expect(await call).toEqual({ protocolVersion: 1, agentCapabilities: { loadSession: true } });
    expect(d.conn.agentCapabilities).toEqual({ loadSession: true });
  });

  it("[ACP-AUTH-103] accepts auth methods without a type next to typed ones and passes them through unchanged", async () => {
    const authMethods = [
      { id: "token", name: "Token" },
      { id: "agent", name: "Agent", type: "agent", description: "handled by the agent" },
      { id: "login", name: "Login", type: "terminal", args: ["--login"] },
    ];
    const d = rawClient(testClient().handler);
    const call = d.conn.agent.initialize(params.initialize());
    const sent = await d.next();
    d.send({ jsonrpc: "2.0", id: sent.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods } });
    expect((await call).authMethods).toEqual(authMethods);
    expect(d.diagnostics).toEqual([]);
  });
});

/** Every subset of `names`. */
function subsets<T>(names: readonly T[]): T[][] {
  return Array.from({ length: 2 ** names.length }, (_, mask) => names.filter((_n, i) => (mask >> i) & 1));
}

describe("combinations of capabilities", () => {
  it("[ACP-INIT-106] makes a client serve exactly the methods its advertised fs, terminal and elicitation capabilities cover, for all 16 combinations", async () => {
    const flags = ["readTextFile", "writeTextFile", "terminal", "elicitation"] as const;
    for (const on of subsets(flags)) {
      const caps: ClientCapabilities = {
        fs: { readTextFile: on.includes("readTextFile"), writeTextFile: on.includes("writeTextFile") },
        terminal: on.includes("terminal"),
        ...(on.includes("elicitation") ? { elicitation: { form: {} } } : {}),
      };
      const d = await initializedRawClient(testClient(allClientMethods).handler, caps);
      const served: string[] = [];
      const wires = Object.keys(clientGated) as ClientGatedWire[];
      wires.forEach((wire, i) => d.send(request(i, wire, clientGated[wire].params)));
      for (let i = 0; i < wires.length; i++) {
        const answer = await d.next();
        if (answer.error === undefined) served.push(wires[answer.id as number] as string);
        else expect(answer.error.code).toBe(-32601);
      }
      const expected = wires.filter((w) => {
        const cap = clientGated[w].capability;
        return cap === "fs.readTextFile" ? on.includes("readTextFile") : cap === "fs.writeTextFile" ? on.includes("writeTextFile") : on.includes(cap);
      });
      expect([on, served.sort()]).toEqual([on, [...expected].sort()]);
    }
  });

  it("[ACP-INIT-106] makes an agent serve exactly the methods its advertised capabilities cover, for all 64 combinations", async () => {
    const wires = Object.keys(agentGated) as AgentGatedWire[];
    for (const on of subsets(wires)) {
      const caps: AgentCapabilities = {
        loadSession: on.includes("session/load"),
        sessionCapabilities: {
          ...(on.includes("session/list") ? { list: {} } : {}),
          ...(on.includes("session/delete") ? { delete: {} } : {}),
          ...(on.includes("session/resume") ? { resume: {} } : {}),
          ...(on.includes("session/close") ? { close: {} } : {}),
        },
        auth: on.includes("logout") ? { logout: {} } : {},
      };
      const d = rawAgent(testAgent(allAgentMethods, { protocolVersion: 1, agentCapabilities: caps }).handler);
      await d.initialize();
      wires.forEach((wire, i) => d.send(request(i, wire, agentGated[wire].params)));
      const served: string[] = [];
      for (let i = 0; i < wires.length; i++) {
        const answer = await d.next();
        if (answer.error === undefined) served.push(wires[answer.id as number] as string);
        else expect(answer.error.code).toBe(-32601);
      }
      expect([on, served.sort()]).toEqual([on, [...on].sort()]);
    }
  });

  it.each([
    ["missing", {}],
    ["null", { sessionCapabilities: { list: null } }],
    ["false-valued parent", { sessionCapabilities: false }],
  ])("[ACP-INIT-107] treats a %s capability as not advertised on the agent's inbound gate", async (_name, caps) => {
    const d = rawAgent(testAgent(allAgentMethods, { protocolVersion: 1, agentCapabilities: caps as AgentCapabilities }).handler);
    await d.initialize();
    d.send(request(1, "session/list", {}));
    const answer = await d.next();
    expect(answer.error?.code).toBe(-32601);
    expect(reasonOf(answer.error)).toBe("agentCapabilities.sessionCapabilities.list was not advertised by the agent");
  });

  it.each([
    ["missing", {}],
    ["false", { terminal: false }],
    ["a false fs flag", { fs: { readTextFile: false } }],
  ])("[ACP-INIT-107] treats a %s client capability as not advertised on the agent's outbound gate, writing nothing", async (_name, caps) => {
    const d = rawAgent(testAgent().handler);
    await d.initialize(params.initialize(caps as ClientCapabilities));
    const calls = [d.conn.client.createTerminal({ sessionId: "s", command: "ls" }), d.conn.client.readTextFile({ sessionId: "s", path: "/a" })];
    for (const call of calls) expect((await rpcError(call)).code).toBe(-32601);
    expect(await d.sync()).toEqual([]);
  });

  it("[ACP-INIT-107] treats an empty object as advertised: {} for sessionCapabilities.delete opens session/delete", async () => {
    const agent = testAgent(allAgentMethods, { protocolVersion: 1, agentCapabilities: { sessionCapabilities: { delete: {} } } });
    const { client } = connectPair(agent.handler, testClient().handler);
    await client.agent.initialize(params.initialize());
    expect(await client.agent.deleteSession({ sessionId: "s" })).toEqual({});
    expect(agent.calls).toEqual(["initialize", "deleteSession"]);
  });
});

describe("the session baseline", () => {
  it("[ACP-SESSION-101] serves session/new, session/prompt and session/cancel, and delivers session/update, with no capability advertised on either side", async () => {
    const updates: string[] = [];
    const agent = testAgent(
      {
        async prompt(p, ctx) {
          await ctx.peer.sessionUpdate(params.update(p.sessionId, "streamed"));
          if (p.prompt[0]?.type === "text" && p.prompt[0].text === "wait") {
            await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
            return { stopReason: "cancelled" };
          }
          return { stopReason: "end_turn" };
        },
      },
      { protocolVersion: 1, agentCapabilities: {} },
    );
    const { client } = connectPair(agent.handler, testClient({ sessionUpdate: (n) => void updates.push(chunkText(n) ?? "?") }).handler);
    await client.agent.initialize({ protocolVersion: 1 });
    const { sessionId } = await client.agent.newSession(params.newSession());
    expect(await client.agent.prompt(params.prompt(sessionId))).toEqual({ stopReason: "end_turn" });
    const turn = client.agent.prompt(params.prompt(sessionId, "wait"));
    await until(() => updates.length === 2, "the second turn streamed");
    await client.agent.cancel({ sessionId });
    expect(await turn).toEqual({ stopReason: "cancelled" });
    expect(updates).toEqual(["streamed", "streamed"]);
    expect(agent.calls).toEqual(["initialize", "newSession", "prompt", "prompt"]);
  });

  it("[ACP-SESSION-001] rejects a session/new result that has no string sessionId", async () => {
    for (const bad of [{}, { sessionId: 42 }, { sessionId: null }]) {
      const d = await initializedRawClient(testClient().handler);
      const call = d.conn.agent.newSession(params.newSession());
      const sent = await d.next();
      d.send({ jsonrpc: "2.0", id: sent.id, result: bad });
      const error = await rpcError(call);
      expect([error.code, error.data]).toEqual([-32603, { errors: [{ path: "/sessionId", message: expect.any(String) }] }]);
    }
  });
});

describe("authentication", () => {
  it("[ACP-AUTH-104] answers -32000 to every auth-gated session request until authenticate succeeds, and again after logout", async () => {
    const agent = testAgent(allAgentMethods, {
      protocolVersion: 1,
      agentCapabilities: { loadSession: true, sessionCapabilities: { list: {}, delete: {}, resume: {}, close: {} }, auth: { logout: {} } },
    });
    const d = rawAgent(agent.handler, { connection: { authRequired: true } });
    await d.initialize();
    const gated = [
      request("new", "session/new", params.newSession()),
      request("prompt", "session/prompt", params.prompt("s")),
      request("mode", "session/set_mode", { sessionId: "s", modeId: "m" }),
      request("config", "session/set_config_option", { sessionId: "s", configId: "c", value: "v" }),
      ...(Object.keys(agentGated) as AgentGatedWire[]).filter((w) => w !== "logout").map((w) => request(w, w, agentGated[w].params)),
    ];
    for (const r of gated) d.send(r);
    for (const r of gated) expect(await d.next()).toEqual({ jsonrpc: "2.0", id: r.id, error: { code: -32000, message: "Authentication required" } });
    expect(agent.calls).toEqual(["initialize"]);

    d.send(request("auth", "authenticate", { methodId: "token" }));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: "auth", result: {} });
    d.send(request("new-2", "session/new", params.newSession()));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: "new-2", result: { sessionId: "sess-1" } });

    d.send(request("out", "logout", {}));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: "out", result: {} });
    d.send(request("new-3", "session/new", params.newSession()));
    expect(await d.next()).toMatchObject({ id: "new-3", error: { code: -32000 } });
    d.send(notification("session/cancel", { sessionId: "s" }));
    expect(await d.sync()).toEqual([]);
  });

  it("[ACP-AUTH-104] leaves the gate off by default", async () => {
    const d = rawAgent(testAgent().handler);
    await d.initialize();
    d.send(request(1, "session/new", params.newSession()));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { sessionId: "sess-1" } });
  });
});
