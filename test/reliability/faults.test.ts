// Faults: the peer closes mid-request, streams error, a spawned agent exits (code 0, code 3),
// is killed, writes non-protocol lines, writes a partial line and exits, or never answers; and a
// serveStdio agent whose stdin closes exits on its own.
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connectAgent, connectClient, ConnectionClosedError, memoryPair, RpcError, webStreamTransport } from "../../src/index.ts";
import type { AgentHandler, ClientConnection, Diagnostic } from "../../src/index.ts";
import { AgentExitedError, nodeStreamTransport, spawnAgent } from "../../src/transport/stdio.ts";
import { countingAgent, countingClient, deferred, fixture, rawWire, rejectionSpy, repoRoot, turn, within } from "./support.ts";

const rejections = rejectionSpy();
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => void uncaught.push(error);
beforeAll(() => {
  rejections.install();
  process.on("uncaughtExceptionMonitor", onUncaught);
});
afterAll(() => {
  rejections.uninstall();
  process.off("uncaughtExceptionMonitor", onUncaught);
  expect(rejections.seen).toEqual([]);
  expect(uncaught).toEqual([]);
});

const prompt = { sessionId: "s1", prompt: [{ type: "text" as const, text: "hi" }] };

/** What a promise rejected with (fails the test if it resolved). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

/** A client connected to `fixtures/broken-agent.mjs <mode>`, initialized. */
async function brokenAgent(mode: string, diagnostics: Diagnostic[] = []) {
  const agent = spawnAgent(process.execPath, [fixture("broken-agent.mjs"), mode], { stderr: "capture", killAfterMs: 500 });
  const conn = connectClient(countingClient(), agent.transport, { onDiagnostic: (d) => void diagnostics.push(d) });
  await within(conn.agent.initialize({ protocolVersion: 1 }), "initialize");
  return { agent, conn };
}

describe("when the peer closes its end mid-request", () => {
  it("the closing side answers the pending prompt as cancelled before it closes (internal cancellation), aborts the handler's signal, and both connections end idle", async () => {
    const [clientEnd, agentEnd] = memoryPair();
    const started = deferred<AbortSignal>();
    const handler: AgentHandler = { ...countingAgent(), prompt: (_p, ctx) => (started.resolve(ctx.signal), new Promise(() => {})) };
    const agentConn = connectAgent(handler, agentEnd);
    const conn = connectClient(countingClient(), clientEnd);
    await conn.agent.initialize({ protocolVersion: 1 });
    const call = conn.agent.prompt(prompt);
    const signal = await within(started.promise, "prompt started");
    agentConn.close("agent shutting down");
    expect(await within(call, "the cancelled answer")).toEqual({ stopReason: "cancelled" });
    expect(signal.aborted).toBe(true);
    await expect(conn.agent.prompt(prompt)).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(await conn.closed).toEqual({ reason: "the peer closed the stream", error: undefined });
    expect(conn.stats()).toEqual({ pendingOutbound: 0, inFlightInbound: 0, busyLanes: 0, timers: 0, abortListeners: 0 });
    expect(agentConn.stats()).toEqual({ pendingOutbound: 0, inFlightInbound: 0, busyLanes: 0, timers: 0, abortListeners: 0 });
  });

  it("requests made after the close reject at once; notifications are dropped with a diagnostic; nothing is written", async () => {
    const wire = rawWire();
    const diagnostics: Diagnostic[] = [];
    const conn = connectClient(countingClient(), wire.transport, { onDiagnostic: (d) => void diagnostics.push(d) });
    wire.end();
    await conn.closed;
    await expect(conn.request("_x/late", {})).rejects.toThrow(ConnectionClosedError);
    await expect(conn.notify("_x/late", {})).resolves.toBeUndefined();
    expect(diagnostics.at(-1)).toMatchObject({ kind: "closed", message: 'notification "_x/late" dropped: the connection is closed (the peer closed the stream)' });
    expect(wire.writes).toEqual([]);
  });
});

describe("when a stream errors", () => {
  it("a Readable emitting 'error' closes the connection with that reason; pending calls reject with it as the cause", async () => {
    const readable = new PassThrough();
    const writable = new PassThrough();
    const diagnostics: Diagnostic[] = [];
    const conn = connectClient(countingClient(), nodeStreamTransport(readable, writable), { onDiagnostic: (d) => void diagnostics.push(d) });
    const call = conn.request("_x/wait", {});
    const boom = new Error("EIO: i/o error, read");
    readable.emit("error", boom);
    const error = await rejection(call);
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as Error).message).toBe("connection closed: EIO: i/o error, read");
    expect((error as Error).cause).toBe(boom);
    expect(await conn.closed).toEqual({ reason: "EIO: i/o error, read", error: boom });
    expect(diagnostics).toEqual([{ kind: "closed", message: "connection closed: EIO: i/o error, read", data: "Error: EIO: i/o error, read" }]);
    // Later errors from the abandoned streams are swallowed, not thrown.
    readable.emit("error", new Error("again"));
    writable.emit("error", new Error("and the other one"));
    await turn();
  });

  it("a Writable failing closes the connection with that reason", async () => {
    const writable = new PassThrough();
    const conn = connectClient(countingClient(), nodeStreamTransport(new PassThrough(), writable));
    const call = conn.request("_x/wait", {});
    writable.destroy(new Error("EPIPE: broken pipe, write"));
    await expect(call).rejects.toThrow("connection closed: EPIPE: broken pipe, write");
    expect((await conn.closed).reason).toBe("EPIPE: broken pipe, write");
  });

  it("a web ReadableStream that errors closes the connection with that reason", async () => {
    let fail!: (e: Error) => void;
    const readable = new ReadableStream<Uint8Array>({ start: (c) => void (fail = (e) => c.error(e)) });
    const conn = connectClient(countingClient(), webStreamTransport(readable, new WritableStream()));
    const call = conn.request("_x/wait", {});
    fail(new Error("socket reset"));
    await expect(call).rejects.toThrow("connection closed: socket reset");
    expect((await conn.closed).reason).toBe("socket reset");
  });
});

describe("a spawned agent that exits mid-request", () => {
  it.each([0, 3])("with code %i: the pending call rejects, naming the exit code and the last 20 lines of stderr", async (code) => {
    const { agent, conn } = await brokenAgent(`exit:${code}`);
    const error = await rejection(within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new settles"));
    expect(error).toBeInstanceOf(ConnectionClosedError);
    const tail = Array.from({ length: 20 }, (_, i) => `stderr line ${i + 6}`).join("\n");
    expect((error as Error).message).toBe(`connection closed: agent process exited with code ${code}; last stderr lines:\n${tail}`);
    const cause = (error as Error).cause;
    expect(cause).toBeInstanceOf(AgentExitedError);
    expect(cause).toMatchObject({ exitCode: code, signalName: null, stderrTail: tail });
    expect(agent.stderrTail()).toBe(tail);
    expect(await agent.exited).toEqual({ code, signal: null });
  });

  it("whose last write failed with EPIPE: the pending call still names the exit code and stderr", async () => {
    const { agent, conn } = await brokenAgent("deaf:3");
    const call = conn.agent.newSession({ cwd: "/", mcpServers: [] });
    await waitForStderr(agent, "stderr line 25");
    // The agent closed its stdin and is about to exit: these writes hit a pipe without a reader.
    for (let i = 0; i < 5; i++) {
      conn.notify("_x/note", { i }).catch(() => {});
      await new Promise((r) => setTimeout(r, 5));
    }
    const error = await rejection(within(call, "session/new settles"));
    expect(await agent.exited).toEqual({ code: 3, signal: null });
    expect((error as Error).message).toMatch(/^connection closed: agent process exited with code 3; last stderr lines:\n/);
  });

  it("killed with SIGKILL: the pending call rejects naming the signal", async () => {
    const { agent, conn } = await brokenAgent("hang");
    const call = conn.agent.prompt(prompt);
    await turn();
    agent.child.kill("SIGKILL");
    const error = await rejection(within(call, "prompt settles"));
    expect((error as Error).message).toMatch(/^connection closed: agent process was killed by SIGKILL; last stderr lines:\ngot initialize /);
    expect((error as Error).cause).toMatchObject({ exitCode: null, signalName: "SIGKILL" });
  });
});

describe("a spawned agent with the default stderr handling (forward)", () => {
  /** Replaces process.stderr.write while `run` runs; returns the bytes written to it. */
  async function forwardedDuring(run: () => Promise<void>): Promise<Buffer> {
    const chunks: Buffer[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      chunks.push(Buffer.from(chunk));
      return true;
    });
    try {
      await run();
    } finally {
      spy.mockRestore();
    }
    return Buffer.concat(chunks);
  }

  it("passes the agent's stderr on to ours and still names its last 20 lines when it exits 3 mid-request", async () => {
    let error: unknown;
    const forwarded = await forwardedDuring(async () => {
      const agent = spawnAgent(process.execPath, [fixture("broken-agent.mjs"), "exit:3"]);
      const conn = connectClient(countingClient(), agent.transport);
      await within(conn.agent.initialize({ protocolVersion: 1 }), "initialize");
      error = await rejection(within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new settles"));
      await agent.exited;
    });
    const tail = Array.from({ length: 20 }, (_, i) => `stderr line ${i + 6}`).join("\n");
    expect((error as Error).message).toBe(`connection closed: agent process exited with code 3; last stderr lines:\n${tail}`);
    expect((error as Error).cause).toMatchObject({ exitCode: 3, stderrTail: tail });
    const lines = forwarded.toString("utf8").split("\n");
    expect(lines.slice(0, 2).map((line) => line.split(" ").slice(0, 2).join(" "))).toEqual(["got initialize", "got session/new"]);
    expect(lines.slice(2)).toEqual([...Array.from({ length: 25 }, (_, i) => `stderr line ${i + 1}`), ""]);
  });

  it.each([
    ["capture", "last words"],
    ["ignore", ""],
  ] as const)("stays silent with stderr: %s (the tail is %j)", async (mode, expected) => {
    let tail = "?";
    const forwarded = await forwardedDuring(async () => {
      const agent = spawnAgent(process.execPath, ["-e", "process.stderr.write('last words\\n')"], { stderr: mode });
      agent.transport.start({ data() {}, end() {} });
      await within(agent.exited, "exit");
      tail = agent.stderrTail();
    });
    expect([forwarded.toString("utf8"), tail]).toEqual(["", expected]);
  });

  it("forwards the bytes unchanged, invalid UTF-8 included, while the tail decodes them", async () => {
    const script = "process.stderr.write(Buffer.from([0x41, 0xff, 0x0a, 0xe2, 0x82])); setTimeout(() => process.stderr.write(Buffer.from([0xac, 0x0a])), 20)";
    let tail = "";
    const forwarded = await forwardedDuring(async () => {
      const agent = spawnAgent(process.execPath, ["-e", script]);
      agent.transport.start({ data() {}, end() {} });
      await within(agent.exited, "exit");
      tail = agent.stderrTail();
    });
    expect([...forwarded]).toEqual([0x41, 0xff, 0x0a, 0xe2, 0x82, 0xac, 0x0a]);
    expect(tail).toBe("A\ufffd\n€");
  });
});

describe("a spawned agent whose stderr is captured", () => {
  it("keeps the last 20 lines (the default stderrLines), the unterminated last one included", async () => {
    const script = "for (let i = 1; i <= 30; i++) process.stderr.write(`line ${i}\\n`); process.stderr.write('no newline')";
    const agent = spawnAgent(process.execPath, ["-e", script], { stderr: "capture" });
    agent.transport.start({ data() {}, end() {} });
    await within(agent.exited, "exit");
    expect(agent.stderrTail().split("\n")).toEqual([...Array.from({ length: 19 }, (_, i) => `line ${i + 12}`), "no newline"]);
  });

  it("keeps a bounded tail when the agent writes 16 MiB of stderr without a newline", async () => {
    const script = "const b = Buffer.alloc(1 << 20, 120); for (let i = 0; i < 16; i++) process.stderr.write(b); process.stderr.write('\\nlast line\\n')";
    const agent = spawnAgent(process.execPath, ["-e", script], { stderr: "capture" });
    agent.transport.start({ data() {}, end() {} });
    await within(agent.exited, "exit", 20_000);
    expect(agent.stderrTail().endsWith("\nlast line")).toBe(true);
    expect(agent.stderrTail().length).toBeLessThan(1024 * 1024);
  });
});

describe("a spawned agent that writes non-protocol lines to stdout", () => {
  it("reports each as a diagnostic (and answers it -32700), while the protocol lines keep working", async () => {
    const diagnostics: Diagnostic[] = [];
    const { agent, conn } = await brokenAgent("noise", diagnostics);
    expect(await within(conn.agent.newSession({ cwd: "/", mcpServers: [] }), "session/new")).toEqual({ sessionId: "s1" });
    expect(await within(conn.agent.prompt(prompt), "prompt")).toEqual({ stopReason: "end_turn" });
    // 2 noise lines around initialize, 2 per request (the last may still be on its way); blank lines skipped.
    const parseErrors = () => diagnostics.filter((d) => d.kind === "parse_error").length;
    await within(
      (async () => {
        while (parseErrors() < 6) await turn();
      })(),
      "six parse_error diagnostics",
    );
    expect(diagnostics.filter((d) => d.kind === "parse_error").every((d) => d.message.startsWith("unparsable line: "))).toBe(true);
    expect(diagnostics.map((d) => d.kind).filter((k) => k !== "parse_error" && k !== "unknown_session")).toEqual([]);
    // The agent saw our -32700 answers (id null) to its noise.
    await within(
      (async () => {
        while (!agent.stderrTail().includes('got response {"code":-32700')) await turn();
      })(),
      "the agent logs our parse-error answers",
    );
    conn.close();
    expect((await agent.exited).code).toBe(0);
  });
});

describe("a spawned agent that writes a partial last line and exits", () => {
  it("still has that line processed at end-of-stream, then the connection closes naming the exit", async () => {
    const { conn } = await brokenAgent("partial");
    expect(await within(conn.agent.prompt(prompt), "prompt answered by the unterminated last line")).toEqual({ stopReason: "end_turn" });
    const info = await within(conn.closed, "closed");
    expect(info.reason).toBe(`agent process exited with code 0; last stderr lines:\n${info.error instanceof AgentExitedError ? info.error.stderrTail : "?"}`);
    expect(info.error).toBeInstanceOf(AgentExitedError);
  });
});

describe("a spawned agent that never answers", () => {
  it("a per-call timeoutMs rejects with -32800 and sends $/cancel_request for that call", async () => {
    const { agent, conn } = await brokenAgent("hang");
    const error = await rejection(within(conn.agent.prompt(prompt, { timeoutMs: 150 }), "timeout"));
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32800, message: 'Request "session/prompt" timed out after 150 ms', data: { timeoutMs: 150 } });
    await waitForStderr(agent, 'got $/cancel_request {"requestId":1}');
    expect(conn.stats()).toEqual({ pendingOutbound: 0, inFlightInbound: 0, busyLanes: 0, timers: 0, abortListeners: 0 });
    conn.close();
  });

  it("aborting the call's signal sends $/cancel_request and keeps waiting for the answer until the connection closes", async () => {
    const { agent, conn } = await brokenAgent("hang");
    const abort = new AbortController();
    const call = conn.agent.prompt(prompt, { signal: abort.signal });
    let settled = false;
    call.then(
      () => (settled = true),
      () => (settled = true),
    );
    abort.abort();
    await waitForStderr(agent, 'got $/cancel_request {"requestId":1}');
    expect(settled).toBe(false);
    expect(conn.stats().pendingOutbound).toBe(1);
    conn.close("giving up");
    await expect(call).rejects.toThrow("connection closed: giving up");
    expect(conn.stats()).toEqual({ pendingOutbound: 0, inFlightInbound: 0, busyLanes: 0, timers: 0, abortListeners: 0 });
  });
});

describe("a serveStdio agent whose stdin closes", () => {
  it("answers its running prompt as cancelled, closes its connection, aborts the handler and exits with code 0 on its own", async () => {
    // killAfterMs far beyond the wait below: the exit cannot be our kill.
    const agent = spawnAgent(process.execPath, ["--import", "tsx", fixture("serve-stdio-agent.ts")], { cwd: repoRoot, stderr: "capture", killAfterMs: 60_000 });
    const conn: ClientConnection = connectClient(countingClient(), agent.transport);
    await within(conn.agent.initialize({ protocolVersion: 1 }), "initialize", 15_000);
    const call = conn.agent.prompt(prompt);
    call.catch(() => {});
    await waitForStderr(agent, "prompt started");
    agent.child.stdin?.end();
    expect(await within(agent.exited, "the agent exits on its own", 5000)).toEqual({ code: 0, signal: null });
    expect(await call).toEqual({ stopReason: "cancelled" });
    expect(agent.stderrTail().split("\n")).toEqual(["prompt started", "prompt aborted", "connection closed: the peer closed the stream"]);
  });
});

describe("spawning a command that does not exist", () => {
  it("rejects pending calls with the spawn error instead of hanging", async () => {
    const agent = spawnAgent("/nonexistent/acp-agent-binary", [], { stderr: "capture" });
    const conn = connectClient(countingClient(), agent.transport);
    const error = await rejection(within(conn.agent.initialize({ protocolVersion: 1 }), "initialize settles"));
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as Error).message).toContain("ENOENT");
  });
});

async function waitForStderr(agent: { stderrTail(): string }, text: string): Promise<void> {
  await within(
    (async () => {
      while (!agent.stderrTail().includes(text)) await new Promise((r) => setTimeout(r, 5));
    })(),
    `agent stderr to contain ${text}`,
  );
}
