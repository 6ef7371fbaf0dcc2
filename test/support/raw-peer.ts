/**
 * The raw-line driver: a real acp-router connection on one end of a
 * `memoryPair`, the test on the other end writing raw lines and reading back
 * every line the connection wrote, parsed.
 *
 *   const d = rawAgent(testAgent().handler);   // connectAgent on the far end
 *   await d.initialize();                      // valid initialize, answer checked
 *   d.send({ jsonrpc: "2.0", id: 1, method: "foo" });
 *   expect(await d.next()).toMatchObject({ id: 1, error: { code: -32601 } });
 *   expect(await d.sync()).toEqual([]);        // nothing else was written
 *
 * `sync()` sends a probe request the connection answers synchronously
 * (`$/test_sync`, an unknown method) and returns the lines written before the
 * probe's answer: since lines are processed in arrival order, that is
 * everything the earlier lines produced synchronously. Answers of async
 * handlers may come later: read them with `next()`. Read with one `next()`
 * (or `sync()`) at a time.
 */
import { connectAgent, connectClient, memoryPair } from "../../src/index.ts";
import type { AgentCapabilities, AgentConnection, AgentHandler, ClientCapabilities, ClientConnection, ClientHandler, ConnectionOptions, Diagnostic, InitializeRequest, Transport, TransportReceiver } from "../../src/index.ts";
import { params } from "./handlers.ts";

/** One parsed line as the connection wrote it; fields typed loosely for assertions. */
export interface WireLine {
  readonly jsonrpc?: unknown;
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: unknown;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

export interface RawDriverOptions {
  /** Options of the connection under test (`onDiagnostic` is chained, not replaced). */
  readonly connection?: ConnectionOptions;
  /** Passed to `memoryPair`: split every delivery into chunks of this many bytes. */
  readonly chunkBytes?: number;
}

export interface RawDriver<Conn> {
  /** The connection under test. */
  readonly conn: Conn;
  /** Every diagnostic the connection reported, in order. */
  readonly diagnostics: Diagnostic[];
  /** Everything the connection wrote so far, decoded, including lines already read. */
  readonly text: string;
  /** True once the connection ended its side of the stream (not set by our own `end()`). */
  readonly ended: boolean;
  /** Writes one line: a string as-is, anything else JSON-encoded; a newline is appended. */
  send(line: string | object): void;
  /** Writes `text` exactly as given (no newline added). */
  write(text: string): void;
  /** The next line the connection wrote (JSON-parsed); rejects after `timeoutMs` (default 3000). */
  next(timeoutMs?: number): Promise<WireLine>;
  /** The next line, which must be a JSON array (a batch answer). */
  nextBatch(timeoutMs?: number): Promise<WireLine[]>;
  /** Sends a probe request and returns the lines written before its answer (all consumed). */
  sync(): Promise<WireLine[]>;
  /**
   * Ends the test's side of the stream: the connection sees end-of-stream.
   * Lines the connection still writes afterwards can be read with `next()`.
   */
  end(): void;
}

/** A driver around `connectAgent(handler)`: the test plays the client. */
export function rawAgent(
  handler: AgentHandler,
  options: RawDriverOptions = {},
): RawDriver<AgentConnection> & {
  /** Sends a valid `initialize` (id "init") and returns its result; throws on an error answer. */
  initialize(p?: InitializeRequest): Promise<unknown>;
} {
  const d = rawDriver((t, o) => connectAgent(handler, t, o), options);
  return Object.assign(d, {
    async initialize(p: InitializeRequest = params.initialize()) {
      d.send({ jsonrpc: "2.0", id: "init", method: "initialize", params: p });
      const answer = await d.next();
      if (answer.id !== "init" || answer.error !== undefined) throw new Error(`initialize failed: ${JSON.stringify(answer)}`);
      return answer.result;
    },
  });
}

/** A driver around `connectClient(handler)`: the test plays the agent. */
export function rawClient(handler: ClientHandler, options: RawDriverOptions = {}): RawDriver<ClientConnection> {
  return rawDriver((t, o) => connectClient(handler, t, o), options);
}

/**
 * `rawClient`, after the client's `initialize` went out and the test answered
 * it with `{protocolVersion: 1, agentCapabilities}`.
 */
export async function initializedRawClient(handler: ClientHandler, clientCapabilities: ClientCapabilities = {}, agentCapabilities: AgentCapabilities = {}, options: RawDriverOptions = {}): Promise<RawDriver<ClientConnection>> {
  const d = rawClient(handler, options);
  const init = d.conn.agent.initialize(params.initialize(clientCapabilities));
  const sent = await d.next();
  if (sent.method !== "initialize") throw new Error(`expected initialize, got ${JSON.stringify(sent)}`);
  d.send({ jsonrpc: "2.0", id: sent.id, result: { protocolVersion: 1, agentCapabilities } });
  await init;
  return d;
}

/** The generic driver: `connect` opens the connection under test on the far end. */
export function rawDriver<Conn>(connect: (transport: Transport, options: ConnectionOptions) => Conn, options: RawDriverOptions = {}): RawDriver<Conn> {
  const [near, far] = memoryPair(options.chunkBytes === undefined ? {} : { chunkBytes: options.chunkBytes });
  const diagnostics: Diagnostic[] = [];
  const userHook = options.connection?.onDiagnostic;
  const conn = connect(far, {
    ...options.connection,
    onDiagnostic: (d) => {
      diagnostics.push(d);
      userHook?.(d);
    },
  });

  const decoder = new TextDecoder();
  let text = "";
  let partial = "";
  let ended = false;
  let endedByUs = false;
  const queue: unknown[] = [];
  let waiter: (() => void) | undefined;
  near.start({
    data(chunk) {
      const s = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
      text += s;
      const parts = (partial + s).split("\n");
      partial = parts.pop() ?? "";
      for (const p of parts) if (p.trim() !== "") queue.push(JSON.parse(p));
      waiter?.();
    },
    end() {
      // A memoryPair end also ends its own reading when closed; only the far side's end counts.
      if (!endedByUs) ended = true;
      waiter?.();
    },
  });

  const shift = async (timeoutMs: number): Promise<unknown> => {
    const deadline = Date.now() + timeoutMs;
    while (queue.length === 0) {
      if (ended) throw new Error("the connection ended its stream; no further line");
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no line within ${timeoutMs} ms; written so far: ${text.slice(-500)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiter = () => {
          clearTimeout(timer);
          waiter = undefined;
          resolve();
        };
      });
    }
    return queue.shift();
  };

  let probes = 0;
  const driver: RawDriver<Conn> = {
    conn,
    diagnostics,
    get text() {
      return text;
    },
    get ended() {
      return ended;
    },
    send(line) {
      near.write(`${typeof line === "string" ? line : JSON.stringify(line)}\n`);
    },
    write(t) {
      near.write(t);
    },
    next: (timeoutMs = 3000) => shift(timeoutMs) as Promise<WireLine>,
    async nextBatch(timeoutMs = 3000) {
      const line = await shift(timeoutMs);
      if (!Array.isArray(line)) throw new Error(`expected a batch answer, got ${JSON.stringify(line)}`);
      return line as WireLine[];
    },
    async sync() {
      const id = `sync-${++probes}`;
      driver.send({ jsonrpc: "2.0", id, method: "$/test_sync" });
      const before: WireLine[] = [];
      for (;;) {
        const line = (await shift(3000)) as WireLine;
        if (!Array.isArray(line) && line.id === id) return before;
        before.push(line);
      }
    },
    end() {
      endedByUs = true;
      near.close();
    },
  };
  return driver;
}

// ── the synchronous wire ─────────────────────────────────────────────

/** A transport the test drives by hand: `feed` delivers inbound bytes synchronously, writes are collected. */
export interface RawWire {
  readonly transport: Transport;
  /** Every line the connection wrote, in order (each write is one line, newline included). */
  readonly writes: string[];
  /** True once the connection closed the transport. */
  readonly closed: boolean;
  /** Delivers one chunk (text or bytes) to the connection, synchronously. */
  feed(chunk: string | Uint8Array): void;
  /** Writes one message as a line (objects JSON-encoded, a newline appended). */
  send(message: string | object): void;
  /** Signals end-of-stream (optionally with an error). */
  end(error?: Error): void;
  /** Parsed lines written since the last `take()`. */
  take(): WireLine[];
}

/** The synchronous wire (see the top of this file). */
export function rawWire(): RawWire {
  let receiver: TransportReceiver | undefined;
  let closed = false;
  let read = 0;
  const writes: string[] = [];
  const transport: Transport = {
    start(r) {
      receiver = r;
    },
    write(text) {
      writes.push(text);
    },
    close() {
      closed = true;
    },
  };
  const started = (): TransportReceiver => {
    if (!receiver) throw new Error("the connection has not started the transport");
    return receiver;
  };
  return {
    transport,
    writes,
    get closed() {
      return closed;
    },
    feed: (chunk) => started().data(chunk),
    send: (message) => started().data(`${typeof message === "string" ? message : JSON.stringify(message)}\n`),
    end: (error) => started().end(error),
    take() {
      const out = writes.slice(read).map((line) => JSON.parse(line) as WireLine);
      read = writes.length;
      return out;
    },
  };
}
