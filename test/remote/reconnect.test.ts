// Reconnecting (issue 21 item 4, issue 20 item 12): a session stream opened before that session's
// session/load on a new connection is held for it (the official SDK's HTTP client does this), and
// ended when no such request comes; a client's answer to our request is routed by the id we issued,
// with or without Acp-Session-Id.
import * as acp from "@agentclientprotocol/sdk";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import { describe, expect, it } from "vitest";
import type { AgentHandler } from "../../src/index.ts";
import { events, initialize, post, withSession } from "./raw.ts";
import { listeningAgent, onCleanup, remoteAgent, startServer, until, within } from "./support.ts";

/** An SDK client over its experimental HTTP stream, recording the texts of the updates it gets. */
function sdkHttpClient(url: string) {
  const texts: string[] = [];
  const app = acp.client({ name: "sdk-reconnect-client" }).onNotification(acp.methods.client.session.update, ({ params }) => {
    const u = params.update;
    if ((u.sessionUpdate === "agent_message_chunk" || u.sessionUpdate === "user_message_chunk") && u.content.type === "text") texts.push(`${u.sessionUpdate}: ${u.content.text}`);
  });
  const connection = app.connect(createHttpStream(url));
  onCleanup(async () => {
    await Promise.race([Promise.resolve(connection.close?.()), new Promise((resolve) => setTimeout(resolve, 2000))]);
  });
  return { connection, agent: connection.agent, texts };
}

describe("reconnecting with the official SDK's HTTP client", () => {
  it("connects, opens a session, drops the connection, reconnects and loads the session from examples/agent.ts --listen", async () => {
    const { url } = await listeningAgent();
    const first = sdkHttpClient(url);
    await within(first.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} }), "initialize");
    const { sessionId } = await within(first.agent.request(acp.methods.agent.session.new, { cwd: "/", mcpServers: [] }), "session/new");
    const answer = await within(first.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "remember me" }] }), "prompt");
    expect(answer.stopReason).toBe("end_turn");
    await within(Promise.resolve(first.connection.close?.()), "the first connection to close");

    const second = sdkHttpClient(url);
    const init = await within(second.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} }), "initialize again");
    expect(init.agentCapabilities?.loadSession).toBe(true);
    // The SDK client opens the session's event stream before it posts session/load.
    await within(second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: "/", mcpServers: [] }), "session/load");
    expect(second.texts[0]).toBe("user_message_chunk: remember me");
    const agentText = () =>
      second.texts
        .filter((t) => t.startsWith("agent_message_chunk: "))
        .map((t) => t.slice("agent_message_chunk: ".length))
        .join("");
    // The history replayed on the new connection: the prompt and the agent's echo of it.
    expect(agentText()).toContain("remember me");
    const again = await within(second.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "still here" }] }), "a prompt on the loaded session");
    expect(again.stopReason).toBe("end_turn");
    expect(second.texts).toContain("user_message_chunk: remember me");
    expect(agentText()).toContain("still here");
  });
});

describe("a session stream opened early", () => {
  it("is answered 200 and ended after earlySessionStreamMs when no session/load, session/resume or session/delete came", async () => {
    const { url, remote } = await startServer({ earlySessionStreamMs: 100 });
    const connectionId = await initialize(url);
    const main = await events(url, { "acp-connection-id": connectionId });
    const early = await events(url, { "acp-connection-id": connectionId, "acp-session-id": "sess-9" });
    expect(early.status).toBe(200);
    expect(remote.stats().streams).toBe(2);
    await until(() => early.ended, "the early stream to end");
    expect(main.ended).toBe(false);
    expect(remote.stats()).toMatchObject({ connections: 1, streams: 1 });
  });

  it("is refused (404) beyond 64 early streams on one connection", async () => {
    const { url } = await startServer();
    const connectionId = await initialize(url);
    for (let i = 0; i < 64; i++) expect((await events(url, { "acp-connection-id": connectionId, "acp-session-id": `early-${i}` })).status).toBe(200);
    expect((await events(url, { "acp-connection-id": connectionId, "acp-session-id": "early-64" })).status).toBe(404);
  });

  it("becomes the session's stream once its session/load came: the load's updates and answer arrive on it, and it stays", async () => {
    const agent: AgentHandler = {
      ...remoteAgent(),
      initialize: () => ({ protocolVersion: 1, agentCapabilities: { loadSession: true }, authMethods: [] }),
      async loadSession(params, ctx) {
        await ctx.peer.sessionUpdate({ sessionId: params.sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "history" } } });
        return {};
      },
    };
    const { url } = await startServer({ agent: () => agent, earlySessionStreamMs: 100 });
    const connectionId = await initialize(url);
    const main = await events(url, { "acp-connection-id": connectionId });
    const early = await events(url, { "acp-connection-id": connectionId, "acp-session-id": "sess-1" });
    const load = { jsonrpc: "2.0", id: 5, method: "session/load", params: { sessionId: "sess-1", cwd: "/", mcpServers: [] } };
    expect((await post(url, load, { "acp-connection-id": connectionId, "acp-session-id": "sess-1" })).status).toBe(202);
    expect((await early.next((m) => m.id === 5, "the load's answer on the session stream")).result).toEqual({});
    expect(early.messages.map((m) => m.method ?? m.id)).toEqual(["session/update", 5]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(early.ended).toBe(false);
    expect(main.messages).toEqual([]);
    // Now open on this connection: a second GET for it is refused as for any open stream.
    expect((await events(url, { "acp-connection-id": connectionId, "acp-session-id": "sess-1" })).status).toBe(409);
  });
});

describe("answers to the server's requests", () => {
  it("are routed by the id the server issued: no Acp-Session-Id needed", async () => {
    const { url } = await startServer();
    const { connectionId, sessionId, stream } = await withSession(url);
    const conn = { "acp-connection-id": connectionId };
    expect((await post(url, { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "ask" }] } }, { ...conn, "acp-session-id": sessionId })).status).toBe(202);
    const request = await stream.next((m) => m.method === "session/request_permission", "the permission request");
    const answer = { jsonrpc: "2.0", id: request.id, result: { outcome: { outcome: "selected", optionId: "allow" } } };
    // A wrong session is still refused; no session at all is routed by the id.
    expect((await post(url, answer, { ...conn, "acp-session-id": "sess-other" })).status).toBe(400);
    expect((await post(url, answer, conn)).status).toBe(202);
    expect((await stream.next((m) => m.id === 2, "the prompt's answer")).result).toEqual({ stopReason: "end_turn" });
    expect(stream.messages.some((m) => JSON.stringify(m).includes("chose allow"))).toBe(true);
  });
});
