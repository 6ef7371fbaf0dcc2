/**
 * The RFD's status codes and headers ("Unified Endpoint Routing", "Content
 * Negotiation and Validation", "WebSocket Request Flow", the message flow
 * diagrams) as data: one row per rule, each with a probe that returns what a
 * server did. `rfd-ours.test.ts` asserts every row against our server;
 * `rfd-sdk.test.ts` runs the same probes against the SDK's `AcpServer` and
 * asserts its recorded deviations.
 */
import { WebSocket } from "ws";
import { bare, events, initialize, INIT, post, withSession } from "./raw.ts";
import { within } from "./support.ts";

/** One rule of the RFD: what it says, what a conforming server answers, and the probe. */
export interface RfdRow {
  readonly rule: string;
  readonly expected: Record<string, unknown>;
  probe(url: string): Promise<Record<string, unknown>>;
}

const CONN = "acp-connection-id";
const SESS = "acp-session-id";

export const rfdRows: readonly RfdRow[] = [
  {
    rule: "POST initialize without Acp-Connection-Id: 200, JSON body with the result, Acp-Connection-Id header",
    expected: { status: 200, json: true, connectionId: true, result: true },
    async probe(url) {
      const res = await post(url, INIT);
      return { status: res.status, json: res.headers.get("content-type")?.startsWith("application/json") ?? false, connectionId: res.headers.get(CONN) !== null, result: "result" in (JSON.parse(res.text) as object) };
    },
  },
  {
    rule: "POST initialize that the agent rejects: an error status, no connection created",
    expected: { status: 400, connectionId: false, error: -32602 },
    async probe(url) {
      const res = await post(url, { ...INIT, params: { protocolVersion: "one" } });
      return { status: res.status, connectionId: res.headers.get(CONN) !== null, error: (JSON.parse(res.text) as { error?: { code: number } }).error?.code };
    },
  },
  {
    rule: "POST Content-Type other than application/json: 415",
    expected: { status: 415 },
    probe: async (url) => ({ status: (await post(url, INIT, { "content-type": "text/plain" })).status }),
  },
  {
    rule: "POST a JSON-RPC batch: 501",
    expected: { status: 501 },
    probe: async (url) => ({ status: (await post(url, [INIT])).status }),
  },
  {
    rule: "POST a message other than initialize without Acp-Connection-Id: 400",
    expected: { status: 400 },
    probe: async (url) => ({ status: (await post(url, { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/", mcpServers: [] } })).status }),
  },
  {
    rule: "POST with an unknown Acp-Connection-Id: 404",
    expected: { status: 404 },
    probe: async (url) => ({ status: (await post(url, { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/", mcpServers: [] } }, { [CONN]: "no-such-connection" })).status }),
  },
  {
    rule: "POST a request with Acp-Connection-Id: 202 with an empty body; the answer comes on the GET stream",
    expected: { status: 202, body: "", answered: true },
    async probe(url) {
      const id = await initialize(url);
      const stream = await events(url, { [CONN]: id });
      const res = await post(url, { jsonrpc: "2.0", id: 7, method: "session/new", params: { cwd: "/", mcpServers: [] } }, { [CONN]: id });
      const answer = await stream.next((m) => m.id === 7, "the answer to id 7");
      return { status: res.status, body: res.text, answered: "result" in answer };
    },
  },
  {
    rule: "POST a session-scoped request without Acp-Session-Id: 400",
    expected: { status: 400 },
    async probe(url) {
      const { connectionId, sessionId } = await withSession(url);
      return { status: (await post(url, { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId, prompt: [] } }, { [CONN]: connectionId })).status };
    },
  },
  {
    rule: "POST a session-scoped request with both headers: 202",
    expected: { status: 202 },
    async probe(url) {
      const { connectionId, sessionId } = await withSession(url);
      return { status: (await post(url, { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "hi" }] } }, { [CONN]: connectionId, [SESS]: sessionId })).status };
    },
  },
  {
    rule: "A session's messages (updates, the prompt's answer) come on the connection-scoped GET stream when no session stream is open",
    expected: { status: 202, answered: true },
    async probe(url) {
      const { connectionId, sessionId, stream } = await withSession(url);
      const res = await post(url, { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "hi" }] } }, { [CONN]: connectionId, [SESS]: sessionId });
      // Long enough for a local echo turn; a server that holds the answer elsewhere shows as false.
      const answered = await within(
        stream.next((m) => m.id === 2, "the prompt's answer"),
        "the prompt's answer",
        1500,
      ).then(
        () => true,
        () => false,
      );
      return { status: res.status, answered };
    },
  },
  {
    rule: "POST a notification (session/cancel) with both headers: 202",
    expected: { status: 202 },
    async probe(url) {
      const { connectionId, sessionId } = await withSession(url);
      return { status: (await post(url, { jsonrpc: "2.0", method: "session/cancel", params: { sessionId } }, { [CONN]: connectionId, [SESS]: sessionId })).status };
    },
  },
  {
    rule: "POST the client's answer to a permission request, with both headers: 202; the turn then ends",
    expected: { status: 202, stopReason: "end_turn" },
    async probe(url) {
      const { connectionId, sessionId, stream } = await withSession(url);
      const sessionStream = await events(url, { [CONN]: connectionId, [SESS]: sessionId });
      await post(url, { jsonrpc: "2.0", id: 3, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "ask" }] } }, { [CONN]: connectionId, [SESS]: sessionId });
      const isAsk = (m: Record<string, unknown>) => m.method === "session/request_permission";
      const ask = await Promise.any([stream.next(isAsk, "the permission request"), sessionStream.next(isAsk, "the permission request")]);
      const res = await post(url, { jsonrpc: "2.0", id: ask.id, result: { outcome: { outcome: "selected", optionId: "allow" } } }, { [CONN]: connectionId, [SESS]: sessionId });
      const isAnswer = (m: Record<string, unknown>) => m.id === 3 && !("method" in m);
      const answer = await Promise.any([stream.next(isAnswer, "the prompt's answer"), sessionStream.next(isAnswer, "the prompt's answer")]);
      return { status: res.status, stopReason: (answer.result as { stopReason?: string } | undefined)?.stopReason };
    },
  },
  {
    rule: "GET without Accept: text/event-stream: 406",
    expected: { status: 406 },
    probe: async (url) => ({ status: await bare(url, "GET", { accept: "application/json", [CONN]: await initialize(url) }) }),
  },
  {
    rule: "GET without Acp-Connection-Id: 400",
    expected: { status: 400 },
    probe: async (url) => ({ status: await bare(url, "GET", { accept: "text/event-stream" }) }),
  },
  {
    rule: "GET with an unknown Acp-Connection-Id: 404",
    expected: { status: 404 },
    probe: async (url) => ({ status: await bare(url, "GET", { accept: "text/event-stream", [CONN]: "no-such-connection" }) }),
  },
  {
    rule: "GET with a valid Acp-Connection-Id: 200, text/event-stream",
    expected: { status: 200, contentType: "text/event-stream" },
    async probe(url) {
      const stream = await events(url, { [CONN]: await initialize(url) });
      return { status: stream.status, contentType: stream.contentType?.split(";")[0] };
    },
  },
  {
    // The RFD says "404 for unknown sessions" but not whether a session this connection has not opened yet (a
    // reconnecting client opens its stream before session/load) is unknown; docs/compatibility.md records our choice.
    rule: "GET with Acp-Session-Id of a session the connection has not opened: 200, held for its session/load, session/resume or session/delete",
    expected: { status: 200 },
    probe: async (url) => ({ status: await bare(url, "GET", { accept: "text/event-stream", [CONN]: await initialize(url), [SESS]: "no-such-session" }) }),
  },
  {
    rule: "GET with Upgrade: websocket: 101 with Acp-Connection-Id",
    expected: { status: 101, connectionId: true },
    async probe(url) {
      const ws = new WebSocket(url.replace(/^http/, "ws"));
      const head = await within(
        new Promise<{ status: number; connectionId: boolean }>((resolve, reject) => {
          ws.once("upgrade", (res) => resolve({ status: res.statusCode ?? 0, connectionId: typeof res.headers[CONN] === "string" }));
          ws.once("unexpected-response", (_req, res) => resolve({ status: res.statusCode ?? 0, connectionId: false }));
          ws.once("error", reject);
        }),
        "the upgrade",
      );
      ws.terminate();
      return head;
    },
  },
  {
    rule: "DELETE with Acp-Connection-Id: 202, the GET stream closes, the id is then unknown (404)",
    expected: { status: 202, streamEnded: true, after: 404 },
    async probe(url) {
      const id = await initialize(url);
      const stream = await events(url, { [CONN]: id });
      const status = await bare(url, "DELETE", { [CONN]: id });
      const streamEnded = await within(
        (async () => {
          while (!stream.ended) await new Promise((r) => setTimeout(r, 10));
          return true;
        })(),
        "the stream to end",
      ).catch(() => false);
      const after = (await post(url, { jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/", mcpServers: [] } }, { [CONN]: id })).status;
      return { status, streamEnded, after };
    },
  },
  {
    rule: "DELETE without Acp-Connection-Id: 400",
    expected: { status: 400 },
    probe: async (url) => ({ status: await bare(url, "DELETE", {}) }),
  },
];
