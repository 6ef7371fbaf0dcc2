// Conformance: transports (docs/protocol/v1/transports.mdx). Test names carry the catalogue ids
// of docs/conformance-catalogue.json; the stdio subprocess requirements (TRANSPORT-001, -102,
// -103, SHUTDOWN-001) are bound to the subprocess tests in test/connection/stdio.test.ts.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { connectAgent, connectClient, type Transport, type TransportReceiver } from "../../src/index.ts";
import { nodeStreamTransport } from "../../src/transport/stdio.ts";
import { until, within } from "../support/async.ts";
import { chunkText, params, testAgent, testClient } from "../support/handlers.ts";
import { rawAgent } from "../support/raw-peer.ts";
import { bytePipe, notification, request, type ByteTransportKind } from "./support.ts";

const kinds: ByteTransportKind[] = ["nodeStreamTransport", "webStreamTransport"];
const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** Lines of `bytes`, decoded as strict UTF-8 (throws on an invalid sequence), parsed. */
function linesOf(bytes: Uint8Array): unknown[] {
  const text = strictUtf8.decode(bytes);
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line) as unknown);
}

describe("UTF-8 on the wire", () => {
  it.each(kinds)("[ACP-TRANSPORT-002] decodes a request fed one byte at a time, multi-byte characters included, and answers in UTF-8 (%s)", async (kind) => {
    const text = "héllo — 世界 🌍";
    const seen: unknown[] = [];
    const pipe = bytePipe(kind);
    connectAgent(testAgent({ extMethod: (_m, p) => (seen.push(p), { echo: p.text }) }).handler, pipe.transport);
    const bytes = utf8.encode(`${JSON.stringify(request(1, "initialize", params.initialize()))}\n${JSON.stringify(request(2, "_echo", { text }))}\n`);
    for (let i = 0; i < bytes.length; i++) await pipe.feed(bytes.subarray(i, i + 1));
    await until(() => linesCount(pipe.output()) === 2, "two answers");
    expect(seen).toEqual([{ text }]);
    expect(linesOf(pipe.output())[1]).toEqual({ jsonrpc: "2.0", id: 2, result: { echo: text } });
  });

  it.each(kinds)("[ACP-TRANSPORT-002] turns invalid UTF-8 bytes into U+FFFD instead of losing the line (%s)", async (kind) => {
    const seen: unknown[] = [];
    const pipe = bytePipe(kind);
    connectAgent(testAgent({ extMethod: (_m, p) => (seen.push(p.text), {}) }).handler, pipe.transport);
    await pipe.feed(utf8.encode(`${JSON.stringify(request(1, "initialize", params.initialize()))}\n`));
    const before = utf8.encode('{"jsonrpc":"2.0","id":2,"method":"_echo","params":{"text":"a');
    const after = utf8.encode('b"}}\n');
    await pipe.feed(new Uint8Array([...before, 0xff, 0xfe, ...after]));
    await until(() => linesCount(pipe.output()) === 2, "two answers");
    expect(seen).toEqual(["a\uFFFD\uFFFDb"]);
    expect(linesOf(pipe.output())[1]).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
  });
});

function linesCount(bytes: Uint8Array): number {
  return bytes.reduce((n, b) => n + (b === 10 ? 1 : 0), 0);
}

describe("newline framing", () => {
  it("[ACP-TRANSPORT-203] writes each message on one line, escaping newlines inside strings", async () => {
    const tricky = "one\ntwo\r\nthree\u2028four";
    const d = rawAgent(
      testAgent({
        extMethod: async (_m, _p, ctx) => {
          await ctx.peer.sessionUpdate(params.update("s", tricky));
          return { text: tricky };
        },
      }).handler,
    );
    await d.initialize();
    d.send(request(1, "_tricky", {}));
    expect(await d.next()).toEqual({ jsonrpc: "2.0", method: "session/update", params: params.update("s", tricky) });
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { text: tricky } });
    // initialize's answer, the update and the answer: exactly three "\n" in everything written.
    expect(d.text.split("\n")).toHaveLength(4);
    expect(d.text.endsWith("\n")).toBe(true);
  });

  it("[ACP-TRANSPORT-203] splits input only on \\n: two messages in one chunk, \\r\\n endings, escaped newlines inside strings", async () => {
    const seen: unknown[] = [];
    const d = rawAgent(testAgent({ extMethod: (_m, p) => (seen.push(p.text), {}) }).handler);
    await d.initialize();
    d.write(`${JSON.stringify(request(1, "_a", { text: "x\ny" }))}\r\n${JSON.stringify(request(2, "_b", { text: "z\r\n" }))}\n`);
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(await d.next()).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(seen).toEqual(["x\ny", "z\r\n"]);
  });
});

describe("the client's side of the agent's stdin", () => {
  it("[ACP-TRANSPORT-101] writes only JSON-RPC messages, one per line, through a whole session", async () => {
    const toAgent = new PassThrough();
    const toClient = new PassThrough();
    let stdin = "";
    toAgent.on("data", (chunk: Buffer) => (stdin += chunk.toString("utf8")));
    const agent = connectAgent(
      testAgent({
        async prompt(p, ctx) {
          await ctx.peer.sessionUpdate(params.update(p.sessionId, "thinking"));
          const { outcome } = await ctx.peer.requestPermission(params.permission(p.sessionId));
          return { stopReason: outcome.outcome === "cancelled" ? "cancelled" : "end_turn" };
        },
      }).handler,
      nodeStreamTransport(toAgent, toClient),
    );
    const client = connectClient(testClient().handler, nodeStreamTransport(toClient, toAgent));
    await client.agent.initialize(params.initialize());
    const { sessionId } = await client.agent.newSession(params.newSession());
    expect(await client.agent.prompt(params.prompt(sessionId, "go"))).toEqual({ stopReason: "end_turn" });
    await client.notify("_note", { n: 1 });
    await client.agent.cancel({ sessionId });
    client.close();
    await within(agent.closed, "agent sees end of stdin");

    expect(stdin.endsWith("\n")).toBe(true);
    const lines = stdin.slice(0, -1).split("\n");
    expect(lines.map((l) => (JSON.parse(l) as { method?: string; result?: unknown }).method ?? "answer")).toEqual(["initialize", "session/new", "session/prompt", "answer", "_note", "session/cancel"]);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
  });
});

/**
 * A hand-written transport pair that moves whole strings (no bytes, no
 * streams), delivered on a later microtask: what a custom transport might be.
 */
function stringPair(): [Transport, Transport] {
  const make = (): Transport & { peer?: { deliver(text: string): void; end(): void }; deliver(text: string): void; end(): void } => {
    let receiver: TransportReceiver | undefined;
    const early: string[] = [];
    let ended = false;
    const end: Transport & { peer?: { deliver(text: string): void; end(): void }; deliver(text: string): void; end(): void } = {
      start(r) {
        receiver = r;
        for (const text of early.splice(0)) r.data(text);
      },
      write(text) {
        queueMicrotask(() => end.peer?.deliver(text));
      },
      close() {
        if (ended) return;
        queueMicrotask(() => end.peer?.end());
        end.end();
      },
      deliver(text) {
        if (receiver) receiver.data(text);
        else early.push(text);
      },
      end() {
        if (ended) return;
        ended = true;
        receiver?.end();
      },
    };
    return end;
  };
  const a = make();
  const b = make();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

describe("a custom transport", () => {
  it("[ACP-TRANSPORT-104] keeps the message format and lifecycle rules: init gate, a streamed turn, the answers' ids", async () => {
    const [a, c] = stringPair();
    const updates: string[] = [];
    const agent = connectAgent(
      testAgent({
        async prompt(p, ctx) {
          await ctx.peer.sessionUpdate(params.update(p.sessionId, "hello"));
          return { stopReason: "end_turn" };
        },
      }).handler,
      a,
    );
    const client = connectClient(testClient({ sessionUpdate: (n) => void updates.push(chunkText(n) ?? "?") }).handler, c);
    await expect(client.agent.newSession(params.newSession())).rejects.toMatchObject({ code: -32600 });
    await client.agent.initialize(params.initialize());
    const { sessionId } = await client.agent.newSession(params.newSession());
    expect(await client.agent.prompt(params.prompt(sessionId))).toEqual({ stopReason: "end_turn" });
    expect(updates).toEqual(["hello"]);
    expect(await client.request("_echo", { x: 1 })).toEqual({ method: "_echo", params: { x: 1 } });
    client.close();
    expect((await agent.closed).reason).toBe("the peer closed the stream");
  });

  it("[ACP-TRANSPORT-104] answers unparsable input and notifications over it exactly as over a byte stream", async () => {
    const [a, c] = stringPair();
    const lines: unknown[] = [];
    connectAgent(testAgent().handler, a);
    c.start({
      data: (text) =>
        lines.push(
          ...String(text)
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l) as unknown),
        ),
      end: () => undefined,
    });
    c.write("not json\n");
    c.write(`${JSON.stringify(notification("_quiet", {}))}\n`);
    c.write(`${JSON.stringify(request(3, "session/new", params.newSession()))}\n`);
    await until(() => lines.length === 2, "two answers");
    expect(lines).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error", data: { reason: expect.any(String) } } },
      { jsonrpc: "2.0", id: 3, error: { code: -32600, message: "Not initialized: the first request must be initialize" } },
    ]);
  });
});
