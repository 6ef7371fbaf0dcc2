/**
 * The one-sided peers ("ingest": take bytes, count what comes out) besides
 * the floor (`floor.ts`):
 * - sdk: `@agentclientprotocol/sdk` apps over `ndJsonStream` on Web streams;
 * - ours: acp-router `connectAgent`/`connectClient` with default options
 *   (full validation), fed bytes through a minimal Transport.
 * Also the handlers and apps the pairs (`pairs.ts`) reuse.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { AgentHandler, ClientHandler, ConnectionOptions, Transport, TransportReceiver } from "../../src/index.ts";
import { HELLO_UPDATES, helloUpdate, INITIALIZE_LINE, SESSION_ID } from "./messages.ts";
import { ours } from "./ours.ts";
import { Counter, endTurn, ingestPeer, Sink, type IngestPeer, type PromptHandler } from "./sink.ts";

const { connectAgent, connectClient } = ours;

const encoder = new TextEncoder();

/** The minimal Transport of the brief: `start` keeps the receiver, `write` encodes and counts. */
export class BenchTransport implements Transport {
  receiver: TransportReceiver | undefined;
  private readonly sink: Sink;
  constructor(sink: Sink) {
    this.sink = sink;
  }
  start(receiver: TransportReceiver): void {
    this.receiver = receiver;
  }
  write(text: string): void {
    this.sink.text(text);
  }
  close(): void {}
  push(bytes: Uint8Array): void {
    this.receiver?.data(bytes);
  }
}

export function oursAgentHandler(prompt: PromptHandler = endTurn): AgentHandler {
  return {
    initialize: () => ({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] }),
    authenticate: () => ({}),
    newSession: () => ({ sessionId: "sess-bench-1" }),
    setSessionMode: () => ({}),
    setSessionConfigOption: () => ({ configOptions: [] }),
    prompt,
  };
}

/** The small-message reference agent: each prompt streams two one-line updates (awaited, as agents write them), then ends its turn. */
export function oursStreamingAgentHandler(): AgentHandler {
  return {
    ...oursAgentHandler(),
    prompt: async (params, ctx) => {
      for (const text of HELLO_UPDATES) await ctx.peer.sessionUpdate(helloUpdate(params.sessionId, text));
      return { stopReason: "end_turn" };
    },
  };
}

export function oursClientHandler(onUpdate: () => void = () => {}): ClientHandler {
  return {
    requestPermission: () => ({ outcome: { outcome: "cancelled" } }),
    sessionUpdate: () => {
      onUpdate();
    },
  };
}

/** acp-router's agent, initialized, fed raw bytes. */
export async function oursAgent(options: { capture?: boolean; prompt?: PromptHandler; connection?: ConnectionOptions } = {}): Promise<IngestPeer> {
  const sink = new Sink(options.capture ?? false);
  const transport = new BenchTransport(sink);
  const conn = connectAgent(oursAgentHandler(options.prompt), transport, options.connection ?? {});
  const peer = ingestPeer(
    sink.answers,
    (bytes) => transport.push(bytes),
    sink,
    () => conn.close(),
  );
  await peer.feed(encoder.encode(INITIALIZE_LINE), 1);
  peer.takeOutput();
  return peer;
}

/**
 * Answers the request a client just wrote with `result`, as an agent would:
 * reads its id from the sink's last write and pushes the response line.
 */
async function answerLast<T>(sink: Sink, push: (bytes: Uint8Array) => void, call: Promise<T>, result: object): Promise<T> {
  const written = typeof sink.last === "string" ? sink.last : new TextDecoder().decode(sink.last);
  const { id } = JSON.parse(written) as { id: number };
  push(encoder.encode(`${JSON.stringify({ jsonrpc: "2.0", id, result })}\n`));
  return call;
}

/** What the bench's agent answers to a client's setup calls. */
const INIT_RESULT = { protocolVersion: 1, agentCapabilities: {}, authMethods: [] };
const NEW_SESSION_RESULT = { sessionId: SESSION_ID };
const NEW_SESSION_PARAMS = { cwd: "/tmp", mcpServers: [] };

/**
 * acp-router's client, fed raw bytes (`session/update` notifications). Like
 * a real client it first ran `initialize` and `session/new` (answered by
 * pushed bytes), so the updates are for a session it knows.
 */
export async function oursClient(options: { capture?: boolean; connection?: ConnectionOptions } = {}): Promise<IngestPeer> {
  const sink = new Sink(options.capture ?? false);
  const handled = new Counter();
  const transport = new BenchTransport(sink);
  const conn = connectClient(
    oursClientHandler(() => handled.hit()),
    transport,
    options.connection ?? {},
  );
  const push = (bytes: Uint8Array) => transport.push(bytes);
  await answerLast(sink, push, conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} }), INIT_RESULT);
  await answerLast(sink, push, conn.agent.newSession(NEW_SESSION_PARAMS), NEW_SESSION_RESULT);
  sink.take();
  return ingestPeer(handled, push, sink, () => conn.close());
}

// ── the official SDK ────────────────────────────────────────────────

/** An in-process byte input the test pushes into, and an output that counts what the peer writes. */
function sdkStreams(sink: Sink) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const input = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  const output = new WritableStream<Uint8Array>({
    write(bytes) {
      sink.raw(bytes);
    },
  });
  return { stream: acp.ndJsonStream(output, input), push: (bytes: Uint8Array) => controller.enqueue(bytes), end: () => controller.close() };
}

export function sdkAgentApp(prompt: PromptHandler = endTurn) {
  return acp
    .agent({ name: "bench-agent" })
    .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {}, authMethods: [] }))
    .onRequest(acp.methods.agent.session.new, () => ({ sessionId: "sess-bench-1" }))
    .onRequest(acp.methods.agent.session.prompt, ({ params }) => prompt(params));
}

/** The SDK's small-message agent: the same two updates per prompt as {@link oursStreamingAgentHandler}. */
export function sdkStreamingAgentApp() {
  return acp
    .agent({ name: "bench-agent" })
    .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {}, authMethods: [] }))
    .onRequest(acp.methods.agent.session.new, () => ({ sessionId: "sess-bench-1" }))
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
      for (const text of HELLO_UPDATES) await client.notify(acp.methods.client.session.update, helloUpdate(params.sessionId, text));
      return { stopReason: "end_turn" as const };
    });
}

export function sdkClientApp(onUpdate: () => void = () => {}) {
  return acp
    .client({ name: "bench-client" })
    .onRequest(acp.methods.client.session.requestPermission, () => ({ outcome: { outcome: "cancelled" as const } }))
    .onNotification(acp.methods.client.session.update, () => {
      onUpdate();
    });
}

/** The SDK's agent, initialized, fed raw bytes through `ndJsonStream`. */
export async function sdkAgent(options: { capture?: boolean; prompt?: PromptHandler } = {}): Promise<IngestPeer> {
  const sink = new Sink(options.capture ?? false);
  const io = sdkStreams(sink);
  const conn = sdkAgentApp(options.prompt).connect(io.stream);
  const peer = ingestPeer(sink.answers, io.push, sink, () => conn.close());
  await peer.feed(encoder.encode(INITIALIZE_LINE), 1);
  peer.takeOutput();
  return peer;
}

/** The SDK's client, fed raw bytes (`session/update` notifications), after `initialize` and `session/new` like ours. */
export async function sdkClient(options: { capture?: boolean } = {}): Promise<IngestPeer> {
  const sink = new Sink(options.capture ?? false);
  const handled = new Counter();
  const io = sdkStreams(sink);
  const conn = sdkClientApp(() => handled.hit()).connect(io.stream);
  const ctx = conn.agent;
  const written = sink.answers.wait(1);
  const init = ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  await written;
  await answerLast(sink, io.push, init, INIT_RESULT);
  const written2 = sink.answers.wait(1);
  const session = ctx.request(acp.methods.agent.session.new, NEW_SESSION_PARAMS);
  await written2;
  await answerLast(sink, io.push, session, NEW_SESSION_RESULT);
  sink.take();
  return ingestPeer(handled, io.push, sink, () => conn.close());
}
