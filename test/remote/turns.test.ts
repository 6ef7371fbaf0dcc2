// A full turn over each remote transport, our client against our server: chunks in order, a
// permission request answered, a cancelled turn, and nothing left behind afterwards. Transports:
// Streamable HTTP over HTTP/1.1 (Node's fetch and createHttp1Fetch), h2c, TLS with ALPN h2, and in-process through the fetch-style
// handleRequest; WebSocket over HTTP/1.1 and over TLS.
import { describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { httpClientTransport } from "../../src/remote/http-client.ts";
import type { ListenOptions } from "../../src/remote/node.ts";
import { createHttp1Fetch } from "../../src/remote/node-h1.ts";
import { createH2Fetch } from "../../src/remote/node-h2.ts";
import { nodeWebSocket } from "../../src/remote/node-ws.ts";
import type { RemoteServer } from "../../src/remote/server.ts";
import { webSocketClientTransport, type WebSocketConstructor } from "../../src/remote/ws-client.ts";
import type { Transport } from "../../src/index.ts";
import { connectOver, onCleanup, recordingClient, startServer, until, within } from "./support.ts";
import { throwawayCertificate } from "./tls.ts";

const tls = throwawayCertificate();

/** A ws constructor that trusts the throwaway certificate. */
const TrustingWebSocket = class extends WebSocket {
  constructor(url: string, protocols?: string | string[], options: { headers?: Record<string, string> } = {}) {
    super(url, protocols, { ...options, ca: tls.cert });
  }
} as unknown as WebSocketConstructor;

function h1(options: Parameters<typeof createHttp1Fetch>[0] = {}): typeof fetch {
  const f = createHttp1Fetch(options);
  onCleanup(() => f.close());
  return f;
}

function h2(options: Parameters<typeof createH2Fetch>[0] = {}): typeof fetch {
  const f = createH2Fetch(options);
  onCleanup(() => f.close());
  return f;
}

interface Case {
  readonly listen: ListenOptions;
  transport(url: string, remote: RemoteServer): Transport;
}

const cases: [string, Case][] = [
  ["Streamable HTTP over HTTP/1.1", { listen: {}, transport: (url) => httpClientTransport(url) }],
  ["Streamable HTTP over HTTP/1.1 with session-scoped streams", { listen: {}, transport: (url) => httpClientTransport(url, { sessionStreams: true }) }],
  ["Streamable HTTP over HTTP/1.1 with createHttp1Fetch", { listen: {}, transport: (url) => httpClientTransport(url, { fetch: h1() }) }],
  ["Streamable HTTP over HTTP/1.1 with createHttp1Fetch and session-scoped streams", { listen: {}, transport: (url) => httpClientTransport(url, { fetch: h1(), sessionStreams: true }) }],
  ["Streamable HTTP over TLS, HTTP/1.1 with createHttp1Fetch", { listen: { protocol: "tls", tls }, transport: (url) => httpClientTransport(url, { fetch: h1({ ca: tls.cert }) }) }],
  ["Streamable HTTP over h2c", { listen: { protocol: "h2c" }, transport: (url) => httpClientTransport(url, { fetch: h2() }) }],
  ["Streamable HTTP over TLS, ALPN h2", { listen: { protocol: "tls", tls }, transport: (url) => httpClientTransport(url, { fetch: h2({ ca: tls.cert }) }) }],
  ["Streamable HTTP through the fetch-style handleRequest", { listen: {}, transport: (url, remote) => httpClientTransport(url, { fetch: (input, init) => remote.handleRequest(new Request(input, init)) }) }],
  ["WebSocket over HTTP/1.1", { listen: {}, transport: (url) => webSocketClientTransport(url.replace(/^http/, "ws"), { WebSocket: nodeWebSocket }) }],
  ["WebSocket over TLS (HTTP/1.1 allowed next to h2)", { listen: { protocol: "tls", tls }, transport: (url) => webSocketClientTransport(url.replace(/^https/, "wss"), { WebSocket: TrustingWebSocket }) }],
];

describe.each(cases)("a turn over %s", (_name, c) => {
  const open = async (choice?: string) => {
    const { url, remote } = await startServer({}, c.listen);
    const client = recordingClient(choice);
    const conn = await connectOver(c.transport(url, remote), client.handler);
    const { sessionId } = await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new");
    return { remote, client, conn, sessionId };
  };

  it("streams the chunks before the prompt's answer", async () => {
    const { client, conn, sessionId } = await open();
    const answer = await within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "hi" }] }), "prompt");
    expect(answer.stopReason).toBe("end_turn");
    expect(client.chunks).toEqual(["hi", " ", "hi"]);
  });

  it("answers a permission request and reports the choice", async () => {
    const { client, conn, sessionId } = await open("deny");
    const answer = await within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "ask" }] }), "prompt");
    expect(answer.stopReason).toBe("end_turn");
    expect(client.permissions).toBe(1);
    expect(client.chunks).toEqual(["chose deny"]);
  });

  it("cancels a running turn with session/cancel and leaves nothing behind once closed", async () => {
    const { remote, client, conn, sessionId } = await open();
    const turn = conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "wait" }] });
    await until(() => client.chunks.includes("waiting"), "the turn to start");
    await conn.agent.cancel({ sessionId });
    expect((await within(turn, "cancelled prompt")).stopReason).toBe("cancelled");
    expect(remote.stats()).toMatchObject({ connections: 1, sessions: 1, inFlightInbound: 0, pendingOutbound: 0 });
    conn.close();
    await within(conn.closed, "client closed");
    await until(() => remote.stats().connections === 0, "the server to drop the connection");
    expect(remote.stats()).toEqual({ connections: 0, webSockets: 0, sessions: 0, streams: 0, inFlightInbound: 0, pendingOutbound: 0, busyLanes: 0, timers: 0, abortListeners: 0 });
  });
});
