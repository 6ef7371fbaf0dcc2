/**
 * The SDK-style client stream over WebSocket (`createWebSocketStream`), as SDK 2.4.0's client
 * behaves: each message one text frame (sends wait for the socket to open, in order); each text
 * frame one message; a frame that is not JSON is answered `-32700`, an array `-32600` "batches
 * are not supported", another non-object `-32600`, none passed on; binary frames are ignored.
 * Cookies: a constructor that takes options (`ws`'s) gets the stored cookies in its `Cookie`
 * header and its upgrade answer's `Set-Cookie` stored; a browser's socket uses the browser's jar.
 */
import { MemoryAcpCookieStore, type AcpCookieStore } from "../cookie-store.ts";
import type { Stream } from "../message-stream.ts";
import { frameText, listenTo, type ServerWebSocket } from "../serve/websocket-events.ts";
import { isRecord, nullIdError, type WireMessage } from "../serve/wire.ts";

const OPEN = 1;

/** A client WebSocket as the stream uses it (a Web `WebSocket`, or `ws`'s). */
export type WebSocketLike = ServerWebSocket;

/** A WebSocket constructor: the platform's, or `ws`'s (which takes `{ headers }` third). */
export type WebSocketConstructor = new (url: string, protocols?: string | string[], options?: { headers?: Record<string, string> }) => WebSocketLike;

/** Options of the stream (the SDK's `WebSocketStreamOptions`). */
export interface WebSocketStreamSettings {
  readonly protocols?: string | string[];
  readonly headers?: Record<string, string>;
  readonly cookies?: "include" | "omit";
  readonly cookieStore?: AcpCookieStore;
  readonly WebSocket?: WebSocketConstructor;
}

/** See the module comment. */
export class WebSocketStreamClient {
  readonly stream: Stream;
  readonly #socket: WebSocketLike;
  readonly #cookies: AcpCookieStore;
  readonly #ownsCookies: boolean;
  readonly #detach: (() => void)[] = [];
  #controller: ReadableStreamDefaultController<WireMessage> | undefined;
  #closed = false;
  #open: { promise: Promise<void>; resolve(): void; reject(error: unknown): void } | undefined;
  #sends: Promise<void> = Promise.resolve();

  /** Throws when there is no WebSocket constructor to use. */
  constructor(url: string, settings: WebSocketStreamSettings) {
    const Socket = settings.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (typeof Socket !== "function") throw new Error("createWebSocketStream requires globalThis.WebSocket or options.WebSocket");
    const policy = settings.cookies ?? "include";
    this.#cookies = settings.cookieStore ?? new MemoryAcpCookieStore();
    this.#ownsCookies = settings.cookieStore === undefined;
    this.#socket = new Socket(url, settings.protocols, { headers: constructorHeaders(settings.headers, policy, this.#cookies) } as never);
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    promise.catch(() => undefined);
    this.#open = { promise, resolve, reject };
    const socket = this.#socket;
    this.#detach.push(
      listenTo(socket, "open", () => {
        this.#open?.resolve();
        this.#open = undefined;
      }),
    );
    this.#detach.push(listenTo(socket, "message", (...args) => this.#onFrame(args)));
    this.#detach.push(listenTo(socket, "close", () => this.#end()));
    this.#detach.push(listenTo(socket, "error", (error) => this.#end(error ?? new Error("WebSocket error"))));
    if (policy === "include")
      this.#detach.push(
        listenTo(socket, "upgrade", (answer) => {
          const headers = upgradeHeaders(answer);
          if (headers !== undefined) this.#cookies.store(headers);
        }),
      );
    this.stream = {
      readable: new ReadableStream<WireMessage>({
        start: (controller) => void (this.#controller = controller),
        cancel: () => this.close(),
      }),
      writable: new WritableStream<WireMessage>({
        write: (message) => this.#queue(message),
        close: () => this.close(),
        abort: () => this.close(),
      }),
    } as unknown as Stream;
  }

  #queue(message: unknown): Promise<void> {
    const send = this.#sends.then(async () => {
      if (this.#closed) throw new Error("ACP WebSocket stream is closed");
      if (this.#socket.readyState !== undefined && this.#socket.readyState !== OPEN) await this.#open?.promise;
      if (this.#closed) throw new Error("ACP WebSocket stream is closed");
      this.#socket.send(JSON.stringify(message));
    });
    this.#sends = send.catch(() => {});
    return send;
  }

  #onFrame(args: unknown[]): void {
    if (this.#closed) return;
    const text = frameText(args);
    if (text === undefined) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.#answer(nullIdError(-32700, "Parse error"));
    }
    if (Array.isArray(value)) return this.#answer(nullIdError(-32600, "Invalid request: JSON-RPC batches are not supported"));
    if (!isRecord(value)) return this.#answer(nullIdError(-32600, "Invalid request", value));
    this.#controller?.enqueue(value);
  }

  /** Sends the stream's own answer to a frame it could not pass on; a failed send errors the stream. */
  #answer(message: WireMessage): void {
    void this.#queue(message).catch((error: unknown) => this.#end(error));
  }

  /** Closes the socket and the readable. */
  close(): void {
    try {
      this.#socket.close();
    } catch (error) {
      console.warn("Failed to close ACP WebSocket:", error);
    }
    this.#end();
  }

  /** Ends the stream (once): listeners off, own cookies cleared, a pending open rejected, the readable closed (or errored with `error`). */
  #end(error?: unknown): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsCookies) this.#cookies.clear();
    for (const detach of this.#detach.splice(0)) detach();
    this.#open?.reject(error ?? new Error("ACP WebSocket stream closed before open"));
    this.#open = undefined;
    try {
      if (error === undefined) this.#controller?.close();
      else this.#controller?.error(error);
    } catch {
      // Already closed or cancelled.
    }
  }
}

/** The constructor's headers: the caller's, with the stored cookies merged into `Cookie` (under the caller's spelling of it); undefined when empty. */
function constructorHeaders(headers: Record<string, string> | undefined, policy: "include" | "omit", cookies: AcpCookieStore): Record<string, string> | undefined {
  const result: Record<string, string> = headers ? { ...headers } : {};
  if (policy === "include") {
    const merged = new Headers(headers);
    cookies.apply(merged);
    const cookie = merged.get("Cookie");
    if (cookie) result[Object.keys(result).find((name) => name.toLowerCase() === "cookie") ?? "Cookie"] = cookie;
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

/** The headers of an `upgrade` event's answer (`ws` hands the `IncomingMessage`). */
function upgradeHeaders(answer: unknown): Headers | undefined {
  if (answer instanceof Headers) return answer;
  if (!isRecord(answer) || !("headers" in answer)) return undefined;
  const raw = answer["headers"];
  if (raw instanceof Headers) return raw;
  if (!isRecord(raw)) return undefined;
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, String(item));
    else if (value !== undefined) headers.set(name, String(value));
  }
  return headers;
}
