// Our HTTP client against our server, with the RFD's single connection stream (default) and with
// `sessionStreams: true` (one GET per session): the same steps pass both ways (issue 21 item 2);
// a refused session stream fails only that session's requests; close() sends DELETE before it ends
// its streams and gets 202 (item 3).
import { describe, expect, it } from "vitest";
import { RpcError, type AgentHandler } from "../../src/index.ts";
import { httpClientTransport } from "../../src/remote/http-client.ts";
import { connectOver, recordingClient, remoteAgent, startServer, until, within, type AgentProbe } from "./support.ts";

/** A fetch that records each request's method, session header and answer status; GETs of `refuse`'s session answer 404. */
function recordingFetch(refuse?: string): { fetch: typeof globalThis.fetch; log: { method: string; session: string | null; status: number }[] } {
  const log: { method: string; session: string | null; status: number }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    const method = init?.method ?? "GET";
    const session = headers.get("acp-session-id");
    // When our client ends an event stream (its GET's signal aborts), noted in order with the requests.
    if (method === "GET") init?.signal?.addEventListener("abort", () => log.push({ method: "abort GET", session, status: 0 }), { once: true });
    const response = method === "GET" && refuse !== undefined && session === refuse ? new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Unknown Acp-Session-Id" } }), { status: 404 }) : await globalThis.fetch(input, init);
    log.push({ method, session, status: response.status });
    return response;
  };
  return { fetch, log };
}

/** The tests' agent, advertising `session/delete`, which fails for a session it does not have. */
function deletingAgent(probe: AgentProbe): AgentHandler {
  const agent = remoteAgent(probe);
  return {
    ...agent,
    initialize: () => ({ protocolVersion: 1, agentCapabilities: { loadSession: false, sessionCapabilities: { delete: {} } }, authMethods: [] }),
    deleteSession: (params) => {
      throw RpcError.invalidParams({ sessionId: params.sessionId, reason: "no such session" });
    },
  };
}

describe.each([
  ["the connection stream (default)", false],
  ["session streams", true],
])("our HTTP client over %s", (_name, sessionStreams) => {
  it("runs turns on two sessions, a permission request, a cancel, a failing deleteSession that leaves the others working, and a closing DELETE answered 202", async () => {
    const probe: AgentProbe = { cancelled: 0 };
    const { url, remote } = await startServer({ agent: () => deletingAgent(probe) });
    const recorder = recordingFetch();
    const client = recordingClient();
    const conn = await connectOver(httpClientTransport(url, { fetch: recorder.fetch, sessionStreams }), client.handler);
    const a = (await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new")).sessionId;
    const b = (await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new")).sessionId;
    const prompt = (sessionId: string, text: string) => within(conn.agent.prompt({ sessionId, prompt: [{ type: "text", text }] }), `prompt ${text}`);
    expect((await prompt(a, "one")).stopReason).toBe("end_turn");
    expect((await prompt(b, "ask")).stopReason).toBe("end_turn");
    expect(client.permissions).toBe(1);
    const waiting = prompt(a, "wait");
    await until(() => client.chunks.includes("waiting"), "the turn to start");
    await conn.agent.cancel({ sessionId: a });
    expect((await waiting).stopReason).toBe("cancelled");
    // A delete of a session nobody has: that request fails, and nothing else.
    await expect(within(conn.agent.deleteSession({ sessionId: "no-such-session" }), "session/delete")).rejects.toMatchObject({ code: -32602, data: { reason: "no such session" } });
    expect((await prompt(a, "two")).stopReason).toBe("end_turn");
    expect((await prompt(b, "three")).stopReason).toBe("end_turn");
    expect(client.chunks).toEqual(["one", " ", "one", "chose allow", "waiting", "two", " ", "two", "three", " ", "three"]);
    expect(probe.cancelled).toBe(1);
    const gets = recorder.log.filter((r) => r.method === "GET").map((r) => r.session);
    expect(gets).toEqual(sessionStreams ? [null, a, b, "no-such-session"] : [null]);
    conn.close();
    await within(conn.closed, "closed");
    await until(() => recorder.log.some((r) => r.method === "DELETE"), "the DELETE");
    expect(recorder.log.filter((r) => r.method === "DELETE")).toEqual([{ method: "DELETE", session: null, status: 202 }]);
    // The DELETE was answered before any stream was ended (ended first, the server could end the connection and answer 404).
    const deleted = recorder.log.findIndex((r) => r.method === "DELETE");
    const firstAbort = recorder.log.findIndex((r) => r.method === "abort GET");
    expect(firstAbort === -1 || firstAbort > deleted).toBe(true);
    await until(() => remote.stats().connections === 0, "the server to end the connection");
  });
});

describe("a refused session stream", () => {
  it("fails that session's requests with a clear error and leaves the other sessions working", async () => {
    const { url } = await startServer();
    const recorder = recordingFetch("sess-2");
    const client = recordingClient();
    const conn = await connectOver(httpClientTransport(url, { fetch: recorder.fetch, sessionStreams: true }), client.handler);
    const a = (await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new")).sessionId;
    const b = (await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new")).sessionId;
    expect(b).toBe("sess-2");
    const refused = await within(
      conn.agent.prompt({ sessionId: b, prompt: [{ type: "text", text: "lost" }] }).catch((e: unknown) => e),
      "the refused prompt",
    );
    expect(refused).toMatchObject({ code: -32603, message: "the event stream of session sess-2 was refused (HTTP 404): its answers cannot arrive", data: { status: 404 } });
    expect((await within(conn.agent.prompt({ sessionId: a, prompt: [{ type: "text", text: "kept" }] }), "the other session's prompt")).stopReason).toBe("end_turn");
    expect(client.chunks).toEqual(["kept", " ", "kept"]);
    // The refused prompt was never posted; the next request of that session asks for its stream again.
    expect(recorder.log.filter((r) => r.session === b)).toEqual([{ method: "GET", session: b, status: 404 }]);
    await expect(within(conn.agent.prompt({ sessionId: b, prompt: [{ type: "text", text: "again" }] }), "again")).rejects.toMatchObject({ code: -32603 });
    expect(recorder.log.filter((r) => r.session === b).map((r) => r.method)).toEqual(["GET", "GET"]);
  });
});
