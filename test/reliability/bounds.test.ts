// Resource bounds against a hostile peer, each with its documented default and a clear error when
// exceeded: inbound line size, JSON nesting depth, inbound requests in flight, outbound write
// queue bytes, and outbound calls pending.
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { connectAgent, connectClient, ConnectionClosedError, DEFAULT_MAX_MESSAGE_BYTES, RpcError } from "../../src/index.ts";
import type { AgentHandler, Diagnostic } from "../../src/index.ts";
import { DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_PENDING } from "../../src/connection/options.ts";
import { DEFAULT_MAX_DEPTH } from "../../src/jsonrpc/parse.ts";
import { nodeStreamTransport, spawnAgent } from "../../src/transport/stdio.ts";
import { DEFAULT_MAX_WRITE_QUEUE_BYTES, webStreamTransport } from "../../src/transport/web.ts";
import { countingAgent, countingClient, deferred, fixture, rawWire, runNode, turn, within, type Deferred } from "./support.ts";

const MiB = 1024 * 1024;

function initializedAgent(handler: AgentHandler = countingAgent(), options: Parameters<typeof connectAgent>[2] = {}) {
  const wire = rawWire();
  const diagnostics: Diagnostic[] = [];
  const conn = connectAgent(handler, wire.transport, { ...options, onDiagnostic: (d) => void diagnostics.push(d) });
  wire.send({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: 1 } });
  wire.take();
  return { wire, conn, diagnostics };
}

/** A request line of exactly `length` characters (ASCII). */
function requestOfLength(id: number, length: number): string {
  const head = `{"jsonrpc":"2.0","id":${id},"method":"_x/pad","params":{"p":"`;
  const tail = '"}}';
  return head + "a".repeat(length - head.length - tail.length) + tail;
}

/** A request whose params nest so that the whole line has exactly `depth` levels of brackets. */
function requestOfDepth(id: number, depth: number): string {
  // The message object is level 1 and params level 2; the rest alternates arrays and objects.
  let inner = "0";
  for (let level = depth; level > 2; level--) inner = level % 2 === 0 ? `{"n":${inner}}` : `[${inner}]`;
  return `{"jsonrpc":"2.0","id":${id},"method":"_x/deep","params":{"n":${inner}}}`;
}

describe("the documented defaults", () => {
  it("are 32 MiB per line, 128 levels, 8192 requests in flight, 16384 pending calls and a 64 MiB write queue", () => {
    expect([DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_DEPTH, DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_PENDING, DEFAULT_MAX_WRITE_QUEUE_BYTES]).toEqual([32 * MiB, 128, 8192, 16384, 64 * MiB]);
  });
});

describe("maxMessageBytes (inbound line size)", () => {
  // A child process with --expose-gc so the heap can be measured after full collections.
  it.concurrent.each([
    ["8 MiB", String(8 * MiB), 8 * MiB],
    ["the default 32 MiB", "default", 32 * MiB],
  ])("with %s, a 100 MiB line fed in 1 MiB chunks retains at most the limit, is answered -32700 and the next line is served", async (_label, arg, limit) => {
    const run = await runNode(["--expose-gc", "--import", "tsx", fixture("oversized-line.ts"), arg], 60_000);
    expect(run.stderr).toBe("");
    const report = JSON.parse(run.stdout) as { maxGrowth: number; finalGrowth: number; answers: unknown[]; diagnostics: { kind: string; message: string }[] };
    expect(report.maxGrowth).toBeLessThan(limit + 2 * MiB);
    expect(report.finalGrowth).toBeLessThan(1 * MiB);
    expect(report.answers).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error", data: { reason: `line longer than maxMessageBytes (${limit})` } } },
      { jsonrpc: "2.0", id: "after", result: { sessionId: "s1" } },
    ]);
    expect(report.diagnostics).toEqual([{ kind: "oversized_line", message: `skipped a line of at least ${100 * MiB + 3} characters (maxMessageBytes ${limit})` }]);
  });

  it("accepts a line of exactly the limit and rejects one character more, whatever the chunking and line ending", () => {
    for (const [ending, cut] of [
      ["\n", 0],
      ["\r\n", 0],
      ["\r\n", -1], // "\r" and "\n" in different chunks
      ["\r\n", -2],
      ["\n", 17],
    ] as const) {
      const { wire } = initializedAgent(countingAgent(), { maxMessageBytes: 100 });
      const text = `${requestOfLength(1, 100)}${ending}${requestOfLength(2, 101)}${ending}`;
      const at = cut <= 0 ? text.indexOf(ending) + ending.length + cut : cut;
      wire.feed(text.slice(0, at));
      wire.feed(text.slice(at));
      expect(wire.take(), `ending ${JSON.stringify(ending)} cut at ${at}`).toEqual([
        { jsonrpc: "2.0", id: 1, result: { ok: true } },
        { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error", data: { reason: "line longer than maxMessageBytes (100)" } } },
      ]);
    }
  });

  it("counts UTF-16 code units, so a line of 3-byte characters may carry up to three times the limit in bytes", () => {
    const { wire } = initializedAgent(countingAgent(), { maxMessageBytes: 300 });
    const line = requestOfLength(1, 300).replace(/a{10,}/, (a) => "€".repeat(a.length)); // "€" is 3 bytes in UTF-8, 1 unit
    expect(line.length).toBe(300);
    expect(new TextEncoder().encode(line).length).toBeGreaterThan(2 * 300);
    wire.feed(new TextEncoder().encode(`${line}\n`));
    expect(wire.take()).toEqual([{ jsonrpc: "2.0", id: 1, result: { ok: true } }]);
  });
});

describe("maxDepth (JSON nesting)", () => {
  it.each([
    ["the default", undefined, 128],
    ["a custom limit", 16, 16],
  ] as const)("with %s, a line at the limit is dispatched and one level deeper is answered -32700 with id null", (_label, maxDepth, limit) => {
    const { wire, diagnostics } = initializedAgent(countingAgent(), maxDepth === undefined ? {} : { maxDepth });
    wire.send(requestOfDepth(1, limit));
    wire.send(requestOfDepth(2, limit + 1));
    wire.send(requestOfDepth(3, 10_000));
    wire.send({ jsonrpc: "2.0", id: 4, method: "session/new", params: { cwd: "/", mcpServers: [] } });
    const tooDeep = { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error", data: { reason: `nesting deeper than ${limit} levels` } } };
    expect(wire.take()).toEqual([{ jsonrpc: "2.0", id: 1, result: { ok: true } }, tooDeep, tooDeep, { jsonrpc: "2.0", id: 4, result: { sessionId: "s1" } }]);
    expect(diagnostics.map((d) => d.kind)).toEqual(["parse_error", "parse_error"]);
  });

  it("does not count brackets inside strings", () => {
    const { wire } = initializedAgent(countingAgent(), { maxDepth: 4 });
    wire.send({ jsonrpc: "2.0", id: 1, method: "_x/y", params: { s: '[[[[[[{{{{{{\\"[[[[' } });
    expect(wire.take()).toEqual([{ jsonrpc: "2.0", id: 1, result: { ok: true } }]);
  });
});

describe("maxInFlight (inbound requests running at once)", () => {
  /** An agent whose extension handler waits on a deferred per call. */
  function slowAgent() {
    const waits: Deferred<Record<string, unknown>>[] = [];
    const handler = countingAgent();
    handler.extMethod = () => {
      const d = deferred<Record<string, unknown>>();
      waits.push(d);
      return d.promise;
    };
    return { handler, waits };
  }
  const call = (id: number) => ({ jsonrpc: "2.0", id, method: "_x/slow", params: {} });

  it("answers the 5th concurrent request at once with an error naming the bound, never starts its handler, and accepts again after the first finish", async () => {
    const { handler, waits } = slowAgent();
    const { wire, conn } = initializedAgent(handler, { maxInFlight: 4 });
    for (let id = 1; id <= 5; id++) wire.send(call(id));
    expect(waits).toHaveLength(4);
    expect(wire.take()).toEqual([{ jsonrpc: "2.0", id: 5, error: { code: -32603, message: "Too many requests in flight (maxInFlight 4)", data: { maxInFlight: 4 } } }]);
    expect(conn.stats().inFlightInbound).toBe(4);

    waits[0]?.resolve({ n: 1 });
    waits[1]?.resolve({ n: 2 });
    await turn();
    expect(wire.take()).toEqual([
      { jsonrpc: "2.0", id: 1, result: { n: 1 } },
      { jsonrpc: "2.0", id: 2, result: { n: 2 } },
    ]);
    wire.send(call(6));
    wire.send(call(7));
    wire.send(call(8));
    expect(waits).toHaveLength(6);
    expect(wire.take().map((a) => [a.id, a.error?.code])).toEqual([[8, -32603]]);
    for (const w of waits.slice(2)) w.resolve({});
    await turn();
    expect(wire.take().map((a) => a.id)).toEqual([3, 4, 6, 7]);
    expect(conn.stats().inFlightInbound).toBe(0);
  });

  it("defaults to 8192", async () => {
    const { handler, waits } = slowAgent();
    const { wire } = initializedAgent(handler);
    for (let id = 1; id <= 8193; id++) wire.send(call(id));
    expect(waits).toHaveLength(8192);
    expect(wire.take()).toEqual([{ jsonrpc: "2.0", id: 8193, error: { code: -32603, message: "Too many requests in flight (maxInFlight 8192)", data: { maxInFlight: 8192 } } }]);
    for (const w of waits) w.resolve({});
    await turn();
    expect(wire.take()).toHaveLength(8192);
  });
});

describe("maxPending (outbound calls awaiting answers)", () => {
  it("rejects the 4th outbound request locally, writes nothing for it, and accepts again once one is answered", async () => {
    const wire = rawWire();
    const conn = connectClient(countingClient(), wire.transport, { maxPending: 3 });
    const calls = [1, 2, 3].map(() => conn.request("_x/wait", {}));
    expect(wire.take().map((m) => m.id)).toEqual([0, 1, 2]);
    const fourth = conn.request("_x/wait", {});
    await expect(fourth).rejects.toThrow(RpcError);
    await expect(fourth).rejects.toMatchObject({ code: -32603, message: "Too many pending requests (maxPending 3); not sent" });
    expect(wire.take()).toEqual([]);
    wire.send({ jsonrpc: "2.0", id: 1, result: { done: true } });
    await expect(calls[1]).resolves.toEqual({ done: true });
    const fifth = conn.request("_x/wait", {});
    expect(wire.take().map((m) => m.id)).toEqual([3]); // the rejected call used no id
    expect(conn.stats().pendingOutbound).toBe(3);
    conn.close("test over");
    await expect(fifth).rejects.toThrow(ConnectionClosedError);
    await Promise.allSettled(calls);
  });

  it("defaults to 16384", async () => {
    const wire = rawWire();
    const conn = connectClient(countingClient(), wire.transport);
    const calls = Array.from({ length: 16384 }, () => conn.request("_x/wait", {}));
    await expect(conn.request("_x/wait", {})).rejects.toMatchObject({ code: -32603, message: "Too many pending requests (maxPending 16384); not sent" });
    expect(wire.writes).toHaveLength(16384);
    conn.close("test over");
    expect((await Promise.allSettled(calls)).every((r) => r.status === "rejected")).toBe(true);
  });
});

describe("maxWriteQueueBytes (outbound bytes the peer has not read)", () => {
  const pad = "p".repeat(64 * 1024);

  it("closes a nodeStreamTransport connection with a reason naming the bound instead of buffering without end", async () => {
    let accepted = 0;
    const stuck = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _enc, _callback) {
        accepted += chunk.length; // never calls back: the peer stopped reading
      },
    });
    const diagnostics: Diagnostic[] = [];
    const conn = connectClient(countingClient(), nodeStreamTransport(new PassThrough(), stuck, { maxWriteQueueBytes: MiB }), { onDiagnostic: (d) => void diagnostics.push(d) });
    let closed = false;
    void conn.closed.then(() => (closed = true));
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < 40 && !closed; i++) {
      const c = conn.request("_x/big", { pad });
      c.catch(() => {});
      calls.push(c);
      await turn();
    }
    const info = await within(conn.closed, "close on overflow");
    expect(info.reason).toBe(`write queue over ${MiB} bytes: the peer is not reading`);
    expect(diagnostics.at(-1)).toMatchObject({ kind: "closed", message: `connection closed: write queue over ${MiB} bytes: the peer is not reading` });
    // It stopped at the first write past the bound: at most one 64 KiB message beyond it.
    expect(calls.length).toBeLessThanOrEqual(MiB / pad.length + 1);
    expect(accepted).toBeLessThan(MiB + 2 * pad.length);
    expect(stuck.destroyed).toBe(true);
    for (const c of calls) await expect(c).rejects.toThrow(`connection closed: write queue over ${MiB} bytes`);
    await expect(conn.request("_x/big", {})).rejects.toThrow(ConnectionClosedError);
  });

  it("closes a webStreamTransport connection the same way", async () => {
    const stuck = new WritableStream<Uint8Array>({ write: () => new Promise<void>(() => {}) }, { highWaterMark: 1 });
    const conn = connectClient(countingClient(), webStreamTransport(new ReadableStream({ start() {} }), stuck, { maxWriteQueueBytes: MiB }));
    let closed = false;
    void conn.closed.then(() => (closed = true));
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < 40 && !closed; i++) {
      const c = conn.request("_x/big", { pad });
      c.catch(() => {});
      calls.push(c);
      await turn();
    }
    const info = await within(conn.closed, "close on overflow");
    expect(info.reason).toBe(`write queue over ${MiB} bytes: the peer is not reading`);
    expect(calls.length).toBeLessThanOrEqual(MiB / pad.length + 1);
    for (const c of calls) await expect(c).rejects.toThrow(ConnectionClosedError);
  });

  it("closes a spawned agent's connection over a real pipe when the agent never reads its stdin, and kills the agent", async () => {
    // A child that never reads stdin: our writes fill the pipe, then Node's buffer behind it.
    const agent = spawnAgent(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stderr: "ignore", maxWriteQueueBytes: 256 * 1024, killAfterMs: 100 });
    const conn = connectClient(countingClient(), agent.transport);
    const calls: Promise<unknown>[] = [];
    // 1 MiB in 16 KiB requests, one per turn. The transport gives up at 256 KiB; the connection
    // closes once the agent has exited (terminated after killAfterMs), so the close can name its exit.
    for (let i = 0; i < 64; i++) {
      const c = conn.request("_x/big", { pad: pad.slice(0, 16 * 1024) });
      c.catch(() => {});
      calls.push(c);
      await turn();
    }
    const info = await within(conn.closed, "close on overflow");
    expect(info.reason).toBe(`write queue over ${256 * 1024} bytes: the peer is not reading`);
    // EOF, then killAfterMs (the grace period), then SIGTERM to its process group (src/transport/process.ts).
    expect(await within(agent.exited, "agent terminated")).toEqual({ code: null, signal: "SIGTERM", lingered: true, note: "did not exit within 100 ms of stdin closing; terminated" });
    for (const c of calls) await expect(c).rejects.toThrow(ConnectionClosedError);
  });
});

describe("validation work per hostile line", () => {
  it("answers a session/prompt with 2,000 invalid content blocks -32602, listing 20 locations and a summary", async () => {
    const run = await runNode(["--import", "tsx", fixture("invalid-items-line.ts"), "prompt", "2000"], 20_000);
    const report = JSON.parse(run.stdout) as { answer: { id: number; error: { code: number; data: { errors: { path: string; message: string }[] } } } };
    expect(report.answer).toMatchObject({ id: 1, error: { code: -32602, message: "Invalid params" } });
    const errors = report.answer.error.data.errors;
    expect(errors).toHaveLength(21);
    expect(errors[0]).toEqual({ path: "/prompt/0", message: 'tag "type" must be string' });
    expect(errors[20]).toEqual({ path: "", message: "and 1980 more locations" });
  });

  it("drops 2,000 invalid plan entries of a session/update and delivers the 2,000 valid ones, with a diagnostic", async () => {
    const run = await runNode(["--import", "tsx", fixture("invalid-items-line.ts"), "plan", "2000"], 20_000);
    const report = JSON.parse(run.stdout) as { entries: number; diagnostics: string[] };
    expect(report.entries).toBe(2000);
    expect(report.diagnostics).toContain("repaired");
  });

  // These two are hang guards, not speed assertions: a fixed implementation answers in well under
  // a second (measured: ~0.1 s of validation), the quadratic one needed about 40 s and 80 s,
  // blocking the event loop all that time. They run in a child process because the work is
  // synchronous; the deadline leaves room for starting that child (tsx) on a loaded machine.
  //
  it.concurrent("answers a 0.3 MiB session/prompt with 100,000 invalid content blocks before a 20 s deadline", async () => {
    const run = await runNode(["--import", "tsx", fixture("invalid-items-line.ts"), "prompt", "100000"], 20_000);
    expect(run.killed).toBe(false);
    expect(JSON.parse(run.stdout)).toMatchObject({ answer: { id: 1, error: { code: -32602 } } });
  });

  it.concurrent("delivers a 3 MiB session/update whose plan alternates 60,000 invalid and valid entries before a 20 s deadline", async () => {
    const run = await runNode(["--import", "tsx", fixture("invalid-items-line.ts"), "plan", "60000"], 20_000);
    expect(run.killed).toBe(false);
    expect(JSON.parse(run.stdout)).toMatchObject({ entries: 60000 });
  });
});
