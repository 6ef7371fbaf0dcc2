/**
 * The two kinds of server WebSocket the SDK-style server takes: `ws`'s (an event emitter: `on`,
 * `off`, a message as `(data, isBinary)`) and the Web's (`addEventListener`, a `MessageEvent`).
 */

/** A WebSocket as the SDK's prepared upgrades take it. */
export interface ServerWebSocket {
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

/** Listens to `type` on either kind of socket; returns what stops listening. An emitter's message arrives as its text (undefined for a binary frame). */
export function listenTo(socket: ServerWebSocket, type: string, listener: (...args: unknown[]) => void): () => void {
  if (typeof socket.on === "function") {
    const onEvent = (...args: unknown[]) => listener(...(type === "message" && typeof args[1] === "boolean" ? [args[1] ? undefined : decode(args[0])] : args));
    socket.on(type, onEvent);
    return () => {
      if (typeof socket.off === "function") socket.off(type, onEvent);
      else socket.removeListener?.(type, onEvent);
    };
  }
  if (typeof socket.addEventListener === "function") {
    const onEvent = (event: unknown) => listener(event);
    socket.addEventListener(type, onEvent);
    return () => socket.removeEventListener?.(type, onEvent);
  }
  throw new Error("WebSocket object does not support event listeners");
}

/** The text of a message event's data (a `MessageEvent`'s `data`, or the value itself); undefined when it is not text. */
export function frameText(args: unknown[]): string | undefined {
  const [first] = args;
  const data = typeof first === "object" && first !== null && "data" in first ? (first as { data: unknown }).data : first;
  return typeof data === "string" ? data : undefined;
}

/** An emitter's text frame data as a string: a string, bytes, or a list of byte chunks. */
function decode(data: unknown): string | undefined {
  if (typeof data === "string") return data;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return new TextDecoder().decode(data);
  if (Array.isArray(data) && data.every((part) => ArrayBuffer.isView(part))) {
    const parts = data as ArrayBufferView[];
    const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
    let offset = 0;
    for (const part of parts) {
      joined.set(new Uint8Array(part.buffer, part.byteOffset, part.byteLength), offset);
      offset += part.byteLength;
    }
    return new TextDecoder().decode(joined);
  }
  return undefined;
}
