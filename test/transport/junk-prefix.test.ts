// Issue 20 item 13: output before a message on the agent's stdout line (a terminal escape, a shell
// greeting) — recovered on the client's read path when asked (spawnAgent asks), strict otherwise.
import { describe, expect, it } from "vitest";
import { connectAgent, connectClient, type Diagnostic, type Transport, type TransportReceiver } from "../../src/index.ts";
import { createFramer } from "../../src/transport/framer.ts";
import { params, testAgent, testClient } from "../support/handlers.ts";

/** A transport the test feeds by hand; `written` is everything the connection wrote. */
function handFed(recoverPrefixedLines?: boolean) {
  let receiver: TransportReceiver | undefined;
  const written: string[] = [];
  const transport: Transport = {
    start: (r) => void (receiver = r),
    write: (text) => void written.push(text),
    close: () => receiver?.end(),
    ...(recoverPrefixedLines === undefined ? {} : { recoverPrefixedLines }),
  };
  return {
    transport,
    written,
    feed: (text: string) => receiver?.data(text),
    lines: () =>
      written
        .join("")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const INIT_RESULT = '{"jsonrpc":"2.0","id":ID,"result":{"protocolVersion":1,"agentCapabilities":{},"authMethods":[]}}';

async function initializeThrough(prefix: string, recover: { transport?: boolean; option?: boolean }) {
  const wire = handFed(recover.transport);
  const diagnostics: Diagnostic[] = [];
  const conn = connectClient(testClient().handler, wire.transport, { onDiagnostic: (d) => diagnostics.push(d), ...(recover.option === undefined ? {} : { recoverPrefixedLines: recover.option }) });
  let answer: unknown = "pending";
  void conn.agent.initialize(params.initialize()).then(
    (a) => (answer = a),
    (e: Error) => (answer = e.message),
  );
  await tick();
  const id = wire.lines()[0]?.id;
  wire.feed(`${prefix}${INIT_RESULT.replace("ID", String(id))}\n`);
  await tick();
  conn.close();
  return { answer, diagnostics: diagnostics.filter((d) => d.kind === "parse_error"), sentBack: wire.lines().slice(1) };
}

describe("a JSON-RPC message after junk on the same line", () => {
  it("is recovered with a parse_error diagnostic when the transport asks for it (as spawnAgent's does)", async () => {
    const r = await initializeThrough("\u001b[1 q", { transport: true });
    expect(r.answer).toEqual({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] });
    expect(r.diagnostics).toEqual([{ kind: "parse_error", message: 'recovered a message after 5 characters of non-JSON output before it on the same line: "\\u001b[1 q"', data: { prefix: "\u001b[1 q" } }]);
    expect(r.sentBack).toEqual([]);
  });

  it("is recovered after a greeting, when the connection option asks for it", async () => {
    const r = await initializeThrough("Welcome back, stub! ", { option: true });
    expect({ answer: r.answer, prefixes: r.diagnostics.map((d) => d.data) }).toEqual({ answer: { protocolVersion: 1, agentCapabilities: {}, authMethods: [] }, prefixes: [{ prefix: "Welcome back, stub! " }] });
  });

  it("stays a parse error answered -32700 by default, and the call stays pending (today's behaviour)", async () => {
    const r = await initializeThrough("\u001b[1 q", {});
    expect(r.answer).toBe("pending");
    expect(r.diagnostics.map((d) => d.message)).toEqual([expect.stringMatching(/^unparsable line/)]);
    expect(r.sentBack).toMatchObject([{ id: null, error: { code: -32700 } }]);
  });

  it("stays a parse error when the option turns it off over the transport's default", async () => {
    const r = await initializeThrough("\u001b[1 q", { transport: true, option: false });
    expect(r.answer).toBe("pending");
  });

  it("is never recovered on the agent side: an agent reading a client stays strict", async () => {
    const wire = handFed(true);
    connectAgent(testAgent().handler, wire.transport, { recoverPrefixedLines: true });
    wire.feed(`\u001b[1 q${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: params.initialize() })}\n`);
    await tick();
    expect(wire.lines()).toMatchObject([{ id: null, error: { code: -32700 } }]);
  });
});

describe("createFramer with recoverPrefixed", () => {
  const frame = (text: string, recover: boolean) => {
    const out: string[] = [];
    const f = createFramer({ line: (l) => void out.push(l), oversized: () => undefined, prefixed: (p) => void out.push(`prefix ${JSON.stringify(p)}`) }, 1000, 0, recover);
    for (const ch of text) f.push(ch); // one character per chunk: boundaries do not matter
    f.end();
    return out;
  };

  it('cuts what comes before {"jsonrpc" and leaves lines that start with a message, whitespace before one, or hold none alone', () => {
    const text = 'hello there\n\u001b]0;title\u0007{ "jsonrpc" :"2.0","id":1}\n  {"jsonrpc":"2.0"}\n{"x":"{\\"jsonrpc\\":"}\n[1]\nnot {"json":1}';
    expect(frame(text, true)).toEqual(["hello there", 'prefix "\\u001b]0;title\\u0007"', '{ "jsonrpc" :"2.0","id":1}', '  {"jsonrpc":"2.0"}', '{"x":"{\\"jsonrpc\\":"}', "[1]", 'not {"json":1}']);
    expect(frame(text, false)).toEqual(["hello there", '\u001b]0;title\u0007{ "jsonrpc" :"2.0","id":1}', '  {"jsonrpc":"2.0"}', '{"x":"{\\"jsonrpc\\":"}', "[1]", 'not {"json":1}']);
  });
});
