/**
 * One WebSocket connection (RFD "WebSocket Request Flow"): each text frame
 * is one JSON-RPC message, parsed and classified once here (the session
 * count needs a look at requests) with the connection's own parser and
 * classifier, and handed parsed to the connection's pipeline;
 * each line the connection writes goes out as one text frame. Binary frames
 * are ignored. Portable: adapters (`ws` on Node, a runtime's own WebSocket)
 * supply the frames and an {@link EventSink} that sends them, and, when
 * their socket can stop reading, {@link SocketFlow} for backpressure.
 */
import type { RequestId } from "../context.ts";
import { ErrorCode } from "../errors.ts";
import { classify, type MessageKind } from "../jsonrpc/classify.ts";
import { errorMessage } from "../jsonrpc/messages.ts";
import { ParseFailure, parseValue } from "../jsonrpc/parse.ts";
import { isBlank } from "../transport/framer.ts";
import { lineReader, type ChunkReader } from "../transport/reader.ts";
import { deliverMessage, type Transport, type TransportReceiver } from "../transport/transport.ts";
import type { ServedConnection } from "./options.ts";
import { sessionIdOfMessage } from "../jsonrpc/session-id.ts";
import { peekLine } from "./peek.ts";
import { messageLine, oneLine, OWN_OUTPUT } from "./protocol.ts";
import { ConnectionSessions } from "./sessions.ts";
import { backlogAllowance, readerFault, type EventSink } from "./sink.ts";
import { newConnectionId, type ServerState } from "./state.ts";

/** What an adapter drives: frames in, close. */
export interface AcceptedSocket {
  readonly connectionId: string;
  /** One text frame from the client. */
  message(text: string): void;
  /** The socket closed (or failed); `reason` says why. */
  closed(reason?: string): void;
}

/** Stops and restarts reading a socket (`ws`: `pause()`/`resume()`), so frames back up in TCP instead of in memory. */
export interface SocketFlow {
  /** Stops reading the socket until `resume()`. */
  pause(): void;
  /** Reads the socket again after `pause()`. */
  resume(): void;
}

/** A connection id for an upgrade about to be accepted, or the reason it is refused. */
export function prepareSocket(state: ServerState): { readonly connectionId: string; readonly setCookie: string | undefined } | { readonly refusal: string } {
  const refusal = state.refusal();
  return refusal !== undefined ? { refusal } : { connectionId: newConnectionId(), setCookie: state.affinityCookie };
}

/**
 * Opens an ACP connection over an accepted WebSocket whose frames go out
 * through `sink`. With `flow`, the connection stops reading the socket while
 * its handlers are behind; without it (a runtime's socket that cannot pause)
 * frames queue for their handlers in memory.
 */
export function acceptSocket(state: ServerState, connectionId: string, sink: EventSink, header: (name: string) => string | undefined, flow?: SocketFlow): AcceptedSocket {
  const connection = new SocketConnection(connectionId, state, sink);
  if (flow !== undefined) {
    connection.pause = () => flow.pause();
    connection.resume = () => flow.resume();
  }
  state.add(connection, "websocket");
  try {
    connection.served = state.open({ connectionId, transport: "websocket", header }, connection);
  } catch {
    // The agent factory or the onConnection hook threw: the socket is closed, its frames ignored.
    connection.close();
  }
  return {
    connectionId,
    message: (text) => connection.receive(text),
    closed: (reason) => connection.fail(reason ?? "the client closed the WebSocket"),
  };
}

class SocketConnection implements Transport {
  readonly id: string;
  served: ServedConnection | undefined;
  /** Set by `acceptSocket` when the adapter's socket can stop reading. */
  pause?: () => void;
  resume?: () => void;
  private readonly state: ServerState;
  private readonly sink: EventSink;
  private readonly sessions: ConnectionSessions;
  private receiver: TransportReceiver | undefined;
  private closed = false;
  /** Splits text written with `write` into lines, one frame each (our own output: no length bound); made on first use: connections write messages (`writeMessage`). */
  private lines: ChunkReader | undefined;
  /** The largest frame sent: `maxStreamBytes` bounds what waits beyond two such messages. */
  private largest = 0;

  constructor(id: string, state: ServerState, sink: EventSink) {
    this.id = id;
    this.state = state;
    this.sink = sink;
    this.sessions = new ConnectionSessions(state.counter);
    sink.onClose(() => this.fail("the WebSocket closed"));
  }

  get streamCount(): number {
    return this.closed ? 0 : 1;
  }

  start(receiver: TransportReceiver): void {
    this.receiver = receiver;
  }

  receive(text: string): void {
    if (this.closed) return;
    // As the framer reads a line: a byte-order mark before the message is ignored, a blank frame skipped.
    const line = oneLine(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    if (isBlank(line)) return;
    // The frame's one parse and classification (a failure or a batch is handed on as parsed: the connection answers it).
    const value = parseValue(line, this.state.reader.maxDepth);
    let kind: MessageKind | undefined;
    if (!(value instanceof ParseFailure) && !Array.isArray(value)) {
      kind = classify(value);
      // Requests that open or close sessions need a look before the pipeline (the session count).
      if (kind === "request") {
        const body = value as { id: RequestId; method: string };
        if (!this.sessions.request(body.id, this.state.router.inboundRow("agent", "request", body.method), sessionIdOfMessage(body))) {
          this.sink.write(JSON.stringify(errorMessage(body.id, { code: ErrorCode.InternalError, message: `the server holds its maximum of ${this.state.limits.maxSessions} sessions` })));
          return;
        }
      }
    }
    if (this.receiver) deliverMessage(this.receiver, value, line, kind);
  }

  /** One message the agent connection sends: one frame, as it is. */
  writeMessage(text: string): void {
    this.send(messageLine(text));
  }

  /** Text from a writer that only knows `write`: split into lines, one frame each. */
  write(text: string): void {
    if (this.closed) return;
    this.lines ??= lineReader({ line: (line) => this.send(line), oversized: () => {} }, OWN_OUTPUT);
    this.lines.push(text);
  }

  private send(line: string): void {
    if (this.closed) return;
    if (this.sessions.waiting) this.sessions.answer(peekLine(line), line);
    if (line.length > this.largest) this.largest = line.length;
    this.sink.write(line);
    const fault = readerFault(this.sink, this.state.limits, Date.now(), backlogAllowance(this.largest));
    if (fault) this.fail(fault);
  }

  sweep(now: number): void {
    const fault = readerFault(this.sink, this.state.limits, now, backlogAllowance(this.largest));
    if (fault) this.fail(fault);
  }

  fail(reason: string): void {
    if (this.closed) return;
    if (this.receiver) this.receiver.end(new Error(reason));
    else this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.sessions.release();
    this.sink.end();
    this.state.remove(this);
  }
}
