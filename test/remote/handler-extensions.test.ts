// A remote agent reaches its client's whole surface: its handlers send extension requests and
// notifications through `ctx.request` / `ctx.notify` over Streamable HTTP and WebSocket exactly as
// over stdio and memory (test/extensions/handler-context.test.ts, test/interop/handler-extensions.test.ts),
// to our client and to the official SDK's http and ws clients; and the server's per-connection
// hook, `onConnection`, is told of each connection opening and closing and can call the client on it.
import * as acp from "@agentclientprotocol/sdk";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";
import { describe, expect, expectTypeOf, it } from "vitest";
import { WebSocket } from "ws";
import { z } from "zod";
import { connectClient, protocol, type AgentConnection, type ClientConnection, type Transport } from "../../src/index.ts";
import type { Protocol } from "../../src/protocol.ts";
import type { CloseInfo } from "../../src/connection/core.ts";
import { httpClientTransport } from "../../src/remote/http-client.ts";
import { nodeWebSocket } from "../../src/remote/node-ws.ts";
import type { ConnectionInfo, OnConnection } from "../../src/remote/options.ts";
import { createRemoteServer } from "../../src/remote/server.ts";
import { webSocketClientTransport } from "../../src/remote/ws-client.ts";
import { agentExtensions, hello, ping, pingAgent, pingClient, seen, type PingRecord } from "../support/ping.ts";
import { post } from "./raw.ts";
import { onCleanup, startServer, until, within } from "./support.ts";

const toWs = (url: string) => url.replace(/^http/, "ws");

const ourTransports: [string, (url: string) => Transport][] = [
  ["Streamable HTTP", (url) => httpClientTransport(url)],
  ["Streamable HTTP with session-scoped streams", (url) => httpClientTransport(url, { sessionStreams: true })],
  ["WebSocket", (url) => webSocketClientTransport(toWs(url), { WebSocket: nodeWebSocket })],
];

/** A server for the ping agent; `onConnection` as given (typed for the v1 table, as `createRemoteServer({ protocol, … })` infers it). */
function startPingServer(onConnection?: OnConnection<V1>) {
  return startServer({ agent: () => pingAgent(), connection: { extensions: agentExtensions }, ...(onConnection ? { onConnection: onConnection as OnConnection } : {}) });
}

type V1 = typeof protocol extends Protocol<infer T> ? T : never;

it("types the hook's connection by the server's table", () => {
  const server = createRemoteServer({
    protocol,
    agent: pingAgent(),
    onConnection(connection, info) {
      expectTypeOf(connection).toEqualTypeOf<AgentConnection>();
      expectTypeOf(connection.client.sessionUpdate).toBeFunction();
      expectTypeOf(info.transport).toEqualTypeOf<"http" | "websocket">();
      return (closed) => expectTypeOf(closed).toEqualTypeOf<CloseInfo>();
    },
  });
  expect(server.stats().connections).toBe(0);
});

/** Our client over `transport`, initialized (advertising the gated extension when asked); closed after the test. */
async function ourClient(transport: Transport, advertiseGated = false): Promise<{ conn: ClientConnection; record: PingRecord }> {
  const client = pingClient();
  const conn = connectClient(client.handler, transport, { extensions: client.extensions });
  onCleanup(async () => {
    conn.close();
    await within(conn.closed, "client closed", 5000);
  });
  await within(conn.agent.initialize({ protocolVersion: 1, clientCapabilities: advertiseGated ? { _meta: { "acme.dev/gated": true } } : {} }), "initialize");
  return { conn, record: client.record };
}

describe.each(ourTransports)("ctx.request / ctx.notify of a remote agent, our client over %s", (_name, makeTransport) => {
  it("the prompt handler's `_acme/ping` is answered, its notifications arrive, and the gate applies", async () => {
    const { url } = await startPingServer();
    const { conn, record } = await ourClient(makeTransport(url), true);
    const { sessionId } = await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new");
    expect((await within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "ping" }] }), "prompt")).stopReason).toBe("end_turn");
    await within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "gated" }] }), "gated prompt");
    // An extension handler's ctx pings back the client that called it.
    expect(await within(conn.request(hello, { name: "ada" }), "hello")).toEqual({ greeting: "hello ada (4)" });
    expect(record).toEqual({ chunks: ["pong 42 raw ok", "answered true"], pings: [41, 3], seen: [42], raw: ["_acme/raw", "_acme/raw_seen"], gated: 1 });
  });

  it("refuses a gated extension the client did not advertise, without sending it", async () => {
    const { url } = await startPingServer();
    const { conn, record } = await ourClient(makeTransport(url));
    const { sessionId } = await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new");
    await within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "gated" }] }), "gated prompt");
    expect(record.chunks).toEqual(["refused -32601"]);
    expect(record.gated).toBe(0);
  });
});

describe.each([
  ["http", (url: string) => createHttpStream(url)],
  ["ws", (url: string) => createWebSocketStream(toWs(url), { WebSocket: WebSocket as never })],
])("ctx.request / ctx.notify of a remote agent, the official SDK's %s client", (_name, makeStream) => {
  it("answers the prompt handler's `_acme/ping` and gets its notifications", async () => {
    const { url } = await startPingServer();
    const pings: unknown[] = [];
    const notifications: { method: string; params: unknown }[] = [];
    const chunks: string[] = [];
    const app = acp
      .client({ name: "sdk-ping-client" })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        const u = params.update;
        if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") chunks.push(u.content.text);
      })
      .onRequest("_acme/ping", z.object({ n: z.number() }), ({ params }) => {
        pings.push(params);
        return { pong: params.n + 1 };
      })
      .onRequest("_acme/raw", z.object({ sessionId: z.string() }), () => ({ ok: true }))
      .onNotification("*", ({ method, params }) => {
        notifications.push({ method, params });
      });
    const connection = app.connect(makeStream(url));
    onCleanup(async () => {
      await Promise.race([Promise.resolve(connection.close?.()), new Promise((resolve) => setTimeout(resolve, 2000))]);
    });
    const agent = connection.agent;
    await within(agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} }), "initialize");
    const { sessionId } = await within(agent.request(acp.methods.agent.session.new, { cwd: "/", mcpServers: [] }), "session/new");
    const answer = await within(agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "ping" }] }), "prompt");
    expect(answer.stopReason).toBe("end_turn");
    expect(pings).toEqual([{ n: 41 }]);
    await until(() => chunks.length > 0 && notifications.length >= 2, "the chunk and the notifications");
    expect(chunks).toEqual(["pong 42 raw ok"]);
    expect(notifications).toEqual([
      { method: "_acme/seen", params: { sessionId, pong: 42 } },
      { method: "_acme/raw_seen", params: { sessionId } },
    ]);
    // The SDK's client calls our agent's extension, whose handler pings the SDK's client back.
    expect(await within(agent.request("_acme/hello", { name: "grace" }), "hello")).toEqual({ greeting: "hello grace (6)" });
    expect(pings).toEqual([{ n: 41 }, { n: 5 }]);
  });
});

describe.each(ourTransports)("the onConnection hook, our client over %s", (name, makeTransport) => {
  it("is told of the connection opening (with its Connection) and closing, and can call the client on it", async () => {
    const opened: { connection: AgentConnection; info: ConnectionInfo }[] = [];
    const closed: CloseInfo[] = [];
    const { url, remote } = await startPingServer((connection, info) => {
      opened.push({ connection, info });
      return (info) => void closed.push(info);
    });
    const { conn, record } = await ourClient(makeTransport(url));
    expect(opened).toHaveLength(1);
    const { connection, info } = opened[0] as (typeof opened)[number];
    expect(info.transport).toBe(name === "WebSocket" ? "websocket" : "http");
    expect(typeof info.connectionId).toBe("string");
    expect(typeof info.header).toBe("function");
    // Outside any handler, the server calls the client through the connection it was given.
    await until(() => connection.clientCapabilities !== undefined, "initialize to complete on the server");
    const { sessionId } = await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new");
    expect(await within(connection.request(ping, { n: 9 }), "ping from the hook's connection")).toEqual({ pong: 10 });
    await connection.notify(seen, { sessionId, pong: 10 });
    await connection.client.sessionUpdate({ sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "pushed" } } });
    await until(() => record.seen.length === 1 && record.chunks.length === 1, "the pushed notifications");
    expect(record).toMatchObject({ pings: [9], seen: [10], chunks: ["pushed"] });
    expect(closed).toEqual([]);
    conn.close();
    await until(() => closed.length === 1, "the cleanup to run");
    expect(closed[0]?.reason).toMatch(/DELETE|WebSocket closed|client closed/);
    expect(remote.stats().connections).toBe(0);
  });
});

describe("the onConnection hook refuses a connection by throwing", () => {
  it("HTTP: initialize is answered 500 and no connection is left", async () => {
    const { url, remote } = await startPingServer(() => {
      throw new Error("not today");
    });
    const answer = await post(url, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } });
    expect(answer.status).toBe(500);
    expect(answer.headers.get("acp-connection-id")).toBeNull();
    expect(remote.stats().connections).toBe(0);
  });

  it("WebSocket: the socket is closed and no connection is left", async () => {
    const { url, remote } = await startPingServer(() => {
      throw new Error("not today");
    });
    const ws = new WebSocket(toWs(url));
    onCleanup(() => ws.terminate());
    const closedWith = await within(new Promise<number>((resolve) => ws.once("close", (code) => resolve(code))), "the socket to close");
    expect(typeof closedWith).toBe("number");
    expect(remote.stats().connections).toBe(0);
  });

  it("a cleanup that throws is reported as a handler_error diagnostic and breaks nothing", async () => {
    const diagnostics: string[] = [];
    const { url, remote } = await startServer({
      agent: () => pingAgent(),
      connection: { extensions: agentExtensions, onDiagnostic: (d) => void (d.kind === "handler_error" && diagnostics.push(d.message)) },
      onConnection: () => () => {
        throw new Error("cleanup failed");
      },
    });
    const { conn } = await ourClient(webSocketClientTransport(toWs(url), { WebSocket: nodeWebSocket }));
    conn.close();
    await until(() => diagnostics.length === 1, "the diagnostic");
    expect(diagnostics).toEqual(["the cleanup returned by onConnection threw"]);
    expect(remote.stats().connections).toBe(0);
  });
});
