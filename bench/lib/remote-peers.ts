/**
 * The agents and the SDK's server that the remote figures (`remote.ts`,
 * `remote-server.ts`) serve: the same agent work on both sides (sessions in a
 * Map, one `session/update` per prompt, then `end_turn`).
 */
import { createServer as createHttpServer, type Server } from "node:http";
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

