// Bounds and faults of the remote server (docs/security.md, "Remote transport"): the auth hook,
// request body size, a reader that falls behind or stalls, connections and sessions per
// process, idle connections, slow-loris headers, a client that disappears mid-turn, and a
// shutdown that drains. After each fault the server's stats() are back to zero.
import { connect as netConnect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { bearer } from "../../src/remote/options.ts";
import { httpClientTransport } from "../../src/remote/http-client.ts";
import { nodeWebSocket } from "../../src/remote/node-ws.ts";
import { webSocketClientTransport } from "../../src/remote/ws-client.ts";
import { deferred } from "../support/async.ts";
import type { Diagnostic } from "../../src/index.ts";
import { bare, events, initialize, INIT, post, withSession } from "./raw.ts";
import { connectOver, onCleanup, recordingClient, remoteAgent, startServer, until, within, type AgentProbe } from "./support.ts";

const ZERO = { connections: 0, webSockets: 0, sessions: 0, streams: 0, inFlightInbound: 0, pendingOutbound: 0, busyLanes: 0, timers: 0, abortListeners: 0 };

/** The reasons connections closed for, from their `closed` diagnostics. */
function closeReasons(): { reasons: string[]; onDiagnostic: (d: Diagnostic) => void } {
  const reasons: string[] = [];
  return { reasons, onDiagnostic: (d) => d.kind === "closed" && reasons.push(d.message) };
}

/** A raw TCP socket to the server, closed after the test. */
function rawSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = netConnect(Number(port), hostname);
  onCleanup(() => {
    socket.destroy();
  });
  return within(new Promise((resolve, reject) => socket.once("connect", () => resolve(socket)).once("error", reject)), "tcp connect");
}

describe("the auth hook", () => {
  it("answers 401 before parsing, with id null even for a request that has an id", async () => {
    const { url } = await startServer({ authorize: bearer("s3cret") });
    const res = await post(url, { ...INIT, id: 5 });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe("Bearer");
    expect(JSON.parse(res.text)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Unauthorized" } });
    expect((await post(url, "not json at all", { authorization: "Bearer wrong" })).status).toBe(401);
    expect(await bare(url, "GET", { accept: "text/event-stream", "acp-connection-id": "x" })).toBe(401);
    expect(await bare(url, "DELETE", { "acp-connection-id": "x" })).toBe(401);
  });

  it("refuses a WebSocket upgrade without the token and lets both transports in with it", async () => {
    const { url } = await startServer({ authorize: bearer("s3cret") });
    const refused = webSocketClientTransport(url.replace(/^http/, "ws"), { WebSocket: nodeWebSocket });
    const denied = connectOver(refused, recordingClient().handler);
    await expect(denied).rejects.toThrow(/401|closed/);
    const headers = { authorization: "Bearer s3cret" };
    for (const transport of [httpClientTransport(url, { headers }), webSocketClientTransport(url.replace(/^http/, "ws"), { WebSocket: nodeWebSocket, headers })]) {
      const conn = await connectOver(transport, recordingClient().handler);
      expect((await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new")).sessionId).toBe("sess-1");
    }
  });
});

describe("request bounds", () => {
  it("answers 413 to a body over maxBodyBytes, declared or streamed", async () => {
    const { url } = await startServer({ maxBodyBytes: 1000 });
    const big = JSON.stringify({ ...INIT, params: { ...INIT.params, _meta: { pad: "x".repeat(2000) } } });
    expect((await post(url, big)).status).toBe(413);
    const chunked = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: chunked, duplex: "half", signal: AbortSignal.timeout(5000) } as RequestInit);
    expect(res.status).toBe(413);
  });

  it("closes a slow-loris connection that never finishes its headers", async () => {
    const { url } = await startServer({}, { headersTimeoutMs: 200 });
    const socket = await rawSocket(url);
    socket.write("POST /acp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: app");
    let answer = "";
    socket.on("data", (d: Buffer) => (answer += d.toString()));
    await within(new Promise((resolve) => socket.once("close", resolve)), "the server to close the socket", 10_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });
});

describe("readers that fall behind", () => {
  /** A GET event stream on a raw socket that reads nothing. */
  async function unreadStream(url: string, connectionId: string): Promise<void> {
    const socket = await rawSocket(url);
    socket.pause();
    socket.write(`GET /acp HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: text/event-stream\r\nacp-connection-id: ${connectionId}\r\n\r\n`);
  }

  it("closes the connection once more than maxStreamBytes wait for the reader, cancelling the turn", async () => {
    const closes = closeReasons();
    const { url, remote } = await startServer({ maxStreamBytes: 256 * 1024, connection: { onDiagnostic: closes.onDiagnostic } });
    const connectionId = await initialize(url);
    await unreadStream(url, connectionId);
    await until(() => remote.stats().streams === 1, "the stream to open");
    await post(url, { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/", mcpServers: [] } }, { "acp-connection-id": connectionId });
    await post(url, { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "sess-1", prompt: [{ type: "text", text: "flood" }] } }, { "acp-connection-id": connectionId, "acp-session-id": "sess-1" });
    await until(() => remote.stats().connections === 0, "the connection to close", 10_000);
    expect(closes.reasons.join("\n")).toMatch(/the reader is \d+ bytes behind \(maxStreamBytes 262144\)/);
    expect(remote.stats()).toEqual(ZERO);
  });

  it("closes the connection of a reader that takes nothing for stallMs", async () => {
    const closes = closeReasons();
    const { url, remote } = await startServer({ stallMs: 300, maxStreamBytes: 64 * 1024 * 1024, connection: { onDiagnostic: closes.onDiagnostic } });
    const connectionId = await initialize(url);
    await unreadStream(url, connectionId);
    await until(() => remote.stats().streams === 1, "the stream to open");
    await post(url, { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/", mcpServers: [] } }, { "acp-connection-id": connectionId });
    await post(url, { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "sess-1", prompt: [{ type: "text", text: "flood" }] } }, { "acp-connection-id": connectionId, "acp-session-id": "sess-1" });
    await until(() => remote.stats().connections === 0, "the connection to close", 10_000);
    expect(closes.reasons.join("\n")).toMatch(/the reader took nothing for \d+ ms \(stallMs 300\)/);
    expect(remote.stats()).toEqual(ZERO);
  });

  it("bounds what waits for a stream that is never opened", async () => {
    const closes = closeReasons();
    const { url, remote } = await startServer({ maxStreamBytes: 64 * 1024, connection: { onDiagnostic: closes.onDiagnostic } });
    const connectionId = await initialize(url);
    await post(url, { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/", mcpServers: [] } }, { "acp-connection-id": connectionId });
    await post(url, { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "sess-1", prompt: [{ type: "text", text: "flood" }] } }, { "acp-connection-id": connectionId, "acp-session-id": "sess-1" });
    await until(() => remote.stats().connections === 0, "the connection to close");
    expect(closes.reasons.join("\n")).toMatch(/bytes wait for an event stream that is not open \(maxStreamBytes 65536\)/);
  });
});

describe("process limits", () => {
  it("refuses connections beyond maxConnections with 503, over HTTP and WebSocket", async () => {
    const { url } = await startServer({ maxConnections: 2 });
    await initialize(url);
    await initialize(url);
    const third = await post(url, INIT);
    expect(third.status).toBe(503);
    expect(JSON.parse(third.text).error.message).toBe("the server holds its maximum of 2 connections");
    const ws = connectOver(webSocketClientTransport(url.replace(/^http/, "ws"), { WebSocket: nodeWebSocket }), recordingClient().handler);
    await expect(ws).rejects.toThrow(/503|closed/);
  });

  it("refuses a session beyond maxSessions, answering that request only", async () => {
    const { url, remote } = await startServer({ maxSessions: 2 });
    const http = await connectOver(httpClientTransport(url), recordingClient().handler);
    const ws = await connectOver(webSocketClientTransport(url.replace(/^http/, "ws"), { WebSocket: nodeWebSocket }), recordingClient().handler);
    await http.agent.newSession({ cwd: "/", mcpServers: [] });
    await ws.agent.newSession({ cwd: "/", mcpServers: [] });
    await expect(http.agent.newSession({ cwd: "/", mcpServers: [] })).rejects.toThrow("the server holds its maximum of 2 sessions");
    await expect(ws.agent.newSession({ cwd: "/", mcpServers: [] })).rejects.toThrow("the server holds its maximum of 2 sessions");
    expect(remote.stats()).toMatchObject({ connections: 2, sessions: 2 });
    // The connections carry on.
    expect((await within(http.agent.prompt({ sessionId: "sess-1", prompt: [{ type: "text", text: "hi" }] }), "prompt")).stopReason).toBe("end_turn");
  });

  it("closes a connection that stays idle without an event stream for idleMs", async () => {
    const closes = closeReasons();
    const { url, remote } = await startServer({ idleMs: 100, connection: { onDiagnostic: closes.onDiagnostic } });
    await initialize(url);
    await until(() => remote.stats().connections === 0, "the idle connection to close");
    expect(closes.reasons.join("\n")).toMatch(/idle for \d+ ms without an event stream \(idleMs 100\)/);
  });
});

describe("a client that disappears mid-turn", () => {
  it("over Streamable HTTP: its stream closing and not resumed within resumeMs cancels the turn and frees everything", async () => {
    const probe: AgentProbe = { cancelled: 0 };
    const closes = closeReasons();
    const { url, remote } = await startServer({ agent: () => remoteAgent(probe), resumeMs: 200, connection: { onDiagnostic: closes.onDiagnostic } });
    const { connectionId, sessionId, stream } = await withSession(url);
    await post(url, { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "wait" }] } }, { "acp-connection-id": connectionId, "acp-session-id": sessionId });
    await stream.next((m) => m.method === "session/update", "the turn to start");
    expect(remote.stats()).toMatchObject({ inFlightInbound: 1 });
    stream.abort();
    await until(() => remote.stats().connections === 0, "the connection to close");
    expect(closes.reasons.join("\n")).toMatch(/the event stream dropped \d+ ms ago and was not resumed \(resumeMs 200\)/);
    expect(probe.cancelled).toBe(1);
    expect(remote.stats()).toEqual(ZERO);
  });

  it("over WebSocket: the socket dropping cancels the turn and frees everything", async () => {
    const probe: AgentProbe = { cancelled: 0 };
    const { url, remote } = await startServer({ agent: () => remoteAgent(probe) });
    const client = recordingClient();
    const transport = webSocketClientTransport(url.replace(/^http/, "ws"), { WebSocket: nodeWebSocket });
    const conn = await connectOver(transport, client.handler);
    const { sessionId } = await conn.agent.newSession({ cwd: "/", mcpServers: [] });
    const turn = conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "wait" }] }).catch((e: unknown) => e);
    await until(() => client.chunks.includes("waiting"), "the turn to start");
    transport.close();
    await within(turn, "the client's prompt to settle");
    await until(() => remote.stats().connections === 0, "the connection to close");
    expect(probe.cancelled).toBe(1);
    expect(remote.stats()).toEqual(ZERO);
  });
});

describe("shutdown", () => {
  it("drains: a running turn still answers, new connections are refused, then everything closes", async () => {
    const gate = deferred();
    const probe: AgentProbe = { cancelled: 0, gate: gate.promise };
    const { url, remote, listening } = await startServer({ agent: () => remoteAgent(probe) });
    const client = recordingClient();
    const conn = await connectOver(httpClientTransport(url), client.handler);
    const { sessionId } = await conn.agent.newSession({ cwd: "/", mcpServers: [] });
    const turn = conn.agent.prompt({ sessionId, prompt: [{ type: "text", text: "gate" }] });
    await until(() => client.chunks.includes("gated"), "the turn to start");
    const closing = listening.close({ graceMs: 10_000 });
    expect((await remote.handle({ method: "POST", header: (n) => (n === "content-type" ? "application/json" : undefined), text: async () => JSON.stringify(INIT) })).status).toBe(503);
    gate.resolve();
    expect((await within(turn, "the drained turn")).stopReason).toBe("end_turn");
    await within(closing, "shutdown");
    await within(conn.closed, "the client to see the end");
    expect(probe.cancelled).toBe(0);
    expect(remote.stats()).toEqual(ZERO);
  });
});
