/**
 * The official SDK's remote pieces as test peers: an agent app served by the
 * SDK's experimental `AcpServer` (Streamable HTTP and WebSocket on one
 * node:http port), and SDK clients over its experimental http and ws client
 * streams. Same turns as `remoteAgent()` in support.ts: `ask` asks
 * permission, `wait` runs until `session/cancel`, anything else echoes.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as acp from "@agentclientprotocol/sdk";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import { createNodeHttpHandler, createNodeWebSocketUpgradeHandler } from "@agentclientprotocol/sdk/experimental/node";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";
import { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";
import { WebSocket, WebSocketServer } from "ws";
import { onCleanup } from "./support.ts";

/** A fresh SDK agent app: sessions `sess-1`, `sess-2`, … per app. */
export function sdkAgentApp() {
  let sessions = 0;
  const turns = new Map<string, AbortController>();
  const say = (client: acp.AgentContext, sessionId: string, text: string) => client.notify(acp.methods.client.session.update, { sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });
  return acp
    .agent({ name: "sdk-remote-agent" })
    .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: { loadSession: false }, authMethods: [] }))
    .onRequest(acp.methods.agent.session.new, () => ({ sessionId: `sess-${++sessions}` }))
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      turns.get(params.sessionId)?.abort();
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
      const first = params.prompt[0];
      const text = first?.type === "text" ? first.text : "";
      if (text === "ask") {
        await client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update: { sessionUpdate: "tool_call", toolCallId: "call-1", title: "write a file", status: "pending" } });
        const res = await client.request(acp.methods.client.session.requestPermission, {
          sessionId: params.sessionId,
          toolCall: { toolCallId: "call-1" },
          options: [
            { optionId: "allow", name: "Allow", kind: "allow_once" },
            { optionId: "deny", name: "Deny", kind: "reject_once" },
          ],
        });
        await say(client, params.sessionId, res.outcome.outcome === "selected" ? `chose ${res.outcome.optionId}` : "permission cancelled");
        return { stopReason: "end_turn" as const };
      }
      if (text === "wait") {
        const turn = new AbortController();
        turns.set(params.sessionId, turn);
        await say(client, params.sessionId, "waiting");
        await new Promise<void>((resolve) => turn.signal.addEventListener("abort", () => resolve(), { once: true }));
        turns.delete(params.sessionId);
        return { stopReason: "cancelled" as const };
      }
      for (const part of [text, " ", text]) await say(client, params.sessionId, part);
      return { stopReason: "end_turn" as const };
    });
}

/** The SDK's `AcpServer` on node:http (with WebSocket upgrades) at 127.0.0.1, port 0; closed after the test. */
export async function startSdkServer(): Promise<{ url: string; server: AcpServer }> {
  const server = new AcpServer({ createAgent: () => sdkAgentApp() });
  const wss = new WebSocketServer({ noServer: true });
  const http = createServer(createNodeHttpHandler(server));
  http.on("upgrade", createNodeWebSocketUpgradeHandler(server, wss as never));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  onCleanup(async () => {
    await server.close();
    for (const ws of wss.clients) ws.terminate();
    wss.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${port}/acp`, server };
}

/** What an SDK client saw. */
export interface SdkClientRecord {
  readonly chunks: string[];
  permissions: number;
}

/** An SDK client over its http (`http://…`) or ws (`ws://…`) stream; closed after the test. */
export function sdkClient(url: string, choice = "allow") {
  const record: SdkClientRecord = { chunks: [], permissions: 0 };
  const stream = url.startsWith("ws") ? createWebSocketStream(url, { WebSocket: WebSocket as never }) : createHttpStream(url);
  const app = acp
    .client({ name: "sdk-remote-client" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      const u = params.update;
      if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") record.chunks.push(u.content.text);
    })
    .onRequest(acp.methods.client.session.requestPermission, () => {
      record.permissions++;
      return { outcome: { outcome: "selected" as const, optionId: choice } };
    });
  const connection = app.connect(stream);
  onCleanup(async () => {
    await Promise.race([Promise.resolve(connection.close?.()), new Promise((resolve) => setTimeout(resolve, 2000))]);
  });
  return { connection, record, agent: connection.agent, methods: acp.methods.agent };
}
