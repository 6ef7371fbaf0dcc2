/**
 * The client side of ACP over WebSocket (RFD): a `Transport` for
 * `connectClient`. Each line the connection writes is one text frame; each
 * text frame received is one message; binary frames are ignored. Flow
 * control (`pause`/`resume`) is offered when the socket can stop reading:
 * `ws` sockets can (`pause()` stops reading the TCP socket, so the server's
 * sends back up); the WHATWG WebSocket of browsers, Deno, Bun and Node 22+
 * has no way to stop receiving, so over it the transport has no `pause` and
 * messages queue for their handlers in memory. Portable:
 * uses `options.WebSocket` or the global `WebSocket` (browsers, Deno, Bun,
 * Node 22+); on Node 20 pass `nodeWebSocket` from `./node-ws.ts`.
 */
import { createCookieJar, type CookieJar } from "./cookies.ts";
import type { Transport, TransportReceiver } from "../transport/transport.ts";
import { DEFAULT_MAX_WRITE_QUEUE_BYTES } from "../transport/web.ts";
import { messageLine, oneLine } from "./protocol.ts";
import { deliverLine } from "../transport/reader.ts";

/** The WebSocket surface this transport uses (the WHATWG API; `ws` implements it). */
export interface WebSocketLike {
  /** 0 connecting, 1 open, 2 closing, 3 closed (the WHATWG values). */
  readonly readyState: number;
  /** Bytes queued by `send` and not yet written to the network. */
  readonly bufferedAmount: number;
  /** Sends one text frame. */
  send(data: string): void;
  /** Starts the closing handshake with `code` and `reason`. */
  close(code?: number, reason?: string): void;
  /** Subscribes to `open`, `message`, `close` and `error`. */
  addEventListener(type: string, listener: (event: never) => void): void;
  /** Stops reading the socket (`ws`; absent from the WHATWG API). */
  pause?(): void;
  /** Reads again after `pause`. */
  resume?(): void;
}

/** A WebSocket constructor: the WHATWG one, or one that takes headers as a third argument (`ws`). */
export type WebSocketConstructor = new (url: string, protocols?: string | string[], options?: { headers?: Record<string, string> }) => WebSocketLike;

/** Options of {@link webSocketClientTransport}. */
export interface WebSocketClientOptions {
  /** The constructor. Default: `globalThis.WebSocket`. */
  readonly WebSocket?: WebSocketConstructor;
  /** Headers for the upgrade request, for constructors that take them (`ws`); browsers ignore them. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Subprotocols to offer. */
  readonly protocols?: string | string[];
  /** The cookie jar (constructors that take headers; browsers use their own). Default: a fresh jar. */
  readonly cookies?: CookieJar;
  /** Close with an error once this many bytes wait to be sent. Default 64 MiB. */
  readonly maxWriteQueueBytes?: number;
}

/** A WebSocket transport to `url` (`ws://host:port/acp` or `wss://…`). */
export function webSocketClientTransport(url: string, options: WebSocketClientOptions = {}): Transport {
  const Ctor = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (Ctor === undefined) throw new Error("no WebSocket constructor: pass options.WebSocket (on Node 20, nodeWebSocket from acp-router's ws entry)");
  const jar = options.cookies ?? createCookieJar();
  const limit = options.maxWriteQueueBytes ?? DEFAULT_MAX_WRITE_QUEUE_BYTES;
  const headers: Record<string, string> = { ...options.headers };
  const cookie = jar.header(url);
  if (cookie !== undefined) headers.cookie = cookie;
  const socket = new Ctor(url, options.protocols, { headers });
  // `ws` reports the 101 answer: keep its cookies (the RFD makes them mandatory).
  (socket as { once?: (event: string, listener: (res: { headers: Record<string, string | string[] | undefined> }) => void) => void }).once?.("upgrade", (res) => {
    const set = res.headers["set-cookie"];
    if (set !== undefined) jar.store(url, Array.isArray(set) ? set : [set]);
  });
  let receiver: TransportReceiver | undefined;
  let early: string[] = [];
  let closed = false;
  let ended = false;
  const end = (error?: Error) => {
    if (ended) return;
    ended = true;
    receiver?.end(error);
  };
  const send = (line: string) => {
    socket.send(line);
    if (socket.bufferedAmount > limit) {
      end(new Error(`write queue over ${limit} bytes: the server is not reading`));
      socket.close(1011, "write queue full");
    }
  };
  socket.addEventListener("open", () => {
    const lines = early;
    early = [];
    for (const line of lines) send(line);
  });
  socket.addEventListener("message", (event: { data: unknown }) => {
    // One frame, one message: parsed once, with the connection's limits (`deliverLine`).
    if (typeof event.data === "string" && receiver) deliverLine(receiver, oneLine(event.data));
  });
  socket.addEventListener("close", (event: { code: number; reason: string }) => {
    end(closed ? undefined : new Error(`the WebSocket closed (code ${event.code}${event.reason ? `: ${event.reason}` : ""})`));
  });
  socket.addEventListener("error", (event: { message?: string; error?: unknown }) => {
    end(event.error instanceof Error ? event.error : new Error(`WebSocket error${event.message ? `: ${event.message}` : ""}`));
  });
  const transport: Transport = {
    start(r) {
      receiver = r;
    },
    write(text) {
      if (closed || ended) return;
      for (const line of text.split("\n")) {
        if (line === "") continue;
        if (socket.readyState === 1) send(line);
        else early.push(line);
      }
    },
    writeMessage(text) {
      if (closed || ended) return;
      // One message, one frame, as it is.
      const line = messageLine(text);
      if (socket.readyState === 1) send(line);
      else early.push(line);
    },
    close() {
      if (closed) return;
      closed = true;
      if (socket.readyState === 0) socket.addEventListener("open", () => socket.close(1000));
      else socket.close(1000);
      if (options.cookies === undefined) jar.clear();
      end();
    },
  };
  // Only a socket that can stop reading offers flow control (a no-op pause would report "paused" while frames keep coming).
  if (typeof socket.pause === "function" && typeof socket.resume === "function") {
    transport.pause = () => socket.pause?.();
    transport.resume = () => socket.resume?.();
  }
  return transport;
}
