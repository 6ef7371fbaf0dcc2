/**
 * `@agentclientprotocol/sdk/experimental/server`: `AcpServer`, an agent app
 * served over Streamable HTTP and WebSocket, on acp-router's remote server
 * (`createRemoteServer`): each remote connection gets the app's handlers, and
 * the app's connect handlers run before that connection's first message.
 *
 * @module
 */
import { createRemoteServer, type RemoteServer } from "../../../src/remote/server.ts";
import type { AgentApp } from "./sides.ts";

/** A WebSocket as the SDK's prepared upgrades take it: `ws`'s server socket or a Web `WebSocket`. */
export interface WebSocketServerSocket {
  readonly readyState?: number;
  readonly bufferedAmount?: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener?(type: string, listener: (event: unknown) => void): void;
  removeEventListener?(type: string, listener: (event: unknown) => void): void;
  on?(type: string, listener: (...args: unknown[]) => void): unknown;
  off?(type: string, listener: (...args: unknown[]) => void): unknown;
  removeListener?(type: string, listener: (...args: unknown[]) => void): unknown;
}

/** The agent for one prepared upgrade (default the server's). */
export type PrepareWebSocketUpgradeOptions = { readonly agent?: AgentApp; readonly createAgent?: never } | { readonly agent?: never; readonly createAgent?: () => AgentApp };

/** A WebSocket upgrade the server agreed to: send `connectionId` as `Acp-Connection-Id` in the 101 answer, then `accept` the socket (or `reject`). */
export interface PreparedWebSocketUpgrade {
  readonly connectionId: string;
  accept(socket: WebSocketServerSocket): void;
  reject(): void;
}

const OPEN = 1;

/** Listens to `type` on a `ws` socket (`on`) or a Web one (`addEventListener`). */
function listen(socket: WebSocketServerSocket, type: "message" | "close" | "error", listener: (...args: unknown[]) => void): void {
  if (typeof socket.on === "function") socket.on(type, listener);
  else socket.addEventListener?.(type, (event) => listener(event));
}

/** A message event's text: `ws` hands `(data, isBinary)`, a Web socket a `MessageEvent`; binary frames are not ACP. */
function textOf(args: unknown[]): string | undefined {
  const [first, isBinary] = args;
  if (isBinary === true) return undefined;
  const data = typeof first === "object" && first !== null && "data" in first ? (first as { data: unknown }).data : first;
  if (typeof data === "string") return data;
  if (data instanceof Uint8Array) return Buffer.from(data).toString("utf8");
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString("utf8");
  return undefined;
}

/** Creates the agent app of one connection. */
export type AgentFactory = () => AgentApp;

/** The agent to serve: one app for every connection, or a factory called per connection. */
type AgentOption = { readonly agent: AgentApp; readonly createAgent?: never } | { readonly agent?: never; readonly createAgent: AgentFactory };

/** The agent for one request or upgrade (default the server's). */
export type HandleRequestOptions = { readonly agent?: AgentApp; readonly createAgent?: never } | { readonly agent?: never; readonly createAgent?: AgentFactory };

/** Default of {@link ConnectionLimits.maxBufferedBytes}: 64 MiB. */
export const DEFAULT_MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
/** Default of {@link ConnectionLimits.maxOutputStallMs}: 60 s. */
export const DEFAULT_MAX_OUTPUT_STALL_MS = 60_000;
/** Default of {@link ConnectionLimits.maxBufferedSessionStreams}: 1024. */
export const DEFAULT_MAX_BUFFERED_SESSION_STREAMS = 1024;
/** Default of {@link ConnectionLimits.maxIdLength}: 1024. */
export const DEFAULT_MAX_ID_LENGTH = 1024;

/**
 * The SDK's per-connection limits. `maxBufferedBytes` is the output one connection may hold for a
 * reader (acp-router's `maxStreamBytes`), `maxOutputStallMs` how long a reader may take nothing
 * while output waits (`stallMs`); `maxBufferedSessionStreams` and `maxIdLength` are checked as the
 * SDK checks them (positive safe integers) and recorded; acp-router's server bounds session streams
 * and ids by its own rules (docs/sdk-drop-in.md).
 */
export interface ConnectionLimits {
  readonly maxBufferedBytes?: number;
  readonly maxOutputStallMs?: number;
  readonly maxBufferedSessionStreams?: number;
  readonly maxIdLength?: number;
}

/** Longest timer Node accepts, the bound of `maxOutputStallMs`. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The limits with their defaults, each a positive safe integer (a `RangeError` names the first that is not). */
function resolveLimits(options: ConnectionLimits): Required<ConnectionLimits> {
  const limits = {
    maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
    maxOutputStallMs: options.maxOutputStallMs ?? DEFAULT_MAX_OUTPUT_STALL_MS,
    maxBufferedSessionStreams: options.maxBufferedSessionStreams ?? DEFAULT_MAX_BUFFERED_SESSION_STREAMS,
    maxIdLength: options.maxIdLength ?? DEFAULT_MAX_ID_LENGTH,
  };
  for (const [name, value] of Object.entries(limits)) if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive safe integer`);
  if (limits.maxOutputStallMs > MAX_TIMER_MS) throw new RangeError(`maxOutputStallMs must be at most ${MAX_TIMER_MS}`);
  return limits;
}

/** Options of {@link AcpServer}: the agent, and the connection limits. */
export type AcpServerOptions = AgentOption & ConnectionLimits;

/** The request header that carries a per-request agent's token to the connection it opens (never sent by clients: removed from every request first). */
const AGENT_TOKEN = "x-acp-router-sdk-agent";

const remotes = new WeakMap<AcpServer, () => RemoteServer>();

/** A plain-text answer, as the SDK's server gives its transport-level refusals. */
const plainText = (text: string, status: number): Response => new Response(text, { status, headers: { "content-type": "text/plain" } });

/** The SDK's answer to an `initialize` whose agent could not be made: 500, `-32603` "Initialize failed", the error's message as `data`. */
async function initializeFailed(request: Request, error: unknown): Promise<Response> {
  let id: unknown = null;
  try {
    id = ((await request.json()) as { id?: unknown }).id ?? null;
  } catch {
    // No readable id: answered with id null.
  }
  const body = { jsonrpc: "2.0", id, error: { code: -32603, message: "Initialize failed", data: error instanceof Error ? error.message : undefined } };
  return new Response(JSON.stringify(body), { status: 500, headers: { "content-type": "application/json" } });
}

/**
 * The checks the SDK's server makes before a request reaches a connection, where acp-router's
 * remote server answers otherwise: a GET that does not accept `text/event-stream` is 406, and an
 * `initialize` POSTed on an existing connection (with `Acp-Connection-Id`) is 400. Returns the
 * answer, or the request to pass on (its body read once and kept when it had to be looked at).
 */
async function sdkRefusal(request: Request): Promise<Request | Response> {
  if (request.method === "GET" && request.headers.get("upgrade")?.toLowerCase() !== "websocket" && !(request.headers.get("accept")?.toLowerCase() ?? "").includes("text/event-stream")) return plainText("Not Acceptable", 406);
  if (request.method !== "POST" || request.headers.get("acp-connection-id") === null) return request;
  const text = await request.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (typeof body === "object" && body !== null && !Array.isArray(body) && (body as { method?: unknown }).method === "initialize" && "id" in body) return plainText("Initialize not allowed on existing connection", 400);
  return new Request(request.url, { method: "POST", headers: request.headers, body: text, signal: request.signal });
}

/** The remote server behind an `AcpServer` (for the Node adapters), made on first use. @internal */
export function remoteOf(server: AcpServer): RemoteServer {
  const remote = remotes.get(server);
  if (remote === undefined) throw new TypeError("expected an AcpServer");
  return remote();
}

/**
 * Serves an agent app to remote clients; hand it requests with `handleRequest` or the Node
 * adapters. As the SDK's, a `createAgent` factory is called once per connection, when the
 * connection opens (the first call also tells the server which table it serves).
 */
export class AcpServer {
  /** Prepared upgrades and requests that named their own agent, by connection id or token. */
  readonly #chosen = new Map<string, () => AgentApp>();
  constructor(options: AcpServerOptions) {
    if (typeof options !== "object" || options === null || (options.agent === undefined && typeof options.createAgent !== "function")) throw new TypeError("new AcpServer(options): pass { agent } (an agent app) or { createAgent } (a function making one per connection).");
    const limits = resolveLimits(options);
    // A factory's app made to learn the table serves the first connection.
    let spare: AgentApp | undefined;
    const next = (): AgentApp => {
      const app = options.agent ?? spare ?? (options.createAgent as AgentFactory)();
      spare = undefined;
      return app;
    };
    let remote: RemoteServer | undefined;
    const pending = new Map<string, ReturnType<AgentApp["routed"]>>();
    // `first`: an app already made for the first connection (a per-request agent), which tells the table.
    const ensure = (first?: AgentApp): RemoteServer => {
      if (remote !== undefined) return remote;
      if (first === undefined && options.agent === undefined) spare = (options.createAgent as AgentFactory)();
      const protocol = (first ?? options.agent ?? (spare as AgentApp)).protocol;
      remote = createRemoteServer({
        protocol,
        maxStreamBytes: limits.maxBufferedBytes,
        stallMs: limits.maxOutputStallMs,
        agent: (info) => {
          const token = info.header(AGENT_TOKEN);
          const chosen = this.#chosen.get(info.connectionId) ?? (token === undefined ? undefined : this.#chosen.get(token));
          this.#chosen.delete(info.connectionId);
          const routed = (chosen?.() ?? next()).routed();
          pending.set(info.connectionId, routed);
          return routed.handler as never;
        },
        onConnection: (connection, info) => {
          pending.get(info.connectionId)?.bind(connection);
          pending.delete(info.connectionId);
        },
      });
      return remote;
    };
    this.#ensure = ensure;
    remotes.set(this, () => ensure());
    this.#isStarted = () => remote !== undefined;
  }
  readonly #isStarted: () => boolean;
  get #started(): boolean {
    return this.#isStarted();
  }
  /** Makes the remote server on first use; `first` is an app made for the first connection. */
  readonly #ensure: (first?: AgentApp) => RemoteServer;
  /** Answers one Fetch API request (POST, GET, DELETE) on whatever path it came to; `options` picks the agent of the connection an `initialize` opens. */
  async handleRequest(request: Request, options: HandleRequestOptions = {}): Promise<Response> {
    let chosen = options.agent !== undefined ? () => options.agent as AgentApp : options.createAgent;
    try {
      if (chosen !== undefined && !this.#started) {
        // The first connection's own agent also tells the server its table; made once, it serves that connection.
        const app = chosen();
        chosen = () => app;
        this.#ensure(app);
      } else this.#ensure();
    } catch (error) {
      // The factory failed while making the first connection's agent: answered as the SDK answers it.
      return initializeFailed(request, error);
    }
    const headers = new Headers(request.headers);
    headers.delete(AGENT_TOKEN);
    const token = chosen === undefined ? undefined : crypto.randomUUID();
    if (token !== undefined && chosen !== undefined) {
      headers.set(AGENT_TOKEN, token);
      this.#chosen.set(token, chosen);
    }
    try {
      const refused = await sdkRefusal(request);
      if (refused instanceof Response) return refused;
      return await this.#ensure().handleRequest(new Request(refused, { headers }));
    } finally {
      if (token !== undefined) this.#chosen.delete(token);
    }
  }
  /**
   * Reserves a connection id for a WebSocket upgrade (send it as
   * `Acp-Connection-Id` in the 101 answer), then `accept(socket)` serves the
   * upgraded socket, or `reject()` gives the reservation up. Throws when the
   * server takes no new connection (closing, or at its limit).
   */
  prepareWebSocketUpgrade(options: PrepareWebSocketUpgradeOptions = {}): PreparedWebSocketUpgrade {
    let chosen = options.agent !== undefined ? () => options.agent as AgentApp : options.createAgent;
    if (chosen !== undefined && !this.#started) {
      const app = chosen();
      chosen = () => app;
      this.#ensure(app);
    }
    const remote = this.#ensure();
    const ids = remote.prepareSocket();
    if ("refusal" in ids) throw new Error(`WebSocket upgrade refused: ${ids.refusal}`);
    const { connectionId } = ids;
    let settled = false;
    return {
      connectionId,
      accept: (socket) => {
        if (settled) throw new Error("this prepared WebSocket upgrade was already accepted or rejected");
        settled = true;
        if (chosen !== undefined) this.#chosen.set(connectionId, chosen);
        const closers: (() => void)[] = [];
        const sink = {
          write: (line: string) => {
            if ((socket.readyState ?? OPEN) === OPEN) socket.send(line);
          },
          end: () => socket.close(1000),
          buffered: () => socket.bufferedAmount ?? 0,
          blockedSince: () => undefined,
          onClose: (callback: () => void) => void closers.push(callback),
        };
        const accepted = remote.acceptSocket(connectionId, sink, () => undefined);
        this.#chosen.delete(connectionId);
        let closed = false;
        const close = () => {
          if (closed) return;
          closed = true;
          for (const run of closers) run();
          accepted.closed();
        };
        listen(socket, "message", (...args) => {
          const text = textOf(args);
          if (text !== undefined) accepted.message(text);
        });
        listen(socket, "close", close);
        listen(socket, "error", close);
      },
      reject: () => {
        settled = true;
      },
    };
  }
  /** Closes every connection and stops accepting new ones. */
  close(): Promise<void> {
    return remoteOf(this).close();
  }
}
