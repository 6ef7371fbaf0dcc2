// What each failure looks like on the wire and in diagnostics: one row per case, asserting the
// exact answer written (or that nothing was written) and the exact diagnostics reported. These
// are the statements docs/security.md makes, checked against the code.
import { afterEach, describe, expect, it, vi } from "vitest";
import { connectAgent, connectClient, RpcError } from "../../src/index.ts";
import type { ClientHandler, Diagnostic } from "../../src/index.ts";
import { countingAgent, countingClient, rawWire, turn, type Answer } from "./support.ts";

function agent(options: { exposeErrors?: boolean; logErrors?: boolean } = {}) {
  const handler = countingAgent();
  handler.initialize = () => ({ protocolVersion: 1, agentCapabilities: {} });
  handler.extMethod = () => {
    throw new Error("secret path /home/me/.ssh");
  };
  const wire = rawWire();
  const diagnostics: Diagnostic[] = [];
  connectAgent(handler, wire.transport, { ...options, onDiagnostic: (d) => void diagnostics.push(d) });
  wire.send({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: 1 } });
  wire.take();
  return { wire, diagnostics };
}

async function client(handler: Partial<ClientHandler> = {}) {
  const wire = rawWire();
  const diagnostics: Diagnostic[] = [];
  const conn = connectClient({ ...countingClient(), ...handler }, wire.transport, { onDiagnostic: (d) => void diagnostics.push(d) });
  const init = conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
  wire.take();
  wire.send({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, agentCapabilities: {} } });
  await init;
  diagnostics.length = 0;
  return { wire, diagnostics, conn };
}

/**
 * What this JavaScript engine's JSON.parse says about `text`. The reason we send is the parser's
 * own message, whose wording differs between V8 versions (Node 22 appends "(line 1 column 2)"):
 * the rows assert our framing around it, not the engine's text.
 */
function engineSays(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError && error.message !== "") return error.message;
  }
  throw new Error(`JSON.parse accepted ${text} or threw no SyntaxError message`);
}

const err = (id: unknown, code: number, message: string, data?: unknown): Answer => ({ jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } });

describe("what an agent answers and reports for each kind of bad line", () => {
  const rows: [string, string, Answer[], Pick<Diagnostic, "kind" | "message" | "data" | "error">[]][] = [
    ["invalid JSON", "{oops", [err(null, -32700, "Parse error", { reason: engineSays("{oops") })], [{ kind: "parse_error", message: `unparsable line: ${engineSays("{oops")}` }]],
    ["nesting deeper than maxDepth", `${"[".repeat(129)}${"]".repeat(129)}`, [err(null, -32700, "Parse error", { reason: "nesting deeper than 128 levels" })], [{ kind: "parse_error", message: "unparsable line: nesting deeper than 128 levels" }]],
    ["a batch", '[{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}]', [err(null, -32600, "Invalid request: batches are not supported")], [{ kind: "batch", message: 'batch of 1 rejected (batches: "reject")' }]],
    ["an empty batch", "[]", [err(null, -32600, "Invalid request: empty batch")], [{ kind: "batch", message: "empty batch rejected" }]],
    ["a scalar", "5", [err(null, -32600, "Invalid request: not a JSON-RPC 2.0 message")], [{ kind: "unknown_message", message: "message is neither a request, a notification nor a response" }]],
    ["an object without method, result or error", '{"jsonrpc":"2.0","id":3}', [err(null, -32600, "Invalid request: not a JSON-RPC 2.0 message")], [{ kind: "unknown_message", message: "message is neither a request, a notification nor a response" }]],
    ["a request whose id is null", '{"jsonrpc":"2.0","id":null,"method":"session/new"}', [err(null, -32600, "Invalid request: id must be a string or an integer")], []],
    ["a request whose id is a fraction", '{"jsonrpc":"2.0","id":1.5,"method":"session/new"}', [err(null, -32600, "Invalid request: id must be a string or an integer")], []],
    ["a response to an unknown id", '{"jsonrpc":"2.0","id":99,"result":{}}', [], [{ kind: "unknown_response", message: "response for unknown request id 99 dropped" }]],
    ["a response-shaped message without a usable id", '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}', [], [{ kind: "unknown_response", message: "response-shaped message without a usable id dropped", data: { id: null } }]],
    ["an unknown notification", '{"jsonrpc":"2.0","method":"foo/bar","params":{}}', [], [{ kind: "unknown_notification", message: 'ignored notification "foo/bar"' }]],
    ["session/cancel without a sessionId", '{"jsonrpc":"2.0","method":"session/cancel","params":{}}', [], [{ kind: "invalid_notification", message: 'dropped "session/cancel" without a string sessionId' }]],
    [
      "a malformed envelope (keeps its id)",
      '{"jsonrpc":"1.0","id":4,"method":"session/new","params":[1]}',
      [
        err(4, -32600, 'Invalid request: jsonrpc must be "2.0"; params must be an object when present', {
          errors: [
            { path: "/jsonrpc", message: 'must be "2.0"' },
            { path: "/params", message: "must be an object when present" },
          ],
        }),
      ],
      [],
    ],
    ["an unknown method", '{"jsonrpc":"2.0","id":5,"method":"foo/bar"}', [err(5, -32601, "Method not found", { method: "foo/bar" })], []],
    [
      "invalid params",
      '{"jsonrpc":"2.0","id":6,"method":"session/new","params":{"cwd":5}}',
      [
        err(6, -32602, "Invalid params", {
          errors: [
            { path: "/mcpServers", message: "is required" },
            { path: "/cwd", message: "must be string" },
          ],
        }),
      ],
      [],
    ],
    [
      "a method gated by a capability the agent did not advertise",
      '{"jsonrpc":"2.0","id":7,"method":"session/load","params":{"sessionId":"s","cwd":"/","mcpServers":[]}}',
      [err(7, -32601, "Method not found", { method: "session/load", reason: "agentCapabilities.loadSession was not advertised by the agent" })],
      [],
    ],
    [
      "params needing a lenient repair",
      '{"jsonrpc":"2.0","id":8,"method":"session/new","params":{"cwd":"/","mcpServers":[],"_meta":5}}',
      [{ jsonrpc: "2.0", id: 8, result: { sessionId: "s1" } }],
      [{ kind: "repaired", message: 'repaired the params of "session/new"', data: { id: 8, repairs: [{ path: "/_meta", action: "removed" }] } }],
    ],
    [
      "a handler that throws (internals not sent)",
      '{"jsonrpc":"2.0","id":9,"method":"_x/throw","params":{}}',
      [err(9, -32603, "Internal error")],
      [{ kind: "handler_error", message: 'handler of "_x/throw" threw', data: "Error: secret path /home/me/.ssh", error: new Error("secret path /home/me/.ssh") }],
    ],
  ];

  it.each(rows)("%s", (_name, line, answers, diagnostics) => {
    const a = agent();
    a.wire.send(line);
    expect(a.wire.take()).toEqual(answers);
    expect(a.diagnostics).toEqual(diagnostics);
  });

  it("sends the handler's error message only with exposeErrors", () => {
    const a = agent({ exposeErrors: true });
    a.wire.send({ jsonrpc: "2.0", id: 1, method: "_x/throw", params: {} });
    expect(a.wire.take()).toEqual([err(1, -32603, "Internal error", { details: "secret path /home/me/.ssh" })]);
  });

  it("answers every request before initialize -32600 with its id", () => {
    const wire = rawWire();
    connectAgent(countingAgent(), wire.transport);
    wire.send({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/", mcpServers: [] } });
    expect(wire.take()).toEqual([err(1, -32600, "Not initialized: the first request must be initialize")]);
  });

  it("answers session/* -32000 until authenticate succeeded, with authRequired", () => {
    const wire = rawWire();
    connectAgent(countingAgent(), wire.transport, { authRequired: true });
    wire.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1 } });
    wire.send({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: "/", mcpServers: [] } });
    wire.send({ jsonrpc: "2.0", id: 2, method: "authenticate", params: { methodId: "token" } });
    wire.send({ jsonrpc: "2.0", id: 3, method: "session/new", params: { cwd: "/", mcpServers: [] } });
    expect(wire.take().map((a) => [a.id, a.error?.code ?? "ok"])).toEqual([
      [0, "ok"],
      [1, -32000],
      [2, "ok"],
      [3, "ok"],
    ]);
  });
});

describe("what a client reports for each kind of bad notification or answer", () => {
  it("drops a notification gated by a capability it did not advertise (gated_notification)", async () => {
    const c = await client();
    c.wire.send({ jsonrpc: "2.0", method: "elicitation/complete", params: { elicitationId: "e1" } });
    await turn();
    expect(c.wire.take()).toEqual([]);
    expect(c.diagnostics).toEqual([{ kind: "gated_notification", message: 'dropped "elicitation/complete": clientCapabilities.elicitation was not advertised by the client' }]);
  });

  it("drops a notification with invalid params, never answering it (invalid_notification)", async () => {
    const c = await client();
    c.wire.send({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk" } } });
    await turn();
    expect(c.wire.take()).toEqual([]);
    expect(c.diagnostics).toEqual([{ kind: "invalid_notification", message: 'dropped "session/update" with invalid params', data: { errors: [{ path: "/update/content", message: "is required" }] } }]);
  });

  it("delivers an update for a session it never opened, with a diagnostic (unknown_session)", async () => {
    const seen: unknown[] = [];
    const c = await client({ sessionUpdate: (p) => void seen.push(p.sessionId) });
    c.wire.send({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "ghost", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "boo" } } } });
    await turn();
    expect(seen).toEqual(["ghost"]);
    expect(c.diagnostics.map((d) => d.kind)).toEqual(["unknown_session"]);
  });

  it("reports a notification handler that throws, and never answers it (handler_error)", async () => {
    const c = await client({
      sessionUpdate: () => {
        throw new Error("renderer crashed");
      },
    });
    c.wire.send({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } } } });
    await turn();
    expect(c.wire.take()).toEqual([]);
    expect(c.diagnostics.filter((d) => d.kind === "handler_error")).toEqual([{ kind: "handler_error", message: "a notification handler threw", data: "Error: renderer crashed", error: new Error("renderer crashed") }]);
  });

  it("drops a gated notification it advertised but has no handler method for, with no handler_error", async () => {
    const wire = rawWire();
    const diagnostics: Diagnostic[] = [];
    const conn = connectClient(countingClient(), wire.transport, { onDiagnostic: (d) => void diagnostics.push(d) });
    const init = conn.agent.initialize({ protocolVersion: 1, clientCapabilities: { elicitation: { form: {} } } });
    wire.take();
    wire.send({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, agentCapabilities: {} } });
    await init;
    diagnostics.length = 0;
    wire.send({ jsonrpc: "2.0", method: "elicitation/complete", params: { elicitationId: "e1" } });
    await turn();
    expect(wire.take()).toEqual([]);
    expect(diagnostics).toEqual([]);
  });

  it("reports a notification handler that rejects, and never answers it (handler_error)", async () => {
    const c = await client({ sessionUpdate: () => Promise.reject(new Error("async renderer crash")) });
    c.wire.send({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } } } });
    await turn();
    expect(c.wire.take()).toEqual([]);
    expect(c.diagnostics.filter((d) => d.kind === "handler_error")).toEqual([{ kind: "handler_error", message: "a notification handler failed", data: "Error: async renderer crash", error: new Error("async renderer crash") }]);
  });

  it("answers the agent's requests -32600 until its own initialize was answered", () => {
    const wire = rawWire();
    const conn = connectClient(countingClient(), wire.transport);
    void conn.agent.initialize({ protocolVersion: 1 });
    wire.take();
    wire.send({ jsonrpc: "2.0", id: "early", method: "session/request_permission", params: { sessionId: "s1", toolCall: { toolCallId: "t" }, options: [] } });
    expect(wire.take()).toEqual([err("early", -32600, "Not initialized: the first request must be initialize")]);
  });

  it("rejects a call whose result is invalid with -32603 naming the method (invalid_result)", async () => {
    const c = await client();
    const call = c.conn.agent.newSession({ cwd: "/", mcpServers: [] });
    const [sent] = c.wire.take();
    c.wire.send({ jsonrpc: "2.0", id: sent?.id, result: { sessionId: 42 } });
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32603, message: 'Invalid result for "session/new" from the agent', data: { errors: [{ path: "/sessionId", message: "must be string" }] } });
    expect(c.diagnostics).toEqual([{ kind: "invalid_result", message: 'invalid result for "session/new"', data: { errors: [{ path: "/sessionId", message: "must be string" }] } }]);
  });

  it("reports sending a method the peer does not handle, and sends it anyway (unknown_message)", async () => {
    const c = await client();
    void c.conn.request("session/unknown" as never, {} as never).catch(() => {});
    expect(c.wire.take().map((m) => m.method)).toEqual(["session/unknown"]);
    expect(c.diagnostics).toEqual([{ kind: "unknown_message", message: 'sending "session/unknown", which the agent does not handle in the method table' }]);
  });

  it('closes with reason "closed by this side" when close() is called without one, rejecting pending calls with it', async () => {
    const c = await client();
    const call = c.conn.request("_x/wait", {});
    c.conn.close();
    await expect(call).rejects.toThrow("connection closed: closed by this side");
    expect(c.diagnostics).toEqual([{ kind: "closed", message: "connection closed: closed by this side" }]);
  });

  it("reports the close with its reason (closed), and a failing onDiagnostic hook breaks nothing", async () => {
    const wire = rawWire();
    const seen: string[] = [];
    const conn = connectClient(countingClient(), wire.transport, {
      onDiagnostic: (d) => {
        seen.push(d.kind);
        throw new Error("logger down");
      },
    });
    wire.send("not json");
    wire.end(new Error("ECONNRESET"));
    expect(await conn.closed).toMatchObject({ reason: "ECONNRESET" });
    expect(seen).toEqual(["parse_error", "closed"]);
    expect(wire.take()).toEqual([err(null, -32700, "Parse error", { reason: expect.any(String) as unknown })]);
  });
});

describe("what a handler error carries, and where logErrors writes it", () => {
  const prompt = '{"jsonrpc":"2.0","id":9,"method":"_x/throw","params":{}}';
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Spies on both standard streams; the spies write nothing. */
  function streams() {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    return { stderr, stdout };
  }

  it("hands onDiagnostic the thrown value itself, stack included, next to the one-line data", () => {
    const a = agent();
    a.wire.send(prompt);
    const [diagnostic] = a.diagnostics;
    expect(diagnostic?.data).toBe("Error: secret path /home/me/.ssh");
    expect(diagnostic?.error).toBeInstanceOf(Error);
    expect((diagnostic?.error as Error).stack).toContain("secret path /home/me/.ssh");
    expect((diagnostic?.error as Error).stack).toMatch(/diagnostics\.test\.ts/);
  });

  it("writes nothing to stderr without logErrors", () => {
    const { stderr, stdout } = streams();
    agent().wire.send(prompt);
    expect(stderr).not.toHaveBeenCalled();
    expect(stdout).not.toHaveBeenCalled();
  });

  it("with logErrors, writes the handler error and its stack to stderr, never stdout", () => {
    const { stderr, stdout } = streams();
    const a = agent({ logErrors: true });
    a.wire.send(prompt);
    expect(a.wire.take()).toEqual([err(9, -32603, "Internal error")]);
    expect(stderr).toHaveBeenCalledTimes(1);
    const text = String(stderr.mock.calls[0]?.[0]);
    expect(text.startsWith('acp-router: handler of "_x/throw" threw: Error: secret path /home/me/.ssh\n    at ')).toBe(true);
    expect(text).toMatch(/diagnostics\.test\.ts/);
    expect(stdout).not.toHaveBeenCalled();
  });

  it("with logErrors, logs a failing notification handler too, and still reports it", async () => {
    const { stderr, stdout } = streams();
    const wire = rawWire();
    const diagnostics: Diagnostic[] = [];
    const conn = connectClient({ ...countingClient(), sessionUpdate: () => Promise.reject(new TypeError("bad chunk")) }, wire.transport, { logErrors: true, onDiagnostic: (d) => void diagnostics.push(d) });
    const init = conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
    wire.take();
    wire.send({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, agentCapabilities: {} } });
    await init;
    wire.send({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } } } });
    await turn();
    expect(String(stderr.mock.calls.at(-1)?.[0])).toMatch(/^acp-router: a notification handler failed: TypeError: bad chunk\n {4}at /);
    expect(diagnostics.filter((d) => d.kind === "handler_error").map((d) => d.error)).toEqual([new TypeError("bad chunk")]);
    expect(stdout).not.toHaveBeenCalled();
  });
});
