// A transport may hand a connection framed, parsed messages (`TransportReceiver.message`) instead of
// bytes: the remote server does, having parsed and classified each message to route it. The
// connection then runs the rest of the same pipeline — batches, parse failures, the line limit and
// arrival order included — without parsing or classifying again; a receiver without `message`
// gets the line as bytes.
import { describe, expect, it } from "vitest";
import { connectAgent, connectClient, type Diagnostic, type Transport, type TransportReceiver } from "../../src/index.ts";
import { classify } from "../../src/jsonrpc/classify.ts";
import { parseValue } from "../../src/jsonrpc/parse.ts";
import { deliverMessage } from "../../src/transport/transport.ts";
import { turn } from "../support/async.ts";
import { params, testAgent, testClient } from "../support/handlers.ts";

/** A transport the test drives: what the connection wrote, and its receiver. */
function drivenTransport(): { transport: Transport; written: unknown[]; receiver(): TransportReceiver } {
  let receiver: TransportReceiver | undefined;
  const written: unknown[] = [];
  const transport: Transport = {
    start: (r) => void (receiver = r),
    write: (text) => {
      for (const line of text.split("\n")) if (line !== "") written.push(JSON.parse(line));
    },
    close: () => {},
  };
  return { transport, written, receiver: () => receiver as TransportReceiver };
}

/** Parses and classifies `text` as the remote server does, and hands it over parsed. */
function send(receiver: TransportReceiver, text: string): void {
  const value = parseValue(text);
  const kind = value !== null && typeof value === "object" && !Array.isArray(value) ? classify(value) : undefined;
  deliverMessage(receiver, value, text, kind);
}

const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: params.initialize() });

describe("a connection fed parsed messages", () => {
  it("offers `message` on its receiver and answers what arrives through it", async () => {
    const t = drivenTransport();
    connectAgent(testAgent().handler, t.transport);
    expect(typeof t.receiver().message).toBe("function");
    send(t.receiver(), initialize);
    await turn();
    expect(t.written).toEqual([{ jsonrpc: "2.0", id: 1, result: { protocolVersion: 1, agentCapabilities: {} } }]);
  });

  it("answers a parse failure -32700 with a parse_error diagnostic, as for a line", async () => {
    const t = drivenTransport();
    const diagnostics: Diagnostic[] = [];
    connectAgent(testAgent().handler, t.transport, { onDiagnostic: (d) => diagnostics.push(d) });
    send(t.receiver(), "{not json");
    await turn();
    expect(t.written).toMatchObject([{ jsonrpc: "2.0", id: null, error: { code: -32700 } }]);
    expect(diagnostics.map((d) => d.kind)).toEqual(["parse_error"]);
  });

  it("handles a batch as a line's batch (v1 rejects it with one -32600)", async () => {
    const t = drivenTransport();
    connectAgent(testAgent().handler, t.transport);
    send(t.receiver(), `[${initialize}]`);
    await turn();
    expect(t.written).toMatchObject([{ jsonrpc: "2.0", id: null, error: { code: -32600 } }]);
  });

  it("holds a message to maxMessageBytes: a longer one is answered -32700 and skipped", async () => {
    const t = drivenTransport();
    const handler = testAgent();
    connectAgent(handler.handler, t.transport, { maxMessageBytes: 64 });
    send(t.receiver(), initialize);
    await turn();
    expect(t.written).toMatchObject([{ jsonrpc: "2.0", id: null, error: { code: -32700 } }]);
    expect(handler.calls).toEqual([]);
  });

  it("keeps arrival order: after a response settles a call, the next message waits for the caller's continuation", async () => {
    const t = drivenTransport();
    const order: string[] = [];
    const conn = connectClient(testClient({ extNotification: () => void order.push("notification") }).handler, t.transport);
    const answered = conn.agent.initialize(params.initialize()).then(() => void order.push("answered"));
    send(t.receiver(), JSON.stringify({ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1, agentCapabilities: {} } }));
    send(t.receiver(), JSON.stringify({ jsonrpc: "2.0", method: "_example.com/after", params: {} }));
    await answered;
    await turn();
    expect(order).toEqual(["answered", "notification"]);
  });

  it("a receiver without `message` (a wrapper reading bytes) gets the line as bytes", () => {
    const chunks: string[] = [];
    deliverMessage({ data: (chunk) => void chunks.push(String(chunk)), end: () => {} }, { jsonrpc: "2.0", method: "x" }, '{"jsonrpc":"2.0","method":"x"}');
    expect(chunks).toEqual(['{"jsonrpc":"2.0","method":"x"}\n']);
  });
});
