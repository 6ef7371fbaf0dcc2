/**
 * One connection of the SDK-style server: the agent it serves (connected once, over a pair of
 * message streams), what the client sent it (written in order), and the router that takes the
 * agent's output and queues each message where its client will read it — the connection's stream,
 * the stream of the session it names, or for a WebSocket the socket's one stream. The router stops
 * taking output while readers are behind (`maxBufferedBytes`), which makes the agent's sends and
 * the client's requests wait; output nobody takes for `maxOutputStallMs` closes the connection.
 *
 * `AcpServer.registry.get(id)` hands these out as SDK 2.4.0 does; their state is for reading.
 */
import { agentOutput } from "./agent-output.ts";
import { ConnectionClosedError, ConnectionLimitError, limitExceeded, outputStalled, type ResolvedLimits } from "./limits.ts";
import { Mailbox } from "./mailbox.ts";
import { nextProgress, notifyProgress } from "./progress.ts";
import { idKey, isResponse, sessionIdOfCall, sessionIdOfResult, type WireMessage } from "./wire.ts";

/** Where a message goes: the connection's stream, or a session's. */
export type Route = "connection" | { readonly session: string };

/** The medium a connection is served over. */
export type Medium = "http" | "websocket";

/** What an agent's `connect` returns, as far as the server uses it. */
export interface ServedConnection {
  readonly closed?: PromiseLike<unknown>;
  startConnectHandlers?(): void;
}

/** An agent: anything with the SDK's `connect(stream, options)` (an app, a protocol router, a hand-written connector). */
export interface ServedAgent {
  connect(stream: { readable: ReadableStream<WireMessage>; writable: WritableStream<WireMessage> }, options: { deferConnectHandlers: boolean }): unknown;
}

/** See the module comment. */
export class ConnectionState {
  readonly connectionId: string = globalThis.crypto.randomUUID();
  readonly medium: Medium;
  readonly limits: ResolvedLimits;
  /** The HTTP connection stream: every message that names no session, as JSON text. */
  readonly connectionStream: Mailbox<string>;
  /** Every outbound message, for a WebSocket connection's socket. */
  readonly allOutbound: Mailbox<WireMessage>;
  /** The HTTP session streams, by session id, as JSON text. */
  readonly sessionStreams = new Map<string, Mailbox<string>>();
  /** Where the answer to each client request the agent has not answered yet goes, by id key. */
  readonly pendingRoutes = new Map<string, Route>();
  /** Where each agent request the client has not answered came from, by id key. */
  readonly clientResponseRoutes = new Map<string, Route>();
  /** What waits for a reader to take output (or for routing to stop). */
  readonly progressWaiters = new Set<() => void>();
  /** Settles once the connection stopped: shut down, or its agent's output ended and was routed. */
  readonly closed: Promise<void>;
  /** JSON text queued on the HTTP streams. */
  #bufferedBytes = 0;
  /** Counts the JSON text queued on and taken from the HTTP streams; taking some is progress. */
  readonly #counting = {
    queued: (json: string) => void (this.#bufferedBytes += json.length),
    taken: (json: string) => {
      this.#bufferedBytes -= json.length;
      this.#progress();
    },
  };
  /** Session streams holding output without a reader. */
  #bufferedSessionStreams = 0;
  #routerStarted = false;
  #agentOutputEnded = false;
  #routingFinished = false;
  #shuttingDown = false;
  #closedSettled = false;
  #inboundChain: Promise<unknown> = Promise.resolve();
  #reader: ReadableStreamDefaultReader<WireMessage> | undefined;
  #router: Promise<void> | undefined;
  #shutdown: Promise<void> | undefined;
  readonly #settleClosed: () => void;
  readonly #inbound: WritableStream<WireMessage>;
  readonly #output: ReadableStream<WireMessage>;
  readonly #failInbound: (error: unknown) => void;
  readonly #endOutput: () => void;
  readonly #agentConnection: unknown;

  constructor(agent: ServedAgent, medium: Medium, limits: ResolvedLimits) {
    this.medium = medium;
    this.limits = limits;
    const closedError = () => new ConnectionClosedError();
    this.connectionStream = new Mailbox<string>(medium === "http", closedError, undefined, this.#counting);
    // WebSocket output waits here only until the socket's pump takes it; the socket holds the rest.
    this.allOutbound = new Mailbox<WireMessage>(medium === "websocket", closedError, undefined, { taken: () => this.#progress() });
    let settle!: () => void;
    this.closed = new Promise<void>((resolve) => (settle = resolve));
    this.#settleClosed = settle;
    let failInbound!: (error: unknown) => void;
    const inbound = new TransformStream<WireMessage, WireMessage>({ start: (c) => void (failInbound = (error) => c.error(error)) });
    this.#failInbound = failInbound;
    const output = agentOutput<WireMessage>(() => {
      // Nothing more comes from the agent: let the router finish instead of waiting for readers.
      this.#agentOutputEnded = true;
      this.#progress();
    });
    this.#inbound = inbound.writable;
    this.#output = output.readable;
    this.#endOutput = output.end;
    this.#agentConnection = agent.connect({ readable: inbound.readable, writable: output.writable }, { deferConnectHandlers: true });
    this.#watchAgent();
  }

  /** Whether shutdown began: a closed connection takes no more work. */
  get isClosed(): boolean {
    return this.#shuttingDown;
  }

  /** Whether routing stopped (the agent's output ended, or the router failed). */
  get hasFinishedRouting(): boolean {
    return this.#routingFinished;
  }

  /**
   * Whether the connection takes no more agent output for now: HTTP streams hold
   * `maxBufferedBytes`, or a WebSocket's pump has not taken the last message.
   */
  get hasOutboundBacklog(): boolean {
    return this.medium === "http" ? this.#bufferedBytes >= this.limits.maxBufferedBytes : this.allOutbound.hasQueuedMessages;
  }

  /** Reads the agent's first message, which must answer the `initialize` with `id`; otherwise shuts down and throws. */
  async recvInitial(id: unknown): Promise<WireMessage> {
    const reader = this.#output.getReader();
    this.#reader = reader;
    try {
      const first = await reader.read();
      const value = first.value;
      if (first.done || value === undefined || !("id" in value) || "method" in value || value["id"] !== id) {
        await this.shutdown();
        throw new Error("Expected initialize response from agent");
      }
      return value;
    } finally {
      if (this.#reader === reader) this.#reader = undefined;
      reader.releaseLock();
    }
  }

  /** Hands `message` to the agent, after every message written before it. */
  writeInbound(message: WireMessage): Promise<void> {
    const write = this.#inboundChain.then(() => this.#write(message));
    this.#inboundChain = write.catch(() => undefined);
    return write;
  }

  /** Starts routing the agent's output (once). */
  startRouter(): void {
    if (this.#routerStarted) return;
    this.#routerStarted = true;
    this.#router = this.#route();
  }

  /** Runs the agent's deferred connect handlers, when its connection has them. */
  startConnectHandlers(): void {
    const connection = this.#agentConnection as ServedConnection | null;
    if (typeof connection === "object" && connection !== null && typeof connection.startConnectHandlers === "function") connection.startConnectHandlers();
  }

  /** Throws `ConnectionLimitError` for a session id over `maxIdLength`. */
  validateSessionId(sessionId: string): void {
    this.#checkLength("Session ID", sessionId);
  }

  /** Throws `ConnectionLimitError` for a string request id over `maxIdLength`. */
  validateRequestId(id: unknown): void {
    if (typeof id === "string") this.#checkLength("Request ID", id);
  }

  /** Resolves once the connection can take more agent output (or stopped routing); rejects when `signal` aborts first. */
  waitForOutboundCapacity(signal?: AbortSignal): Promise<void> {
    return this.#waitForRoom(() => this.#routingFinished, signal);
  }

  /** The stream a session's messages go to, made (buffering) when new; throws past `maxIdLength` or `maxBufferedSessionStreams`. */
  ensureSession(sessionId: string): Mailbox<string> {
    this.validateSessionId(sessionId);
    if (this.medium === "websocket") return this.connectionStream;
    const existing = this.sessionStreams.get(sessionId);
    if (existing !== undefined) return existing;
    if (this.#bufferedSessionStreams >= this.limits.maxBufferedSessionStreams) throw limitExceeded("maxBufferedSessionStreams", this.limits);
    return this.#newSessionStream(sessionId);
  }

  /**
   * A reader's lease on a session's stream (made when new), or undefined when another reader has
   * it. The open request behind the reader bounds it, so `maxBufferedSessionStreams` does not.
   * Throws past `maxIdLength`, and `ConnectionClosedError` for a new stream once nothing more can
   * be routed to it.
   */
  acquireSessionStream(sessionId: string) {
    this.validateSessionId(sessionId);
    if (this.medium === "websocket") return undefined;
    const existing = this.sessionStreams.get(sessionId);
    if (existing !== undefined) return existing.tryAcquire();
    if (this.isClosed || this.#routingFinished) throw new ConnectionClosedError();
    return this.#newSessionStream(sessionId).tryAcquire();
  }

  /** Shuts the connection down (once): every stream stops with `error`, the agent's input ends, its output is cancelled. */
  shutdown(error?: unknown): Promise<void> {
    this.#shutdown ??= this.#runShutdown(error);
    return this.#shutdown;
  }

  async #runShutdown(error: unknown): Promise<void> {
    try {
      this.#shuttingDown = true;
      this.#progress();
      this.connectionStream.abort(error);
      this.allOutbound.abort(error);
      for (const stream of this.sessionStreams.values()) stream.abort(error);
      this.sessionStreams.clear();
      this.#bufferedSessionStreams = 0;
      this.pendingRoutes.clear();
      this.clientResponseRoutes.clear();
      await Promise.allSettled([this.#closeInbound(error), (this.#reader ?? this.#output).cancel()]);
    } finally {
      this.#settle();
    }
  }

  #closeInbound(error: unknown): Promise<void> {
    if (error !== undefined || this.#inbound.locked) {
      this.#failInbound(error ?? new ConnectionClosedError());
      return Promise.resolve();
    }
    return this.#inbound.close();
  }

  /** When the agent's connection closes: before routing, the connection shuts down; after, its output ends and is routed. */
  #watchAgent(): void {
    const connection = this.#agentConnection as ServedConnection | null;
    if (typeof connection !== "object" || connection === null || !connection.closed) return;
    void Promise.resolve(connection.closed).finally(async () => {
      if (!this.#routerStarted) return this.shutdown();
      this.#endOutput();
      await this.#router;
    });
  }

  async #write(message: WireMessage): Promise<void> {
    // Routing is over (the agent exited while this request waited for room): nothing can answer it.
    if (this.isClosed || this.#routingFinished) throw new ConnectionClosedError();
    const writer = this.#inbound.getWriter();
    try {
      await writer.write(message);
    } catch (error) {
      if (this.isClosed) throw new ConnectionClosedError();
      throw error;
    } finally {
      writer.releaseLock();
    }
  }

  async #route(): Promise<void> {
    const reader = this.#output.getReader();
    this.#reader = reader;
    try {
      for (;;) {
        const next = await reader.read();
        if (next.done || this.isClosed) return;
        this.#routeMessage(next.value);
        this.allOutbound.push(next.value);
        // Take nothing more (the agent's sends wait) until readers catch up; once the agent's output ended, route the rest.
        await this.#waitForRoom(() => this.#agentOutputEnded);
      }
    } catch (error) {
      if (error instanceof ConnectionLimitError) this.closeForLimit(error);
      else {
        console.error(`ACP connection ${this.connectionId} router stopped unexpectedly:`, error);
        void this.shutdown(error);
      }
    } finally {
      this.#routingFinished = true;
      this.#progress();
      if (this.#reader === reader) this.#reader = undefined;
      reader.releaseLock();
      this.connectionStream.finish();
      this.allOutbound.finish();
      for (const stream of this.sessionStreams.values()) stream.finish();
      this.#settle();
    }
  }

  #settle(): void {
    if (this.#closedSettled) return;
    this.#closedSettled = true;
    this.#settleClosed();
  }

  /**
   * Waits while the connection holds `maxBufferedBytes`, until `stop()` or shutdown; rejects when
   * `signal` aborts. An HTTP client that takes nothing for `maxOutputStallMs` is not coming back:
   * the connection closes rather than keep the agent and the client's requests waiting (a
   * WebSocket times out its socket itself).
   */
  async #waitForRoom(stop: () => boolean, signal?: AbortSignal): Promise<void> {
    while (!this.isClosed && !stop() && this.hasOutboundBacklog) {
      if (!(await nextProgress(this.progressWaiters, this.medium === "http" ? this.limits.maxOutputStallMs : undefined, signal))) {
        this.closeForLimit(outputStalled(this.limits));
        return;
      }
    }
  }

  #progress(): void {
    notifyProgress(this.progressWaiters);
  }

  #routeMessage(message: WireMessage): void {
    if (isResponse(message)) {
      const key = idKey(message["id"]);
      const route = key === undefined ? undefined : this.pendingRoutes.get(key);
      const handedOut = sessionIdOfResult(message);
      // Never hand out a session id this connection would refuse to route.
      if (handedOut !== undefined) this.validateSessionId(handedOut);
      if (key !== undefined) this.pendingRoutes.delete(key);
      return this.#deliver(route ?? "connection", message);
    }
    const sessionId = sessionIdOfCall(message);
    const route: Route = sessionId === undefined ? "connection" : { session: sessionId };
    // Route the client's answer to an agent request where the request went.
    if ("id" in message && "method" in message) {
      const key = idKey(message["id"]);
      if (key !== undefined) this.clientResponseRoutes.set(key, route);
    }
    this.#deliver(route, message);
  }

  /** Queues `message` as JSON text on its HTTP stream (a WebSocket connection delivers through `allOutbound`). */
  #deliver(route: Route, message: WireMessage): void {
    const stream = route === "connection" ? this.connectionStream : this.ensureSession(route.session);
    if (this.medium === "http") stream.push(JSON.stringify(message));
  }

  #newSessionStream(sessionId: string): Mailbox<string> {
    const stream: Mailbox<string> = new Mailbox<string>(
      true,
      () => new ConnectionClosedError(),
      () => this.#sessionReaderChanged(sessionId, stream),
      this.#counting,
    );
    this.sessionStreams.set(sessionId, stream);
    this.#bufferedSessionStreams += 1;
    return stream;
  }

  /** Counts session streams without a reader as readers come and go; a stream a reader leaves is kept only while output waits on it. */
  #sessionReaderChanged(sessionId: string, stream: Mailbox<string>): void {
    if (this.isClosed) return;
    if (stream.hasReceiver) {
      this.#bufferedSessionStreams -= 1;
      return;
    }
    if (!stream.hasQueuedMessages) {
      this.sessionStreams.delete(sessionId);
      stream.abort();
      return;
    }
    this.#bufferedSessionStreams += 1;
    if (!this.#routingFinished && this.#bufferedSessionStreams > this.limits.maxBufferedSessionStreams) this.closeForLimit(limitExceeded("maxBufferedSessionStreams", this.limits));
  }

  /** Logs the broken limit, as the SDK does, and shuts down with it. */
  closeForLimit(error: ConnectionLimitError): void {
    console.warn(`Closing ACP connection ${this.connectionId}:`, error.message);
    void this.shutdown(error);
  }

  #checkLength(label: string, id: string): void {
    if (id.length > this.limits.maxIdLength) throw new ConnectionLimitError(`${label} exceeds maxIdLength (${this.limits.maxIdLength})`);
  }
}
