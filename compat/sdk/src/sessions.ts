/**
 * The client's session helpers: `SessionBuilder` (builds and sends
 * `session/new`) and `ActiveSession` (prompts one session and reads its
 * updates as a queue). Updates reach a session through the connection's
 * `SessionRoutes` (`session-routes.ts`), which the client's `session/update` handler feeds
 * after the core delivered the update in order.
 */
import type { SendRequestOptions, MaybePromise } from "./wire-types.ts";
import { requestOptions, type Sender } from "./sender.ts";
import { ActiveSessionV2 } from "./sessions-v2.ts";
import type { SessionRoutes } from "./session-routes.ts";

type Json = Record<string, unknown>;

/** One item of an active session's queue: an update, or the end of a turn. */
export type ActiveSessionMessage = { kind: "session_update"; notification: Json & { sessionId: string; update: Json }; update: Json } | { kind: "stop"; response: Json & { stopReason: string }; stopReason: string };

/** Builds a `session/new` request; `start` sends it. */
export class SessionBuilder {
  readonly #sender: Sender;
  readonly #routes: SessionRoutes;
  readonly #request: Json & { cwd: string; mcpServers: unknown[] };
  readonly #closed: AbortSignal | undefined;
  private constructor(sender: Sender, routes: SessionRoutes, request: Json & { cwd: string; mcpServers?: unknown[] }, closed: AbortSignal | undefined) {
    this.#sender = sender;
    this.#routes = routes;
    this.#closed = closed;
    // Deep copies, as the SDK's builder makes: a caller changing its objects later changes nothing here.
    this.#request = structuredClone({ ...request, mcpServers: request.mcpServers ?? [] });
  }
  /** @internal `closed`: the connection's signal (a session's reads fail once it aborted). */
  static create(sender: Sender, routes: SessionRoutes, cwdOrRequest: string | (Json & { cwd: string }), closed?: AbortSignal): SessionBuilder {
    return new SessionBuilder(sender, routes, typeof cwdOrRequest === "string" ? { cwd: cwdOrRequest } : cwdOrRequest, closed);
  }
  /** The `session/new` params built so far (a copy). */
  toRequest(): Json & { cwd: string; mcpServers: unknown[] } {
    return structuredClone(this.#request);
  }
  /** Adds directories the session may use besides `cwd`. */
  withAdditionalDirectories(additionalDirectories: string[]): this {
    this.#request.additionalDirectories = [...additionalDirectories];
    return this;
  }
  /** Adds one MCP server. */
  withMcpServer(mcpServer: unknown): this {
    this.#request.mcpServers.push(structuredClone(mcpServer));
    return this;
  }
  /** Sends `session/new` and returns the session. Call `dispose()` when done reading it. */
  async start(options?: SendRequestOptions): Promise<ActiveSession> {
    const routes = this.#routes;
    routes.startBegan();
    try {
      const response = (await this.#sender.request("session/new", this.toRequest(), requestOptions(options))) as Json & { sessionId: string };
      if (routes.version >= 2) return ActiveSessionV2.create(this.#sender, routes, response, this.#closed) as unknown as ActiveSession;
      return ActiveSession.create(this.#sender, routes, response, this.#closed);
    } finally {
      routes.startEnded();
    }
  }
  /** Starts the session, runs `op` with it, and disposes it however `op` ends. */
  async withSession<T>(op: (session: ActiveSession) => MaybePromise<T>): Promise<T> {
    const session = await this.start();
    try {
      return await op(session);
    } finally {
      session.dispose();
    }
  }
}

/** A queue that hands items to readers in order, or fails them all once closed. */
class Queue<T> {
  readonly #items: T[] = [];
  readonly #readers: { resolve(value: T): void; reject(error: Error): void }[] = [];
  #failed: Error | undefined;
  push(item: T): void {
    const reader = this.#readers.shift();
    if (reader) reader.resolve(item);
    else this.#items.push(item);
  }
  next(): Promise<T> {
    if (this.#items.length > 0) return Promise.resolve(this.#items.shift() as T);
    if (this.#failed) return Promise.reject(this.#failed);
    return new Promise((resolve, reject) => this.#readers.push({ resolve, reject }));
  }
  fail(error: Error): void {
    this.#failed = error;
    for (const reader of this.#readers.splice(0)) reader.reject(error);
  }
}

/** One session: prompt it, read its updates and turn ends in order. */
export class ActiveSession {
  readonly #sender: Sender;
  readonly #response: Json & { sessionId: string };
  readonly #queue = new Queue<ActiveSessionMessage>();
  readonly #unroute: () => void;
  readonly #stopOnClose: (() => void) | undefined;
  private constructor(sender: Sender, routes: SessionRoutes, response: Json & { sessionId: string }, closed: AbortSignal | undefined) {
    this.#sender = sender;
    this.#response = response;
    this.#unroute = routes.add(response.sessionId, (notification) => this.#queue.push({ kind: "session_update", notification, update: notification.update }));
    // Reads waiting when the connection closes fail with its error, as the SDK's do.
    if (closed !== undefined) {
      const onClose = () => this.#queue.fail(closed.reason instanceof Error ? closed.reason : new Error("ACP connection closed"));
      if (closed.aborted) onClose();
      else {
        closed.addEventListener("abort", onClose, { once: true });
        this.#stopOnClose = () => closed.removeEventListener("abort", onClose);
      }
    }
  }
  /** @internal `closed`: the connection's signal. */
  static create(sender: Sender, routes: SessionRoutes, response: Json & { sessionId: string }, closed?: AbortSignal): ActiveSession {
    return new ActiveSession(sender, routes, response, closed);
  }
  /** The session's id. */
  get sessionId(): string {
    return this.#response.sessionId;
  }
  /** The modes `session/new` answered. */
  get modes(): unknown {
    return this.#response.modes;
  }
  /** The `_meta` `session/new` answered. */
  get meta(): Json | null | undefined {
    return this.#response._meta as Json | null | undefined;
  }
  /** The whole `session/new` answer. */
  get newSessionResponse(): Json & { sessionId: string } {
    return this.#response;
  }
  /** Sends `session/prompt` (a string becomes one text block) and queues its answer as a `stop` message. */
  async prompt(prompt: string | Json | Json[], options?: SendRequestOptions): Promise<Json & { stopReason: string }> {
    const blocks = typeof prompt === "string" ? [{ type: "text", text: prompt }] : Array.isArray(prompt) ? prompt : [prompt];
    const response = (await this.#sender.request("session/prompt", { sessionId: this.sessionId, prompt: blocks }, requestOptions(options))) as Json & { stopReason: string };
    this.#queue.push({ kind: "stop", response, stopReason: response.stopReason });
    return response;
  }
  /** The next update or turn end of this session. */
  nextUpdate(): Promise<ActiveSessionMessage> {
    return this.#queue.next();
  }
  /** The agent's text chunks until the current turn ends. */
  async readText(): Promise<string> {
    let text = "";
    for (;;) {
      const message = await this.nextUpdate();
      if (message.kind === "stop") return text;
      const content = message.update.content as { type?: unknown; text?: unknown } | undefined;
      if (message.update.sessionUpdate === "agent_message_chunk" && content?.type === "text") text += String(content.text);
    }
  }
  /** Stops routing this session's updates here (the session stays open on the agent). */
  dispose(): void {
    this.#unroute();
    this.#stopOnClose?.();
    this.#queue.fail(new Error("Active session disposed"));
  }
  /** `using session = …` disposes it. */
  [Symbol.dispose](): void {
    this.dispose();
  }
}
