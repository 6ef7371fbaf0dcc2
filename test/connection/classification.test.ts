// DESIGN §4.2–§4.4 and §8: how every kind of inbound line is classified and answered.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classify, isRequestId, rejectionId, type MessageKind } from "../../src/jsonrpc/classify.ts";
import type { Diagnostic } from "../../src/index.ts";
import { testAgent, testClient } from "../support/handlers.ts";
import { initializedRawClient, rawAgent, type WireLine } from "../support/raw-peer.ts";

const j = (value: unknown) => JSON.stringify(value);
const req = (id: unknown, method = "_echo", extra: object = {}) => j({ jsonrpc: "2.0", id, method, ...extra });
const note = (method: string, extra: object = {}) => j({ jsonrpc: "2.0", method, ...extra });
const err = (id: unknown, code: number, extra: object = {}) => ({ id, error: { code, ...extra } });
const echo = (id: unknown, method = "_echo") => ({ id, result: { method, params: {} } });

interface WireRow {
  /** What the row is about, for the test name. */
  readonly name: string;
  /** The raw line sent (without its newline). */
  readonly line: string;
  /** The one expected answer (matched with toMatchObject), or null for "nothing written". */
  readonly answer: object | null;
  /** The handler calls the line must cause. */
  readonly calls: readonly string[];
  /** The one diagnostic the line must cause, or null for none. */
  readonly diagnostic: Diagnostic["kind"] | null;
  /** Send it before `initialize` (the init gate rows). */
  readonly beforeInit?: boolean;
}

const deep = `${"[".repeat(200)}${"]".repeat(200)}`;

const table: readonly WireRow[] = [
  // ── ids that are not request ids: -32600, id null, no handler ──
  { name: "id true", line: req(true), answer: err(null, -32600), calls: [], diagnostic: null },
  { name: "id 1.5", line: req(1.5), answer: err(null, -32600), calls: [], diagnostic: null },
  { name: "id null", line: req(null), answer: err(null, -32600), calls: [], diagnostic: null },
  { name: "id {}", line: req({}), answer: err(null, -32600), calls: [], diagnostic: null },
  { name: "id []", line: req([]), answer: err(null, -32600), calls: [], diagnostic: null },
  { name: "id 9007199254740993 (beyond 2^53)", line: '{"jsonrpc":"2.0","id":9007199254740993,"method":"_echo"}', answer: err(null, -32600), calls: [], diagnostic: null },
  { name: "id -9007199254740993", line: '{"jsonrpc":"2.0","id":-9007199254740993,"method":"_echo"}', answer: err(null, -32600), calls: [], diagnostic: null },
  { name: "id 1e400 (parses to Infinity)", line: '{"jsonrpc":"2.0","id":1e400,"method":"_echo"}', answer: err(null, -32600), calls: [], diagnostic: null },
  // ── ids that are request ids: echoed unchanged, type included ──
  { name: "id 9007199254740991 (largest safe integer)", line: req(9007199254740991), answer: echo(9007199254740991), calls: ["extMethod:_echo"], diagnostic: null },
  { name: "id -7", line: req(-7), answer: echo(-7), calls: ["extMethod:_echo"], diagnostic: null },
  { name: 'id ""', line: req(""), answer: echo(""), calls: ["extMethod:_echo"], diagnostic: null },
  { name: 'id "7" stays a string', line: req("7"), answer: echo("7"), calls: ["extMethod:_echo"], diagnostic: null },
  { name: "a request ending in \\r\\n", line: `${req(20)}\r`, answer: echo(20), calls: ["extMethod:_echo"], diagnostic: null },
  // ── envelope: -32600 keeping the id ──
  { name: 'jsonrpc "1.0" on initialize', line: '{"jsonrpc":"1.0","method":"initialize","id":5}', answer: err(5, -32600, { data: { errors: [{ path: "/jsonrpc" }] } }), calls: [], diagnostic: null },
  { name: "jsonrpc missing", line: j({ id: 6, method: "_echo" }), answer: err(6, -32600), calls: [], diagnostic: null },
  { name: "jsonrpc the number 2", line: j({ jsonrpc: 2, id: 7, method: "_echo" }), answer: err(7, -32600), calls: [], diagnostic: null },
  { name: "params an array", line: req(8, "_echo", { params: [1, 2] }), answer: err(8, -32600, { data: { errors: [{ path: "/params" }] } }), calls: [], diagnostic: null },
  { name: "params a string", line: req("p", "session/new", { params: "x" }), answer: err("p", -32600), calls: [], diagnostic: null },
  { name: "params null", line: req(9, "session/new", { params: null }), answer: err(9, -32600), calls: [], diagnostic: null },
  // ── unknown methods: -32601 echoing the id ──
  { name: "unknown method", line: req(10, "foo/bar"), answer: err(10, -32601, { data: { method: "foo/bar" } }), calls: [], diagnostic: null },
  { name: '"__proto__" as a method', line: req(11, "__proto__"), answer: err(11, -32601), calls: [], diagnostic: null },
  { name: '"constructor" as a method', line: req(12, "constructor"), answer: err(12, -32601), calls: [], diagnostic: null },
  { name: '"toString" as a method', line: req(13, "toString"), answer: err(13, -32601), calls: [], diagnostic: null },
  { name: "the empty method name", line: req(14, ""), answer: err(14, -32601), calls: [], diagnostic: null },
  { name: "$/cancel_request sent as a request", line: req(15, "$/cancel_request", { params: { requestId: 1 } }), answer: err(15, -32601), calls: [], diagnostic: null },
  { name: "session/cancel sent as a request", line: req(16, "session/cancel", { params: { sessionId: "s" } }), answer: err(16, -32601), calls: [], diagnostic: null },
  { name: "a client method (session/update) sent to the agent", line: req(17, "session/update", { params: {} }), answer: err(17, -32601), calls: [], diagnostic: null },
  { name: "rpc.discover", line: req(18, "rpc.discover"), answer: err(18, -32601), calls: [], diagnostic: null },
  // ── decode ──
  { name: "valid session/new", line: req(19, "session/new", { params: { cwd: "/", mcpServers: [] } }), answer: { id: 19, result: { sessionId: "sess-1" } }, calls: ["newSession"], diagnostic: null },
  { name: "session/new without params", line: req(21, "session/new"), answer: err(21, -32602, { message: "Invalid params", data: { errors: expect.arrayContaining([expect.objectContaining({ path: "/cwd" })]) } }), calls: [], diagnostic: null },
  { name: "session/prompt without prompt", line: req(22, "session/prompt", { params: { sessionId: "s" } }), answer: err(22, -32602, { data: { errors: [{ path: "/prompt" }] } }), calls: [], diagnostic: null },
  { name: "session/load not advertised, invalid params", line: req(23, "session/load", { params: { bogus: 1 } }), answer: err(23, -32601, { data: { reason: expect.stringContaining("agentCapabilities.loadSession") } }), calls: [], diagnostic: null },
  { name: "session/list not advertised", line: req(24, "session/list", { params: {} }), answer: err(24, -32601, { data: { reason: expect.stringContaining("agentCapabilities.sessionCapabilities.list") } }), calls: [], diagnostic: null },
  { name: "logout not advertised", line: req(25, "logout", { params: {} }), answer: err(25, -32601, { data: { reason: expect.stringContaining("agentCapabilities.auth.logout") } }), calls: [], diagnostic: null },
  // ── notifications: never answered ──
  { name: "unknown notification", line: note("foo/bar"), answer: null, calls: [], diagnostic: "unknown_notification" },
  { name: '"__proto__" as a notification', line: note("__proto__", { params: {} }), answer: null, calls: [], diagnostic: "unknown_notification" },
  { name: "a client notification (session/update) sent to the agent", line: note("session/update", { params: { sessionId: "s" } }), answer: null, calls: [], diagnostic: "unknown_notification" },
  { name: "extension notification", line: note("_hello", { params: { n: 1 } }), answer: null, calls: ["extNotification:_hello"], diagnostic: null },
  { name: 'notification with jsonrpc "1.0" (no envelope check)', line: j({ jsonrpc: "1.0", method: "_hello", params: {} }), answer: null, calls: ["extNotification:_hello"], diagnostic: null },
  { name: "session/cancel with invalid params", line: note("session/cancel", { params: { sessionId: 5 } }), answer: null, calls: [], diagnostic: "invalid_notification" },
  { name: "session/cancel without params", line: note("session/cancel"), answer: null, calls: [], diagnostic: "invalid_notification" },
  { name: "$/cancel_request for an unknown id", line: note("$/cancel_request", { params: { requestId: 999 } }), answer: null, calls: [], diagnostic: null },
  // ── responses: never answered ──
  { name: "a response with an unknown id", line: j({ jsonrpc: "2.0", id: 77, result: {} }), answer: null, calls: [], diagnostic: "unknown_response" },
  { name: "an error response with an unknown id", line: j({ jsonrpc: "2.0", id: 78, error: { code: -32603, message: "x" } }), answer: null, calls: [], diagnostic: "unknown_response" },
  { name: "an error response with id null", line: j({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }), answer: null, calls: [], diagnostic: "unknown_response" },
  { name: "a response with both result and error", line: j({ jsonrpc: "2.0", id: 5, result: {}, error: { code: 1, message: "x" } }), answer: null, calls: [], diagnostic: "unknown_response" },
  { name: "a result with id true", line: j({ jsonrpc: "2.0", id: true, result: 1 }), answer: null, calls: [], diagnostic: "unknown_response" },
  // ── unknown shapes: -32600, id null ──
  { name: '{"jsonrpc":"2.0","id":42}', line: '{"jsonrpc":"2.0","id":42}', answer: err(null, -32600), calls: [], diagnostic: "unknown_message" },
  { name: "{}", line: "{}", answer: err(null, -32600), calls: [], diagnostic: "unknown_message" },
  { name: "a method that is not a string (id not echoed)", line: j({ jsonrpc: "2.0", id: 1, method: 5 }), answer: err(null, -32600), calls: [], diagnostic: "unknown_message" },
  { name: "the scalar 42", line: "42", answer: err(null, -32600), calls: [], diagnostic: "unknown_message" },
  { name: "a JSON string", line: '"hello"', answer: err(null, -32600), calls: [], diagnostic: "unknown_message" },
  { name: "null", line: "null", answer: err(null, -32600), calls: [], diagnostic: "unknown_message" },
  // ── batches (default "reject"): one -32600, id null, nothing runs ──
  { name: "the empty batch []", line: "[]", answer: err(null, -32600), calls: [], diagnostic: "batch" },
  {
    name: "a batch of valid requests",
    line: j([
      { jsonrpc: "2.0", id: 1, method: "_echo" },
      { jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: "/", mcpServers: [] } },
    ]),
    answer: err(null, -32600),
    calls: [],
    diagnostic: "batch",
  },
  { name: "the batch [1]", line: "[1]", answer: err(null, -32600), calls: [], diagnostic: "batch" },
  // ── parse errors: -32700, id null ──
  { name: "truncated JSON", line: '{"jsonrpc":"2.0","id":1,', answer: err(null, -32700), calls: [], diagnostic: "parse_error" },
  { name: "JSON followed by garbage", line: `${req(1)} x`, answer: err(null, -32700), calls: [], diagnostic: "parse_error" },
  { name: "a log line on the wire", line: "Starting agent...", answer: err(null, -32700), calls: [], diagnostic: "parse_error" },
  { name: "nesting deeper than maxDepth", line: deep, answer: err(null, -32700), calls: [], diagnostic: "parse_error" },
  { name: "a blank line", line: " \t ", answer: null, calls: [], diagnostic: null },
  // ── the initialization gate ──
  { name: "session/new before initialize", line: req(30, "session/new", { params: { cwd: "/", mcpServers: [] } }), answer: err(30, -32600), calls: [], diagnostic: null, beforeInit: true },
  { name: "an extension request before initialize", line: req(31), answer: err(31, -32600), calls: [], diagnostic: null, beforeInit: true },
  { name: "an unknown method before initialize", line: req(32, "foo/bar"), answer: err(32, -32600), calls: [], diagnostic: null, beforeInit: true },
  { name: "a gated method with invalid params before initialize", line: req(33, "session/load", { params: {} }), answer: err(33, -32600), calls: [], diagnostic: null, beforeInit: true },
  { name: 'initialize with jsonrpc "1.0" before initialize', line: '{"jsonrpc":"1.0","method":"initialize","id":5}', answer: err(5, -32600), calls: [], diagnostic: null, beforeInit: true },
  { name: "id true before initialize", line: req(true, "initialize"), answer: err(null, -32600), calls: [], diagnostic: null, beforeInit: true },
];

describe("an agent connection fed raw lines", () => {
  it("has a table of at least 40 rows", () => {
    expect(table.length).toBeGreaterThanOrEqual(40);
  });

  it.each(table)("answers $name as the table says", async (row) => {
    const agent = testAgent();
    const d = rawAgent(agent.handler);
    if (!row.beforeInit) await d.initialize();
    agent.calls.length = 0;
    d.diagnostics.length = 0;

    d.send(row.line);
    const written = await d.sync(); // the probe after the row is still served

    expect(written).toHaveLength(row.answer === null ? 0 : 1);
    if (row.answer !== null) {
      const answer = written[0] as WireLine;
      expect(answer).toMatchObject({ jsonrpc: "2.0", ...row.answer });
      if (answer.error !== undefined) {
        expect(Number.isInteger(answer.error.code)).toBe(true);
        expect(typeof answer.error.message).toBe("string");
        expect(answer.error.message).not.toContain("\n");
      }
    }
    expect(agent.calls).toEqual(row.calls);
    expect(d.diagnostics.map((x) => x.kind)).toEqual(row.diagnostic === null ? [] : [row.diagnostic]);
    d.end();
  });

  it("serves the line after invalid JSON", async () => {
    const agent = testAgent();
    const d = rawAgent(agent.handler);
    await d.initialize();
    d.write(`{not json\n${req(1)}\n`);
    expect(await d.next()).toMatchObject({ id: null, error: { code: -32700 } });
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { method: "_echo", params: {} } });
  });
});

describe("a client connection fed session/update notifications", () => {
  it("drops one with invalid params without answering, with one invalid_notification diagnostic", async () => {
    const client = testClient();
    const d = await initializedRawClient(client.handler);
    d.send(note("session/update", { params: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk" } } }));
    expect(await d.sync()).toEqual([]);
    expect(client.calls).toEqual([]);
    expect(d.diagnostics.map((x) => x.kind)).toEqual(["invalid_notification"]);
  });

  it("repairs a lenient field (messageId: 5) and delivers the update, with one repaired diagnostic", async () => {
    const seen: unknown[] = [];
    const client = testClient({ sessionUpdate: (n) => void seen.push(n.update) });
    const d = await initializedRawClient(client.handler);
    const created = d.conn.agent.newSession({ cwd: "/", mcpServers: [] });
    d.send({ jsonrpc: "2.0", id: (await d.next()).id, result: { sessionId: "s" } });
    await created;
    d.send(note("session/update", { params: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" }, messageId: 5 } } }));
    expect(await d.sync()).toEqual([]);
    expect(seen).toEqual([{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } }]);
    expect(d.diagnostics.map((x) => x.kind)).toEqual(["repaired"]);
  });
});

describe("a response to a pending call", () => {
  it('matches by id and type: "0" does not answer request 0', async () => {
    const d = await initializedRawClient(testClient().handler);
    let settled: unknown;
    const call = d.conn.request("_x", {}).then((r) => (settled = r));
    const sent = await d.next();
    expect(sent.id).toBe(1);
    d.send({ jsonrpc: "2.0", id: String(sent.id), result: { wrong: true } });
    expect(await d.sync()).toEqual([]);
    expect(settled).toBeUndefined();
    expect(d.diagnostics.map((x) => x.kind)).toEqual(["unknown_response"]);
    d.send({ jsonrpc: "2.0", id: sent.id, result: { right: true } });
    expect(await call).toEqual({ right: true });
  });
});

describe("classify and rejectionId", () => {
  const units: readonly [string, unknown, MessageKind, unknown][] = [
    ["a request with an integer id", { jsonrpc: "2.0", id: 1, method: "m" }, "request", 1],
    ["a request with a string id", { jsonrpc: "2.0", id: "a", method: "m" }, "request", "a"],
    ["a request with id 0", { id: 0, method: "m" }, "request", 0],
    ["a request with a negative id", { id: -3, method: "m" }, "request", -3],
    ["a request with a bad envelope (still a request)", { jsonrpc: "1.0", id: 5, method: "m" }, "request", 5],
    ["id null", { id: null, method: "m" }, "unidentified_request", null],
    ["id true", { id: true, method: "m" }, "unidentified_request", null],
    ["id 1.5", { id: 1.5, method: "m" }, "unidentified_request", null],
    ["id {}", { id: {}, method: "m" }, "unidentified_request", null],
    ["id []", { id: [], method: "m" }, "unidentified_request", null],
    ["id 2^53 + 2", { id: 2 ** 53 + 2, method: "m" }, "unidentified_request", null],
    ["id NaN", { id: Number.NaN, method: "m" }, "unidentified_request", null],
    ["a notification", { jsonrpc: "2.0", method: "m" }, "notification", null],
    ["a notification with params", { method: "m", params: {} }, "notification", null],
    ["a result", { id: 1, result: null }, "response", null],
    ["a result with a string id", { id: "1", result: {} }, "response", null],
    ["an error", { id: 1, error: { code: 1, message: "x" } }, "response", null],
    ["an error with id null", { id: null, error: { code: 1, message: "x" } }, "unknown", null],
    ["a result with id 1.5", { id: 1.5, result: 1 }, "unknown", null],
    ["both result and error", { id: 1, result: 1, error: {} }, "unknown", null],
    ["neither method, result nor error", { jsonrpc: "2.0", id: 42 }, "unknown", null],
    ["a numeric method", { id: 1, method: 5 }, "unknown", null],
    ["the empty object", {}, "unknown", null],
    ["a number", 42, "unknown", null],
    ["a string", "x", "unknown", null],
    ["null", null, "unknown", null],
    ["an array", [{ id: 1, method: "m" }], "unknown", null],
  ];

  it.each(units)("classifies %s", (_name, body, kind, id) => {
    expect(classify(body)).toBe(kind);
    expect(rejectionId(classify(body), body)).toStrictEqual(id);
  });

  it("accepts as request ids exactly the strings and the safe integers", () => {
    expect([1, -1, 0, "", "x", Number.MAX_SAFE_INTEGER].every(isRequestId)).toBe(true);
    expect([1.5, Number.MAX_SAFE_INTEGER + 1, Infinity, Number.NaN, null, true, {}, [], undefined].some(isRequestId)).toBe(false);
  });

  it("echoes an id only for a request, for any JSON body", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.option(fc.string(), { nil: undefined }), (id, method) => {
        const body = method === undefined ? { id } : { id, method };
        const kind = classify(body);
        const rid = rejectionId(kind, body);
        if (kind === "request") expect(rid).toBe(id);
        else expect(rid).toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});
