// MCP-over-ACP on the compatibility package, in one process: an agent app's McpOverAcpCaller calls
// a server a client app's McpOverAcpProvider serves, through the core. The binding's outcomes and
// outer errors as SDK 2.4.0 gives them: the inner _meta, request-scoped notifications, an inner
// error, a handler failure, an invalid outcome, a duplicate active id, the active-request limit,
// cancellation, dispose, an unknown server and a missing protocol version.
import { describe, expect, it } from "vitest";
import * as acp from "../../compat/sdk/src/unstable.ts";
import { McpOverAcpHttpBridge } from "../../compat/sdk/src/mcp-http.ts";

type Handler = acp.McpRequestHandler;

/** A client app with a provider and an agent app with a caller, connected in process and initialized. */
async function pair(options: { handler: Handler; maxActiveRequests?: number }) {
  const provider = new acp.McpOverAcpProvider();
  const caller = new acp.McpOverAcpCaller({ clientInfo: { name: "test-agent", version: "1" } });
  let agentSide: acp.AgentContext | undefined;
  const agentApp = acp
    .agent({ name: "mcp-agent" })
    .onConnect((connection) => void (agentSide = connection.client))
    .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: 1, agentCapabilities: { mcpCapabilities: { acp: true } } }))
    .onNotification(acp.methods.agent.mcp.message, caller.handleNotification);
  const connection = acp.client({ name: "mcp-client" }).onRequest(acp.methods.client.mcp.message, provider.handleRequest).connect(agentApp);
  await connection.agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  const registration = provider.registerServer(connection.agent, { name: "tools", handler: options.handler, ...(options.maxActiveRequests === undefined ? {} : { maxActiveRequests: options.maxActiveRequests }) });
  const client = agentSide as acp.AgentContext;
  return { caller, client, registration, connection };
}

/** A handler that waits until its signal aborts (or `release` is called), saying it started. */
function holding() {
  const started: string[] = [];
  const releases: (() => void)[] = [];
  const handler: Handler = (ctx) =>
    new Promise((resolve, reject) => {
      started.push(ctx.requestId);
      releases.push(() => resolve({ result: { released: ctx.requestId } }));
      ctx.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
    });
  return { handler, started, release: () => releases.splice(0).forEach((r) => r()) };
}

const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe("MCP-over-ACP on the compatibility package", () => {
  it("carries a request with the inner _meta, its notifications before the outcome, and the declaration", async () => {
    let seen: acp.McpOperationContext | undefined;
    const { caller, client, registration } = await pair({
      handler: async (ctx) => {
        seen = ctx;
        await ctx.notify("notifications/progress", { progress: 1 });
        return { result: { echoed: ctx.params?.text } };
      },
    });
    expect(registration.declaration).toEqual({ type: "acp", name: "tools", serverId: registration.serverId });
    expect(acp.isMcpServerAcp(registration.declaration)).toBe(true);
    const notes: acp.McpNotification[] = [];
    const outcome = await caller.request(client, registration.serverId, "tools/call", { text: "hi" }, { requestId: "q1", onNotification: (n) => notes.push(n) });
    expect(outcome).toEqual({ result: { echoed: "hi" } });
    expect(notes).toEqual([{ method: "notifications/progress", params: { progress: 1 } }]);
    expect(seen).toMatchObject({ serverId: registration.serverId, requestId: "q1", method: "tools/call", protocolVersion: acp.MCP_PROTOCOL_VERSION, clientCapabilities: {}, clientInfo: { name: "test-agent", version: "1" } });
  });

  it("answers an McpProtocolError as an inner error, and other failures -33002", async () => {
    const failing: Record<string, Handler> = {
      inner: () => {
        throw new acp.McpProtocolError(-32602, "Tool nope not found", { tool: "nope" });
      },
      thrown: () => {
        throw new Error("backend down");
      },
      invalid: () => ({}) as acp.McpOutcome,
    };
    const { caller, client, registration } = await pair({ handler: (ctx) => (failing[ctx.method] as Handler)(ctx) });
    expect(await caller.request(client, registration.serverId, "inner", {})).toEqual({ error: { code: -32602, message: "Tool nope not found", data: { tool: "nope" } } });
    await expect(caller.request(client, registration.serverId, "thrown", {})).rejects.toMatchObject({ code: acp.McpBindingErrorCode.backendFailed, message: "MCP server handler failed", data: { details: "backend down" } });
    await expect(caller.request(client, registration.serverId, "invalid", {})).rejects.toMatchObject({ code: -33002, message: expect.stringContaining("invalid outcome") });
  });

  it("refuses an unknown server -33001, a missing protocol version as an inner -32602, a duplicate active id -32602, and requests over the limit -33000", async () => {
    const held = holding();
    const { caller, client, registration } = await pair({ handler: held.handler, maxActiveRequests: 1 });
    await expect(caller.request(client, "nobody", "tools/list", {})).rejects.toMatchObject({ code: -33001, data: { serverId: "nobody" } });
    const first = caller.request(client, registration.serverId, "tools/call", {}, { requestId: "same" });
    await until(() => held.started.length === 1);
    const raw = { serverId: registration.serverId, requestId: "same", method: "tools/call", params: acp.withMcpRequestMeta({}) };
    await expect(client.request(acp.methods.client.mcp.message, raw)).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("duplicate active MCP request ID") });
    await expect(caller.request(client, registration.serverId, "tools/call", {}, { requestId: "other" })).rejects.toMatchObject({ code: -33000 });
    held.release();
    expect(await first).toEqual({ result: { released: "same" } });
    const bare = await client.request(acp.methods.client.mcp.message, { serverId: registration.serverId, requestId: "bare", method: "tools/list", params: {} });
    expect(bare).toEqual({ error: { code: -32602, message: `Invalid params: missing ${acp.MCP_META_PROTOCOL_VERSION} in params._meta` } });
  });

  it("cancels a request when the caller's signal aborts (-32800), and dispose cancels active requests and refuses later ones -33001", async () => {
    const held = holding();
    const { caller, client, registration } = await pair({ handler: held.handler });
    const controller = new AbortController();
    const cancelled = caller.request(client, registration.serverId, "tools/call", {}, { signal: controller.signal });
    await until(() => held.started.length === 1);
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ code: -32800 });
    const active = caller.request(client, registration.serverId, "tools/call", {});
    await until(() => held.started.length === 2);
    await registration.dispose();
    await expect(active).rejects.toMatchObject({ code: -32800 });
    await expect(caller.request(client, registration.serverId, "tools/call", {})).rejects.toMatchObject({ code: -33001 });
  });

  it("McpOverAcpHttpBridge re-serves a declared server over loopback HTTP with its bearer token, and closes with the connection", async () => {
    const { caller, client, registration, connection } = await pair({
      handler: async (ctx) => {
        await ctx.notify("notifications/progress", { progress: 1 });
        return { result: { echoed: ctx.params?.text } };
      },
    });
    const bridge = new McpOverAcpHttpBridge(caller);
    const other = { type: "stdio", name: "local", command: "x", args: [], env: [] };
    const [http, kept] = await bridge.adaptServers(client, [registration.declaration, other]);
    expect(kept).toBe(other);
    const declared = http as { type: string; name: string; url: string; headers: { name: string; value: string }[] };
    expect(declared).toMatchObject({ type: "http", name: "tools", url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//) });
    const body = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { text: "over http" } });
    const post = (headers: Record<string, string>) => fetch(declared.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body });
    expect((await post({})).status).toBe(401);
    const auth = Object.fromEntries(declared.headers.map((h) => [h.name, h.value]));
    const answer = await post(auth);
    expect(answer.status).toBe(200);
    // The progress notification came first, so the answer is an event stream ending with the response.
    const events = (await answer.text())
      .split("\n\n")
      .filter((e) => e.startsWith("data: "))
      .map((e) => JSON.parse(e.slice(6)) as Record<string, unknown>);
    expect(events).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } },
      { jsonrpc: "2.0", id: 7, result: { echoed: "over http" } },
    ]);
    connection.close();
    await connection.closed;
    await expect
      .poll(() =>
        post(auth).then(
          () => "listening",
          () => "closed",
        ),
      )
      .toBe("closed");
  });
});
