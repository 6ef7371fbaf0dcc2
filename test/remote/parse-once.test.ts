// The remote server reads each inbound message once: the endpoint (HTTP) or the socket (WebSocket)
// parses and classifies it with the connection's own parser and classifier (src/jsonrpc/) and
// hands the parsed value to the connection (`TransportReceiver.message`), which neither frames,
// parses nor classifies it again. Counted here: every `JSON.parse` of the message's text and every
// `classify` of its value, for a request and a notification, over Streamable HTTP and WebSocket.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AgentHandler } from "../../src/index.ts";
import { nodeWebSocket } from "../../src/remote/node-ws.ts";
import { webSocketClientTransport } from "../../src/remote/ws-client.ts";
import { initialize, post } from "./raw.ts";
import { connectOver, recordingClient, remoteAgent, startServer, until, within } from "./support.ts";

const classified = vi.hoisted(() => [] as unknown[]);
vi.mock(import("../../src/jsonrpc/classify.ts"), async (importOriginal) => {
  const original = await importOriginal();
  return {
    ...original,
    classify: (body: unknown) => {
      classified.push(body);
      return original.classify(body);
    },
  };
});

afterEach(() => {
  vi.restoreAllMocks();
  classified.length = 0;
});

/** The remote tests' agent, recording `_acme/echo` (answered `{ ok: true }`) and `_acme/note`. */
function agent(seen: unknown[]): AgentHandler {
  return {
    ...remoteAgent(),
    extMethod: (_method, params) => {
      seen.push(params);
      return { ok: true };
    },
    extNotification: (_method, params) => void seen.push(params),
  };
}

/** Sends one request and one notification carrying `marker` to the server at `url`. */
type Send = (url: string, marker: string) => Promise<void>;

// Raw POSTs for Streamable HTTP: our HTTP client transport reads its own outbound lines (to route
// them by session), which is the client's business, not the server's, and would count here.
const overHttp: Send = async (url, marker) => {
  const connectionId = await initialize(url);
  const headers = { "acp-connection-id": connectionId };
  expect((await post(url, { jsonrpc: "2.0", id: 1, method: "_acme/echo", params: { marker: `${marker}-request` } }, headers)).status).toBe(202);
  expect((await post(url, { jsonrpc: "2.0", method: "_acme/note", params: { marker: `${marker}-notification` } }, headers)).status).toBe(202);
};

const overWebSocket: Send = async (url, marker) => {
  const conn = await connectOver(webSocketClientTransport(url.replace(/^http/, "ws"), { WebSocket: nodeWebSocket }), recordingClient().handler);
  expect(await within(conn.request("_acme/echo", { marker: `${marker}-request` }), "_acme/echo")).toEqual({ ok: true });
  await conn.notify("_acme/note", { marker: `${marker}-notification` });
};

describe.each([
  ["Streamable HTTP", overHttp],
  ["WebSocket", overWebSocket],
])("over %s", (_name, send) => {
  it("parses and classifies each inbound request and notification exactly once", async () => {
    const seen: unknown[] = [];
    const { url } = await startServer({ agent: () => agent(seen) });
    const parse = vi.spyOn(JSON, "parse");
    const marker = `marker-${Math.random().toString(36).slice(2)}`;
    const parsesOf = (m: string) => parse.mock.calls.filter(([text]) => typeof text === "string" && text.includes(m)).length;
    const classificationsOf = (m: string) => classified.filter((v) => (v as { params?: { marker?: unknown } } | null)?.params?.marker === m).length;

    await send(url, marker);
    await until(() => seen.length === 2, "both messages to be handled");
    expect(seen).toEqual([{ marker: `${marker}-request` }, { marker: `${marker}-notification` }]);

    expect(parsesOf(`${marker}-request`)).toBe(1);
    expect(parsesOf(`${marker}-notification`)).toBe(1);
    expect(classificationsOf(`${marker}-request`)).toBe(1);
    expect(classificationsOf(`${marker}-notification`)).toBe(1);
  });
});
