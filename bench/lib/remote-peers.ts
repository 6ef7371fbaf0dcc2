/**
 * The agents and the SDK's server that the remote figures (`remote.ts`,
 * `remote-server.ts`) serve: the same agent work on both sides (sessions in a
 * Map, one `session/update` per prompt, then `end_turn`).
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createH2Server } from "node:http2";
import type { AddressInfo } from "node:net";
import * as acp from "@agentclientprotocol/sdk";
import { createNodeHttpHandler, createNodeWebSocketUpgradeHandler } from "@agentclientprotocol/sdk/experimental/node";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";
import { WebSocketServer } from "ws";
import type { AgentHandler } from "../../src/index.ts";

export type Mode = "http1" | "h2" | "ws";

/** Our bench agent: sessions kept in a Map (as a real agent would), one update per prompt. */
export function oursAgent(): AgentHandler {
  const sessions = new Map<string, { cwd: string }>();
  return {
    initialize: () => ({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] }),
    authenticate: () => ({}),
    newSession: (p) => {
      const sessionId = `s${sessions.size + 1}`;
      sessions.set(sessionId, { cwd: p.cwd });
      return { sessionId };
    },
    setSessionMode: () => ({}),
    setSessionConfigOption: () => ({ configOptions: [] }),
    async prompt(p, ctx) {
      await ctx.peer.sessionUpdate({ sessionId: p.sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "ok" } } });
      return { stopReason: "end_turn" };
    },
  };
}

/** The same agent on the SDK. */
export function sdkAgent() {
  const sessions = new Map<string, { cwd: string }>();
  return acp
    .agent({ name: "bench" })
    .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {}, authMethods: [] }))
    .onRequest(acp.methods.agent.session.new, ({ params }) => {
      const sessionId = `s${sessions.size + 1}`;
      sessions.set(sessionId, { cwd: params.cwd });
      return { sessionId };
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
      await client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "ok" } } });
      return { stopReason: "end_turn" as const };
    });
}

/** The SDK's server on node:http (with WebSocket) or node:http2 (h2c). */
export async function sdkServer(mode: Mode): Promise<{ url: string; close(): Promise<void> }> {
  const server = new AcpServer({ createAgent: () => sdkAgent() });
  const handler = createNodeHttpHandler(server);
  const http: Server = mode === "h2" ? (createH2Server({}, handler as never) as unknown as Server) : createHttpServer(handler);
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  if (mode !== "h2") http.on("upgrade", createNodeWebSocketUpgradeHandler(server, wss as never));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/acp`,
    async close() {
      await server.close();
      for (const ws of wss.clients) ws.terminate();
      http.closeAllConnections?.();
      http.close();
    },
  };
}

/**
 * The floor of a Streamable HTTP server on `node:http`: what any server pays
 * for the HTTP exchanges alone. POST `initialize` answered 200 with a
 * connection id; other POSTs answered 202; `session/new` answered on the
 * connection's SSE stream, `session/prompt` with one update and its answer in
 * one write on the session's stream. `JSON.parse`, `switch`, `JSON.stringify`:
 * no validation, no checks of headers, no bounds, no cancellation. HTTP/1.1
 * only (no WebSocket).
 */
export async function floorServer(): Promise<{ url: string; close(): void }> {
  const streams = new Map<string, ServerResponse>();
  let connections = 0;
  let sessions = 0;
  const header = (req: IncomingMessage, name: string) => String(req.headers[name]);
  const http = createHttpServer({ noDelay: true }, (req, res) => {
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "text/event-stream" }).flushHeaders();
      streams.set(req.headers["acp-session-id"] !== undefined ? header(req, "acp-session-id") : header(req, "acp-connection-id"), res);
      return;
    }
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => (body += d));
    req.on("end", () => {
      const m = JSON.parse(body) as { id: number; method: string; params: { sessionId?: string } };
      switch (m.method) {
        case "initialize":
          res.writeHead(200, { "content-type": "application/json", "acp-connection-id": `c${++connections}` }).end(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] } }));
          return;
        case "session/new":
          res.writeHead(202).end();
          streams.get(header(req, "acp-connection-id"))?.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { sessionId: `s${++sessions}` } })}\n\n`);
          return;
        case "session/prompt": {
          res.writeHead(202).end();
          const update = { jsonrpc: "2.0", method: "session/update", params: { sessionId: m.params.sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "ok" } } } };
          streams.get(header(req, "acp-session-id"))?.write(`data: ${JSON.stringify(update)}\n\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { stopReason: "end_turn" } })}\n\n`);
          return;
        }
        default:
          res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/acp`,
    close() {
      http.closeAllConnections();
      http.close();
    },
  };
}
