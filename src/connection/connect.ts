/**
 * Opens a connection over a transport: wires framing to the inbound
 * pipeline, end-of-stream to close, and builds the public object. Generic
 * over the protocol it is given (`src/protocol.ts`); imports no table.
 */
import type { ExtensionNotification, ExtensionRequest, ParamsInput, ResultOutput } from "../extensions/define.ts";
import { withExtensions } from "../extensions/registry.ts";
import { notifyExtension, requestExtension } from "../extensions/send.ts";
import type { RequestOptions, PeerCaller } from "../peer-caller.ts";
import type { Protocol } from "../protocol.ts";
import { readerLimits, readMessages } from "../transport/reader.ts";
import type { Transport } from "../transport/transport.ts";
import type { MessageKind } from "../jsonrpc/classify.ts";
import type { CallHost, ExtensionSender } from "./call.ts";
import { ConnectionCore, type CloseInfo, type ConnectionStats, type Side } from "./core.ts";
import type { ConnectionOptions } from "./options.ts";

/** What both sides' connections offer, typed by the peer's method maps and the protocol's capability types. */
export interface Connection<Methods, Notifications, AgentCapabilities = unknown, ClientCapabilities = unknown> {
  /** Sends a request; typed for every table row the peer handles. */
  request<W extends keyof Methods & string>(wire: W, params: Methods[W] extends { params: infer P } ? P : never, options?: RequestOptions): Promise<Methods[W] extends { result: infer R } ? R : never>;
  /**
   * Sends a request defined with `defineExtension`: params typed by its params
   * validator, the result validated by its result validator (an invalid one
   * rejects the call). Refused locally when the peer did not advertise its capability.
   */
  request<E extends ExtensionRequest<unknown, unknown>>(extension: E, params: ParamsInput<E>, options?: RequestOptions): Promise<ResultOutput<E>>;
  /** Sends an extension request (`_`-prefixed wire, passed unchanged); the result is not validated, so `R` is the caller's claim. */
  request<R = unknown>(wire: `_${string}`, params: object, options?: RequestOptions): Promise<R>;
  /** Sends a notification; typed like `request`. */
  notify<W extends keyof Notifications & string>(wire: W, params: Notifications[W]): Promise<void>;
  /** Sends a notification defined with `defineExtension`, params typed by its validator. */
  notify<E extends ExtensionNotification<unknown>>(extension: E, params: ParamsInput<E>): Promise<void>;
  /** Sends an extension notification (`_`-prefixed wire, passed unchanged). */
  notify(wire: `_${string}`, params: object): Promise<void>;
  /** Closes the connection: pending calls reject with `ConnectionClosedError`, handler signals abort. */
  close(reason?: string): void;
  /** Settles when the connection closed, for whatever reason. Never rejects. */
  readonly closed: Promise<CloseInfo>;
  /** The agent's capabilities once `initialize` completed. */
  readonly agentCapabilities: AgentCapabilities | undefined;
  /** The client's capabilities once `initialize` was sent or received. */
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** Internal counts (pending calls, in-flight handlers, busy lanes, timers, listeners). */
  stats(): ConnectionStats;
}

/**
 * Opens one side of a connection for `protocol`: the typed peer proxy comes
 * from the protocol's factory for the other side. Use `connectAgent` /
 * `connectClient` instead; this is what they call.
 * @internal
 */
export function openConnection<Peer, C>(protocol: Protocol, side: Side, handler: object, transport: Transport, options: ConnectionOptions = {}): { connection: C; peer: Peer } {
  const makePeer = (side === "agent" ? protocol.peers.client : protocol.peers.agent) as (caller: PeerCaller) => Peer;
  const core = open<Peer>(protocol, side, handler, transport, makePeer, options);
  // The same sender handlers reach as `ctx.request` / `ctx.notify` (set in `open`).
  const sender = core.extensionSender;
  const connection = {
    request: sender.request,
    notify: sender.notify,
    close: (reason = "closed by this side") => core.close(reason),
    closed: core.closed,
    get agentCapabilities() {
      return core.state.agentCapabilities;
    },
    get clientCapabilities() {
      return core.state.clientCapabilities;
    },
    stats: () => core.stats(),
  } as C;
  return { connection, peer: core.peer };
}

function open<P>(router: Protocol, side: Side, handler: object, transport: Transport, makePeer: (caller: PeerCaller) => P, options: ConnectionOptions): ConnectionCore<P> {
  // Registered extensions become rows of this connection's router (src/extensions/registry.ts).
  const routed = withExtensions(router, side, options.extensions, (kind, message, data) => core.report(kind, message, data));
  // Handlers send extension methods through `ctx.request` / `ctx.notify` (call.ts), as the connection object does:
  // a definition passes the outbound gate and result validation (extensions/send.ts), a raw wire goes as it is.
  // The sender is built with the core, before its pipeline; it reaches `outbound` only when called.
  const sender = (c: ConnectionCore<P>): ExtensionSender => ({
    request: (wire: string | ExtensionRequest<unknown, unknown>, params: unknown, opts?: RequestOptions) => (typeof wire === "string" ? c.outbound.request(wire, params, opts) : requestExtension(c, wire, params, opts)),
    notify: (wire: string | ExtensionNotification<unknown>, params: unknown) => (typeof wire === "string" ? c.outbound.notify(wire, params) : notifyExtension(c, wire, params)),
  });
  const core: ConnectionCore<P> = new ConnectionCore<P>(routed, side, handler, transport, makePeer, options, sender);
  // The limits of reading, resolved once; junk before a message is recovered only when reading an agent (the agent side stays strict).
  const limits = side === "client" ? readerLimits(options, transport) : readerLimits({ maxMessageBytes: options.maxMessageBytes, maxDepth: options.maxDepth, recoverPrefixedLines: false });
  // After a response settles a call, later messages wait one microtask so the caller's
  // continuation runs first (arrival order is processing order). They queue here; a
  // number stands for an oversized line of that length. One queue with a head index: draining never copies.
  let queue: (number | Parsed)[] = [];
  let head = 0;
  let yielding = false;
  let ended: { error: Error | undefined } | undefined;

  const inbound = core.inbound;
  const watchdog = core.watchdog;
  const oversized = (length: number) => inbound.rejectOversized(length, limits.maxMessageBytes);
  const handle = (item: number | Parsed) => {
    if (typeof item === "number") return oversized(item);
    inbound.processValue(item.value, item.kind);
    afterMessage();
  };
  const afterMessage = () => {
    if (inbound.takeSettledResponse()) {
      if (!yielding) {
        yielding = true;
        queueMicrotask(drain);
      }
    }
  };
  const drain = () => {
    yielding = false;
    while (head < queue.length) {
      if (core.isClosed) return;
      const item = queue[head] as number | Parsed;
      queue[head++] = 0;
      handle(item);
      if (yielding) return; // a response settled: continue after the next microtask
    }
    queue = [];
    head = 0;
    if (ended) finish(ended.error);
  };
  const finish = (error: Error | undefined) => core.close(error ? error.message : "the peer closed the stream", error);

  // The one message reader (transport/reader.ts): framed, parsed and classified once, or handed over parsed by the transport.
  readMessages(
    transport,
    {
      message(value, _line, kind) {
        if (core.isClosed) return;
        watchdog?.heard();
        if (yielding) queue.push(new Parsed(value, kind));
        else {
          inbound.processValue(value, kind);
          afterMessage();
        }
      },
      oversized(length) {
        if (core.isClosed) return;
        watchdog?.heard();
        if (yielding) queue.push(length);
        else oversized(length);
      },
      prefixed(prefix) {
        if (!core.isClosed) core.report("parse_error", `recovered a message after ${prefix.length} characters of non-JSON output before it on the same line: ${JSON.stringify(prefix.slice(0, 80))}`, { prefix });
      },
      end(error) {
        if (core.isClosed) return;
        if (yielding) ended = { error };
        else finish(error);
      },
    },
    limits,
  );
  return core;
}

/** A parsed message waiting in the connection's inbound queue (a class, so a parsed string or number is not taken for a line or a length). */
class Parsed {
  readonly value: unknown;
  readonly kind: MessageKind | undefined;
  constructor(value: unknown, kind: MessageKind | undefined) {
    this.value = value;
    this.kind = kind;
  }
}
