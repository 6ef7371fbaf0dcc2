/**
 * The SDK-style client stream over Streamable HTTP (`createHttpStream`), making the requests SDK
 * 2.4.0's client makes, in its order: the first message must be `initialize`, POSTed alone; its
 * answer's `Acp-Connection-Id` opens the connection's SSE stream; a message that names a session
 * (or answers a request that came on a session's stream) is POSTed with `Acp-Session-Id` once
 * that session's SSE stream is open (opened on first use, or when an answer hands the session
 * out); closing aborts every stream and DELETEs the connection.
 *
 * Failures: a 409 on a session's stream or request fails that session's requests alone until
 * `session/load` or `session/resume` reattaches it; another refused request fails that request
 * alone (`-32603`, `data: { status, body }`); 401, 403, 404, 410, network errors and refused
 * notifications or responses error the stream, which DELETEs the connection and clears the
 * cookies it owns.
 */
import type { AcpCookieStore } from "../cookie-store.ts";
import type { Stream } from "../message-stream.ts";
import { EVENT_STREAM_MIME_TYPE, HEADER_CONNECTION_ID, HEADER_SESSION_ID, idKey, isInitializeRequest, isResponse, JSON_MIME_TYPE, sessionIdOfCall, sessionIdOfResult, type WireMessage } from "../serve/wire.ts";
import { EndpointRequests } from "./endpoint-requests.ts";
import { httpError, HttpResponseError, isSessionConflict, parsedBody, readBodyText } from "./http-errors.ts";
import { readSseMessages } from "./sse-reader.ts";

/** Requests that reattach a session that failed. */
const REATTACH = new Set(["session/load", "session/resume"]);
/** POST statuses that mean the connection is unusable or gone. */
const CONNECTION_FAILURES = new Set([401, 403, 404, 410]);
/** Error bodies are diagnostics: read up to 8 KiB. */
const MAX_ERROR_BODY_BYTES = 8 * 1024;

/** Options of the stream (the SDK's `HttpStreamOptions`). */
export interface HttpStreamSettings {
  readonly fetch?: typeof globalThis.fetch;
  readonly headers?: Record<string, string>;
  readonly cookies?: "include" | "omit";
  readonly cookieStore?: AcpCookieStore;
  readonly maxMessageBytes: number;
}

/** A session's SSE stream: when it opened (or failed), and what aborts it. */
interface SessionStream {
  readonly ready: Promise<void>;
  readonly abort: AbortController;
}

/** See the module comment. */
export class HttpStreamClient {
  readonly stream: Stream;
  readonly #endpoint: EndpointRequests;
  readonly #maxBytes: number;
  readonly #abort = new AbortController();
  /** Sessions whose stream is open or was opened (an open stream's session needs no new one). */
  readonly #knownSessions = new Set<string>();
  readonly #sessionStreams = new Map<string, SessionStream>();
  /** The session each agent request came on, by id key, until the client's answer is POSTed. */
  readonly #answerSessions = new Map<string, string>();
  /** The client's requests of each session not answered yet, by id key. */
  readonly #pendingSessionRequests = new Map<string, { sessionId: string; id: unknown }>();
  /** Sessions that failed with a conflict, until reattached. */
  readonly #sessionFailures = new Map<string, Error>();
  #controller: ReadableStreamDefaultController<WireMessage> | undefined;
  #connectionId: string | undefined;
  #closed = false;
  #writes: Promise<void> = Promise.resolve();

  constructor(url: string, settings: HttpStreamSettings) {
    this.#maxBytes = settings.maxMessageBytes;
    this.#endpoint = new EndpointRequests(url, settings, settings.maxMessageBytes);
    this.stream = {
      readable: new ReadableStream<WireMessage>({
        start: (controller) => void (this.#controller = controller),
        cancel: () => this.close(),
      }),
      writable: new WritableStream<WireMessage>({
        write: (message) => {
          this.#writes = this.#writes.then(() => this.#write(message));
          return this.#writes;
        },
        close: () => this.close(),
        abort: () => this.close(),
      }),
    } as unknown as Stream;
  }

  async #write(message: WireMessage): Promise<void> {
    if (this.#closed) throw new Error("ACP HTTP stream is closed");
    if (this.#connectionId === undefined) return this.#initialize(message);
    return this.#post(message, this.#connectionId);
  }

  async #initialize(message: WireMessage): Promise<void> {
    let opened: string | undefined;
    try {
      if (!isInitializeRequest(message)) throw new Error("ACP HTTP stream first message must be initialize");
      const response = await this.#endpoint.send({ method: "POST", headers: { "Content-Type": JSON_MIME_TYPE }, body: JSON.stringify(message), signal: this.#abort.signal });
      if (!response.ok) throw await httpError("ACP initialize failed", response, this.#maxBytes);
      const connectionId = response.headers.get(HEADER_CONNECTION_ID);
      if (!connectionId) throw new Error("ACP initialize response missing Acp-Connection-Id");
      opened = connectionId;
      this.#throwIfClosed();
      const body: unknown = JSON.parse(await readBodyText(response, this.#maxBytes));
      this.#throwIfClosed();
      if (!isResponse(body)) throw new Error("ACP initialize response was not a JSON-RPC response");
      if (idKey(body.id) !== idKey(message["id"])) throw new Error("ACP initialize response id did not match initialize request");
      this.#connectionId = connectionId;
      void this.#readSse({ [HEADER_CONNECTION_ID]: connectionId }, this.#abort.signal);
      this.#enqueue(body);
    } catch (error) {
      if (this.#closed && opened !== undefined) {
        // Closed while initialize was on its way: the connection it opened is given back.
        await this.#endpoint.deleteConnection(opened).catch(() => undefined);
        this.#endpoint.clearOwnCookies();
      } else this.#fail(error, opened);
      throw error;
    }
  }

  #throwIfClosed(): void {
    if (this.#closed) throw new Error("ACP HTTP stream is closed");
  }

  async #post(message: WireMessage, connectionId: string): Promise<void> {
    const sessionId = this.#sessionOf(message);
    if (sessionId !== undefined) {
      if (typeof message["method"] === "string" && REATTACH.has(message["method"])) this.#sessionFailures.delete(sessionId);
      try {
        await this.#openSession(sessionId);
      } catch (error) {
        if (!isSessionConflict(error)) throw error;
        return this.#drop(message, error);
      }
    }
    const pendingKey = sessionId !== undefined && "method" in message && "id" in message ? idKey(message["id"]) : undefined;
    if (sessionId !== undefined && pendingKey !== undefined) this.#pendingSessionRequests.set(pendingKey, { sessionId, id: message["id"] });
    try {
      const headers: Record<string, string> = { "Content-Type": JSON_MIME_TYPE, [HEADER_CONNECTION_ID]: connectionId };
      if (sessionId !== undefined) headers[HEADER_SESSION_ID] = sessionId;
      const response = await this.#endpoint.send({ method: "POST", headers, body: JSON.stringify(message), signal: this.#abort.signal });
      if (!response.ok) throw await httpError("ACP POST failed", response, Math.min(this.#maxBytes, MAX_ERROR_BODY_BYTES), true);
      void response.body?.cancel().catch(() => {});
      if (!("method" in message) && "id" in message) {
        const key = idKey(message["id"]);
        if (key !== undefined) this.#answerSessions.delete(key);
      }
    } catch (error) {
      // The request may have been settled while its POST was on its way (answered, or its session's stream closed).
      const stillPending = pendingKey === undefined ? true : this.#pendingSessionRequests.delete(pendingKey);
      if (sessionId !== undefined && isSessionConflict(error)) {
        this.#failSession(sessionId, error);
        return this.#drop(message, error);
      }
      if (error instanceof HttpResponseError && !CONNECTION_FAILURES.has(error.status) && "method" in message && "id" in message) {
        // Only this request fails; the stream stays usable.
        if (stillPending) this.#enqueueRequestError(message["id"], error);
        return;
      }
      this.#fail(error);
      throw error;
    }
  }

  /** The session a message is POSTed under: its `params.sessionId`, or for an answer the session its request came on. */
  #sessionOf(message: WireMessage): string | undefined {
    const fromParams = sessionIdOfCall(message);
    if (fromParams !== undefined) return fromParams;
    if (!("id" in message) || "method" in message) return undefined;
    const key = idKey(message["id"]);
    return key === undefined ? undefined : this.#answerSessions.get(key);
  }

  /** Opens `sessionId`'s SSE stream if it is not open; resolves once it is (rejects for a session that failed, or a stream that could not open). */
  #openSession(sessionId: string): Promise<void> {
    const failure = this.#sessionFailures.get(sessionId);
    if (failure !== undefined) return Promise.reject(failure);
    const existing = this.#sessionStreams.get(sessionId);
    if (existing !== undefined) return existing.ready;
    if (this.#knownSessions.has(sessionId) || this.#connectionId === undefined) return Promise.resolve();
    let settled = false;
    let settleReady!: (error?: unknown) => void;
    const ready = new Promise<void>((resolve, reject) => {
      settleReady = (error) => {
        if (settled) return;
        settled = true;
        if (error === undefined) resolve();
        else reject(error as Error);
      };
    });
    ready.catch(() => undefined);
    // Each session's stream aborts on its own, so a failed session leaves the connection be.
    const abort = new AbortController();
    const abortSession = () => abort.abort();
    this.#abort.signal.addEventListener("abort", abortSession, { once: true });
    const entry = { ready, abort };
    this.#knownSessions.add(sessionId);
    this.#sessionStreams.set(sessionId, entry);
    void this.#readSse({ [HEADER_CONNECTION_ID]: this.#connectionId, [HEADER_SESSION_ID]: sessionId }, abort.signal, {
      opened: () => settleReady(),
      failed: (error) => settleReady(error),
      ended: () => {
        this.#abort.signal.removeEventListener("abort", abortSession);
        if (this.#sessionStreams.get(sessionId) === entry) this.#sessionStreams.delete(sessionId);
        settleReady(new Error("ACP session SSE stream closed before opening"));
      },
    });
    return ready;
  }

  /** Reads one SSE stream (the connection's, or a session's when `headers` name one) into the readable. */
  async #readSse(headers: Record<string, string>, signal: AbortSignal, lifecycle: { opened?(): void; failed?(error: unknown): void; ended?(): void } = {}): Promise<void> {
    const streamSession = headers[HEADER_SESSION_ID];
    try {
      const response = await this.#endpoint.send({ method: "GET", headers: { Accept: EVENT_STREAM_MIME_TYPE, ...headers }, signal });
      if (!response.ok) throw await httpError("ACP SSE connection failed", response, this.#maxBytes);
      if (response.body === null) throw new Error("ACP SSE response missing body");
      lifecycle.opened?.();
      for await (const message of readSseMessages(response.body, this.#maxBytes)) {
        if (this.#closed || signal.aborted) return;
        const handedOut = sessionIdOfResult(message);
        if (handedOut !== undefined) void this.#openSession(handedOut).catch(() => {});
        // An agent request that came on a session's stream is answered under that session.
        if (streamSession !== undefined && "method" in message && "id" in message) {
          const key = idKey(message["id"]);
          if (key !== undefined) this.#answerSessions.set(key, streamSession);
        }
        if (isResponse(message)) {
          const key = idKey(message.id);
          if (key !== undefined) this.#pendingSessionRequests.delete(key);
        }
        this.#enqueue(message);
      }
      if (!signal.aborted) this.#streamEnded(streamSession);
    } catch (error) {
      if (this.#closed || signal.aborted) return;
      lifecycle.failed?.(error);
      if (streamSession !== undefined && isSessionConflict(error)) this.#failSession(streamSession, error);
      else this.#fail(error);
    } finally {
      lifecycle.ended?.();
    }
  }

  /** An SSE stream ended cleanly: the connection's errors the stream; a session's fails its pending requests (the next message reopens it). */
  #streamEnded(sessionId: string | undefined): void {
    if (this.#closed || this.#abort.signal.aborted) return;
    if (sessionId === undefined) return this.#fail(new Error("ACP connection SSE stream closed"));
    this.#knownSessions.delete(sessionId);
    this.#rejectSessionRequests(sessionId, new Error("ACP session SSE stream closed"));
  }

  /** Fails a session after a conflict: its stream detached, its requests failed, until reattached. */
  #failSession(sessionId: string, error: Error): void {
    this.#sessionFailures.set(sessionId, error);
    this.#knownSessions.delete(sessionId);
    const stream = this.#sessionStreams.get(sessionId);
    if (stream !== undefined) {
      this.#sessionStreams.delete(sessionId);
      stream.abort.abort();
    }
    this.#rejectSessionRequests(sessionId, error);
  }

  #rejectSessionRequests(sessionId: string, error: Error): void {
    for (const [key, pending] of this.#pendingSessionRequests) {
      if (pending.sessionId !== sessionId) continue;
      this.#pendingSessionRequests.delete(key);
      this.#enqueueRequestError(pending.id, error);
    }
  }

  /** A message of a failed session: a request is answered with the error; a notification or an answer has nowhere to go. */
  #drop(message: WireMessage, error: Error): void {
    if (!("id" in message)) return;
    if ("method" in message) return this.#enqueueRequestError(message["id"], error);
    const key = idKey(message["id"]);
    if (key !== undefined) this.#answerSessions.delete(key);
  }

  #enqueueRequestError(id: unknown, error: Error): void {
    const data = error instanceof HttpResponseError ? { data: { status: error.status, body: parsedBody(error.body) } } : {};
    this.#enqueue({ jsonrpc: "2.0", id, error: { code: -32603, message: error.message, ...data } });
  }

  /** Closes the stream: every SSE stream aborted, the connection DELETEd (its failure rejects), the own cookies cleared, the readable closed. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#abort.abort();
    try {
      await this.#endpoint.deleteConnection(this.#connectionId);
    } finally {
      this.#endpoint.clearOwnCookies();
      try {
        this.#controller?.close();
      } catch {
        // Already closed, cancelled or errored.
      }
    }
  }

  #enqueue(message: WireMessage): void {
    try {
      this.#controller?.enqueue(message);
    } catch (error) {
      this.#fail(error);
    }
  }

  /** Errors the stream (once): streams aborted, the connection DELETEd in the background, own cookies cleared after. */
  #fail(error: unknown, connectionId: string | undefined = this.#connectionId): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#abort.abort();
    void this.#endpoint
      .deleteConnection(connectionId)
      .catch(() => undefined)
      .finally(() => this.#endpoint.clearOwnCookies());
    try {
      this.#controller?.error(error);
    } catch {
      // Already closed or cancelled.
    }
  }
}
