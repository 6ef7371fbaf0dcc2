/**
 * One WebSocket client of the SDK-style server, as SDK 2.4.0 serves it: frames are handled one at
 * a time, in order (the first must be `initialize`, which opens the connection), each message's
 * answer paced by what the socket still holds unsent (`bufferedAmount`, polled: sockets report no
 * drain), and every message the agent sends goes out as one text frame.
 */
import type { ConnectionState, ServedAgent } from "./connection-state.ts";
import { ConnectionClosedError, ConnectionLimitError, limitExceeded, outputStalled } from "./limits.ts";
import type { MailboxLease } from "./mailbox.ts";
import type { ConnectionRegistry } from "./registry.ts";
import { idKey, isInitializeRequest, isNotification, isRecord, isRequest, isResponseShaped, nullIdError, sessionIdOfParams, type WireMessage } from "./wire.ts";
import { frameText, listenTo, type ServerWebSocket } from "./websocket-events.ts";

/** First and longest wait between two looks at `bufferedAmount` while the client is behind. */
const POLL_FIRST_MS = 10;
const POLL_MAX_MS = 1000;
/** What a waiting frame costs beyond its text (the promises that queue it), counted toward `maxBufferedBytes`: small frames count too. */
const WAITING_FRAME_COST = 1024;

/** Serves `socket`; `connection` is the one prepared for its upgrade. */
export class WebSocketSession {
  readonly #socket: ServerWebSocket;
  readonly #registry: ConnectionRegistry;
  readonly #agent: ServedAgent;
  #prepared: ConnectionState | undefined;
  #connection: ConnectionState | undefined;
  #lease: MailboxLease<WireMessage> | undefined;
  #frames: Promise<void> = Promise.resolve();
  #writes: Promise<unknown> = Promise.resolve();
  /** Text (plus the per-frame cost) of the frames waiting behind the one being handled. */
  #waitingBytes = 0;
  #closed = false;
  readonly #detach: (() => void)[] = [];
  /** Settles once the session ended. */
  readonly closed: Promise<void>;
  readonly #settle: () => void;

  constructor(socket: ServerWebSocket, registry: ConnectionRegistry, agent: ServedAgent, prepared: ConnectionState | undefined) {
    this.#socket = socket;
    this.#registry = registry;
    this.#agent = agent;
    this.#prepared = prepared;
    let settle!: () => void;
    this.closed = new Promise<void>((resolve) => (settle = resolve));
    this.#settle = settle;
    this.#detach.push(listenTo(socket, "message", (...args) => this.#onFrame(args)));
    this.#detach.push(listenTo(socket, "close", () => void this.#end()));
    this.#detach.push(listenTo(socket, "error", () => void this.#shutdown(1011, "WebSocket error")));
  }

  /** Closes the socket (1001 "Server shutting down" unless told otherwise) and ends the session. */
  close(code = 1001, reason = "Server shutting down"): Promise<void> {
    return this.#shutdown(code, reason);
  }

  #onFrame(args: unknown[]): void {
    if (this.#closed) return;
    const text = frameText(args);
    if (text === undefined) {
      console.warn("Ignoring non-text ACP WebSocket frame");
      return;
    }
    // Frames wait while an earlier one is handled (a slow initialize, a client behind on its output).
    const size = text.length + WAITING_FRAME_COST;
    const { limits } = this.#registry;
    if (this.#waitingBytes > 0 && size > limits.maxBufferedBytes - this.#waitingBytes) return this.#closeForLimit(limitExceeded("maxBufferedBytes", limits));
    this.#waitingBytes += size;
    const handled = this.#frames.then(() => {
      this.#waitingBytes -= size;
      return this.#handle(text);
    });
    this.#frames = handled.catch((error: unknown) => {
      // A connection that shut down closes the socket through its pump.
      if (this.#closed || error instanceof ConnectionClosedError) return;
      if (error instanceof ConnectionLimitError) return this.#closeForLimit(error);
      console.error("ACP WebSocket message handling failed:", error);
      void this.#shutdown(1011, "Message handling failed");
    });
  }

  async #handle(text: string): Promise<void> {
    if (this.#closed) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.#answer(nullIdError(-32700, "Parse error"));
    }
    if (Array.isArray(value)) return this.#answer(nullIdError(-32600, "Invalid request: JSON-RPC batches are not supported"));
    if (!isRecord(value)) return this.#answer(nullIdError(-32600, "Invalid request", value));
    const connection = this.#connection;
    if (connection === undefined) {
      if (isResponseShaped(value)) return;
      if (!isRequest(value) && !isNotification(value)) return this.#answer(nullIdError(-32600, "Invalid request", value));
      return this.#initialize(value);
    }
    if (isRequest(value) && isInitializeRequest(value)) {
      await this.#answer({ jsonrpc: "2.0", id: value.id, error: { code: -32600, message: "Initialize not allowed on existing connection" } });
      console.warn("Ignoring ACP WebSocket message:", "Initialize not allowed on existing connection");
      return;
    }
    this.#trackRoutes(connection, value);
    // An answer adds output: wait until the client has read enough to make room.
    if (!isNotification(value) && !isResponseShaped(value)) {
      await connection.waitForOutboundCapacity();
      await this.#socketRoom();
    }
    const write = this.#writes.then(() => connection.writeInbound(value as WireMessage));
    this.#writes = write.catch(() => undefined);
    await write;
  }

  /** Sends an answer of the session's own once the socket has room. */
  async #answer(message: WireMessage): Promise<void> {
    await this.#socketRoom();
    this.#send(message);
  }

  async #initialize(message: WireMessage): Promise<void> {
    if (!isInitializeRequest(message)) {
      console.warn("First ACP WebSocket message must be initialize");
      return this.#shutdown(1002, "First message must be initialize");
    }
    if (message["id"] === null) {
      console.warn("ACP WebSocket initialize request must include an ID");
      return this.#shutdown(1002, "Initialize request must include an ID");
    }
    const connection = this.#prepared ?? this.#registry.createPendingConnection(this.#agent);
    this.#prepared = connection;
    try {
      await connection.writeInbound(message);
      const initial = await connection.recvInitial(message["id"]);
      if (this.#closed) {
        this.#registry.discard(connection.connectionId);
        return;
      }
      this.#prepared = undefined;
      this.#connection = connection;
      this.#registry.register(connection);
      connection.startRouter();
      connection.startConnectHandlers();
      this.#send(initial);
      this.#pump(connection);
    } catch (error) {
      this.#prepared = undefined;
      this.#registry.discard(connection.connectionId);
      this.#send({ jsonrpc: "2.0", id: message["id"], error: { code: -32603, message: "Initialize failed", data: error instanceof Error ? error.message : undefined } });
      await this.#shutdown(1011, "Initialize failed");
    }
  }

  /** Resolves once the socket holds less than `maxBufferedBytes` unsent (or the session ended); a client that reads none for `maxOutputStallMs` ends it. */
  async #socketRoom(): Promise<void> {
    const { limits } = this.#registry;
    let pollMs = POLL_FIRST_MS;
    let unsent = this.#socket.bufferedAmount ?? 0;
    let stalledMs = 0;
    while (!this.#closed && unsent >= limits.maxBufferedBytes) {
      if (stalledMs >= limits.maxOutputStallMs) return this.#closeForLimit(outputStalled(limits));
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      stalledMs += pollMs;
      pollMs = Math.min(pollMs * 2, POLL_MAX_MS);
      const before = unsent;
      unsent = this.#socket.bufferedAmount ?? 0;
      // The client read some: the stall starts over.
      if (unsent < before) stalledMs = 0;
    }
  }

  /** Records where the answer to a client request goes, and forgets the route of an agent request the client answered. */
  #trackRoutes(connection: ConnectionState, message: WireMessage): void {
    if (isRequest(message) || isNotification(message)) {
      const sessionId = sessionIdOfParams(message["params"]);
      if (sessionId) connection.validateSessionId(sessionId);
      if (!isRequest(message)) return;
      connection.validateRequestId(message.id);
      const key = idKey(message.id);
      if (key !== undefined) connection.pendingRoutes.set(key, message.method === "session/load" || !sessionId ? "connection" : { session: sessionId });
      return;
    }
    if (isResponseShaped(message)) {
      const id = message["id"];
      const key = id === null || typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? idKey(id) : undefined;
      if (key !== undefined) connection.clientResponseRoutes.delete(key);
    }
  }

  /** Sends every message the agent sends, pausing while the socket holds `maxBufferedBytes`. */
  #pump(connection: ConnectionState): void {
    const lease = connection.allOutbound.tryAcquire();
    if (lease === undefined) return void this.#shutdown(1011, "Outbound stream already has an active receiver");
    this.#lease = lease;
    // The connection stops the lease when it shuts down, even while the pump waits for the client.
    lease.stopped.addEventListener("abort", () => void this.#closeForStopped(lease.stopped.reason), { once: true });
    void (async () => {
      try {
        while (!this.#closed) {
          const next = await lease.receive();
          if (next.done || !this.#send(next.value)) return;
          // Take nothing more (so the agent's sends wait) while the client is behind.
          await this.#socketRoom();
        }
      } catch (error) {
        // The connection logged why it stopped the lease; anything else is unexpected.
        if (!lease.stopped.aborted) console.error("ACP WebSocket outbound pump failed:", error);
        await this.#closeForStopped(error);
      } finally {
        if (this.#lease === lease) this.#lease = undefined;
        lease.release();
        if (!this.#closed) void this.#shutdown();
      }
    })();
  }

  #send(message: unknown): boolean {
    if (this.#closed) return false;
    try {
      this.#socket.send(JSON.stringify(message));
      return true;
    } catch (error) {
      console.warn("Failed to send ACP WebSocket message:", error);
      void this.#shutdown(1011, "Failed to send message");
      return false;
    }
  }

  #closeForLimit(error: ConnectionLimitError): void {
    const id = this.#connection?.connectionId ?? this.#prepared?.connectionId;
    console.warn(`Closing ${id ? `ACP connection ${id}` : "ACP connection"}:`, error.message);
    void this.#shutdown(1008, error.message);
  }

  /** Closes the socket for the reason its connection stopped (already logged when it broke a limit). */
  async #closeForStopped(reason: unknown): Promise<void> {
    if (this.#closed) return;
    if (reason instanceof ConnectionLimitError) await this.#shutdown(1008, reason.message);
    else if (reason instanceof ConnectionClosedError) await this.#shutdown();
    else await this.#shutdown(1011, "Internal error");
  }

  async #shutdown(code?: number, reason?: string): Promise<void> {
    try {
      this.#socket.close(code, reason);
    } catch (error) {
      console.warn("Failed to close ACP WebSocket:", error);
    }
    await this.#end();
  }

  async #end(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      for (const detach of this.#detach.splice(0)) detach();
      const lease = this.#lease;
      this.#lease = undefined;
      lease?.release();
      if (this.#connection !== undefined) this.#registry.discard(this.#connection.connectionId);
      this.#connection = undefined;
      if (this.#prepared !== undefined) this.#registry.discard(this.#prepared.connectionId);
      this.#prepared = undefined;
    } finally {
      this.#settle();
    }
  }
}
