// The remote entries' options the SDK 2.4.0 has and the package maps onto acp-router's transports:
// the client streams' `cookies` / `cookieStore` (MemoryAcpCookieStore) and the server's
// `prepareWebSocketUpgrade` (a 101 answer carrying the reserved Acp-Connection-Id, an agent per upgrade).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import * as acp from "../../compat/sdk/src/index.ts";
import { createHttpStream, MemoryAcpCookieStore } from "../../compat/sdk/src/http-client.ts";
import { createWebSocketStream } from "../../compat/sdk/src/ws-client.ts";
import { AcpServer } from "../../compat/sdk/src/server.ts";

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const agentNamed = (name: string) =>
  acp
    .agent({ name })
    .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: 1, agentCapabilities: {}, agentInfo: { name, version: "0" } }))
    .onRequest(acp.methods.agent.session.new, () => ({ sessionId: `${name}-s1` }));

/** An AcpServer behind a `fetch` that adds an affinity cookie to every answer and records each request's Cookie header. */
function cookieServer() {
  const server = new AcpServer({ agent: agentNamed("cookie-agent") });
  closers.push(() => server.close());
  const sent: (string | null)[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    sent.push(request.headers.get("cookie"));
    const answer = await server.handleRequest(request);
    const headers = new Headers(answer.headers);
    headers.append("set-cookie", "affinity=node-7; Path=/; HttpOnly");
    return new Response(answer.body, { status: answer.status, headers });
  };
  return { fetch: fetch as typeof globalThis.fetch, sent };
}

async function initializeOver(stream: acp.Stream): Promise<unknown> {
  const connection = acp.client().connect(stream);
  closers.push(() => connection.close());
  const init = await connection.agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  await connection.agent.request(acp.methods.agent.session.new, { cwd: "/", mcpServers: [] });
  connection.close();
  return init;
}

describe("the client streams' cookie options", () => {
  it("a caller's MemoryAcpCookieStore keeps the affinity cookie across streams and sends it", async () => {
    const { fetch, sent } = cookieServer();
    const cookieStore = new MemoryAcpCookieStore();
    await initializeOver(createHttpStream("http://acp.test/acp", { fetch, cookieStore }));
    expect(sent[0]).toBeNull();
    expect(sent.slice(1)).toContain("affinity=node-7");
    const headers = new Headers();
    cookieStore.apply(headers);
    expect(headers.get("cookie")).toBe("affinity=node-7");
    // A fresh stream (a reconnect) with the same store sends the cookie from its first request.
    const before = sent.length;
    await initializeOver(createHttpStream("http://acp.test/acp", { fetch, cookieStore }));
    expect(sent[before]).toBe("affinity=node-7");
  });

  it('cookies: "omit" keeps and sends no cookie', async () => {
    const { fetch, sent } = cookieServer();
    await initializeOver(createHttpStream("http://acp.test/acp", { fetch, cookies: "omit" }));
    expect(sent.length).toBeGreaterThan(1);
    expect(sent.every((c) => c === null)).toBe(true);
  });
});

describe("AcpServer.prepareWebSocketUpgrade", () => {
  async function listen(server: AcpServer, choose?: () => acp.AgentApp) {
    const wss = new WebSocketServer({ noServer: true });
    const ids = new Map<unknown, string>();
    wss.on("headers", (headers, req) => {
      const id = ids.get(req);
      if (id !== undefined) headers.push(`Acp-Connection-Id: ${id}`);
    });
    const http: Server = createServer((_req, res) => res.writeHead(404).end());
    http.on("upgrade", (req, socket, head) => {
      const prepared = server.prepareWebSocketUpgrade(choose === undefined ? {} : { createAgent: choose });
      ids.set(req, prepared.connectionId);
      wss.handleUpgrade(req, socket, head, (ws) => prepared.accept(ws));
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise<void>((resolve) => http.close(() => resolve())));
    closers.push(() => wss.close());
    closers.push(() => http.closeAllConnections());
    return `ws://127.0.0.1:${(http.address() as AddressInfo).port}/acp`;
  }

  it("serves the accepted socket, with the reserved id in the 101 answer", async () => {
    const server = new AcpServer({ agent: agentNamed("default-agent") });
    closers.push(() => server.close());
    const url = await listen(server);
    const upgrade = new Promise<string | undefined>((resolve) => {
      const probe = new WebSocket(url);
      probe.once("upgrade", (res) => resolve(res.headers["acp-connection-id"] as string | undefined));
      probe.once("open", () => probe.close());
    });
    expect(await upgrade).toMatch(/.+/);
    expect(await initializeOver(createWebSocketStream(url, { WebSocket: WebSocket as never }))).toMatchObject({ agentInfo: { name: "default-agent" } });
  });

  it("serves the agent an upgrade names instead of the server's", async () => {
    const server = new AcpServer({ agent: agentNamed("default-agent") });
    closers.push(() => server.close());
    const url = await listen(server, () => agentNamed("chosen-agent"));
    expect(await initializeOver(createWebSocketStream(url, { WebSocket: WebSocket as never }))).toMatchObject({ agentInfo: { name: "chosen-agent" } });
  });

  it("refuses to prepare once the server is closed", async () => {
    const server = new AcpServer({ agent: agentNamed("default-agent") });
    await server.close();
    expect(() => server.prepareWebSocketUpgrade()).toThrow(/refused/);
  });
});
