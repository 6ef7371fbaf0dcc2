/**
 * One connection, in the four parts of DESIGN §11, each with one owner:
 *
 * - state: `ConnectionState` (`state.ts`), the negotiated facts and their
 *   one writer; read here and by handlers through `StateView`;
 * - gate: `gate` (`gate.ts`), one pure function for every direction;
 * - pipeline: `Inbound` (`pipeline.ts`, its steps in `receive.ts` to
 *   `answer.ts`) for what arrives, `Outbound` (`outbound.ts`) for what we
 *   send, `responses.ts` for the answers to what we sent;
 * - context: `InboundCall` (`call.ts`), what a handler sees.
 *
 * `ConnectionCore` ties them to a transport and is what `connect.ts` (the
 * transport wiring and the public `Connection`) and the extension senders
 * use. What it still shows, and why:
 *
 * - `side`, `peerSide`, `protocol`: who this is and which table (with
 *   registered extensions) it speaks — the extension senders gate with them;
 * - `state`: the negotiated facts, read-only (`Connection.agentCapabilities`);
 * - `peer`, `outbound`, `extensionSender`: the typed proxy and the sends
 *   behind it and `Connection.request` / `notify` (the sender is built
 *   before the pipeline, which hands it to handlers);
 * - `inbound`: where `connect.ts` hands each framed line;
 * - `transport`, `report`, `close`, `closed`, `isClosed`, `closeInfo`,
 *   `stats`: the life of the connection.
 *
 * Nothing else lives here, and no module outside this folder writes to it.
 */
import { ConnectionClosedError } from "../errors.ts";
import type { PeerCaller } from "../peer-caller.ts";
import type { Protocol } from "../protocol.ts";
import type { Transport } from "../transport/transport.ts";
import type { ConnectionOptions, Diagnostic } from "./options.ts";
import { Outbound, type OutboundHost } from "./outbound.ts";
import type { ExtensionSender } from "./call.ts";
import { Inbound, describeError, type InboundHost } from "./pipeline.ts";
import { answerPending, rejectInvalidResponse } from "./responses.ts";
import { ConnectionState, type StateView } from "./state.ts";
import { checkWatchdog, Watchdog } from "./watchdog.ts";
import type { UnresponsiveError } from "../errors.ts";

/** One side of a connection: the agent or the client. */
export type Side = "agent" | "client";

/** Why and how a connection ended. */
export interface CloseInfo {
  readonly reason: string;
  readonly error: Error | undefined;
}

/** Internal counts, for tests and soak runs: all zero on an idle or closed connection. */
export interface ConnectionStats {
  readonly pendingOutbound: number;
  readonly inFlightInbound: number;
  readonly busyLanes: number;
  readonly timers: number;
  readonly abortListeners: number;
}

export class ConnectionCore<Peer> implements InboundHost<Peer>, OutboundHost {
  readonly side: Side;
  readonly peerSide: Side;
  readonly protocol: Protocol;
  readonly transport: Transport;
  readonly inbound: Inbound<Peer>;
  readonly outbound: Outbound<Peer>;
  readonly peer: Peer;
  readonly closed: Promise<CloseInfo>;
  private readonly writer: ConnectionState;
  /** The transport takes whole messages (`writeMessage`): decided once. */
  private readonly messageLevel: boolean;
  private info: CloseInfo | undefined;
  private resolveClosed!: (info: CloseInfo) => void;

  /** What `Connection.request` / `notify` and a handler's `ctx.request` / `ctx.notify` send through. */
  readonly extensionSender: ExtensionSender;
  /** The watchdog (`options.watchdog`, else the transport's); undefined: none. */
  readonly watchdog: Watchdog | undefined;

  /** `makeSender` builds the extension sender from this core (it sends through `outbound` when called), before the pipeline that hands it to handlers. */
  constructor(protocol: Protocol, side: Side, handler: object, transport: Transport, makePeer: (caller: PeerCaller) => Peer, options: ConnectionOptions, makeSender: (core: ConnectionCore<Peer>) => ExtensionSender) {
    this.protocol = protocol;
    this.side = side;
    this.peerSide = side === "agent" ? "client" : "agent";
    this.transport = transport;
    this.messageLevel = typeof transport.writeMessage === "function";
    const watchdog = checkWatchdog(side === "client" ? "connectClient(handler, transport, options?)" : "connectAgent(handler, transport, options?)", options.watchdog ?? transport.watchdog);
    this.watchdog = watchdog === undefined ? undefined : new Watchdog(this.watchdogHost(), watchdog);
    // Per-object gates are learnt by the client from the updates it receives (rows the agent handles).
    this.writer = new ConnectionState(side === "client" ? protocol.rows.agent.filter((r) => r.objectCapability !== undefined) : []);
    this.extensionSender = makeSender(this);
    this.inbound = new Inbound<Peer>(this, this.writer, handler, this.extensionSender, options);
    this.outbound = new Outbound<Peer>(this, this.writer, this.inbound, options);
    this.peer = makePeer({
      request: (wire, params, opts) => this.outbound.request(wire, params, opts),
      notify: (wire, params) => this.outbound.notify(wire, params),
    });
    this.closed = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
  }

  /** What the watchdog reaches of this connection. */
  private watchdogHost(): ConstructorParameters<typeof Watchdog>[0] {
    return {
      peerSide: this.peerSide,
      pendingCalls: () => this.outbound.pending.values(),
      peerWaiting: () => this.inbound.counts().inFlight > 0,
      giveUp: (call, error) => this.outbound.giveUp(call, error),
      kill: (error: UnresponsiveError) => {
        this.close(error.message, error);
        try {
          this.transport.kill?.();
        } catch {
          // The peer is gone already; the connection is closed either way.
        }
      },
      report: (message, data) => this.report("watchdog", message, data),
    };
  }

  /** The negotiated state, read-only. */
  get state(): StateView {
    return this.writer;
  }

  get closeInfo(): CloseInfo | undefined {
    return this.info;
  }

  get isClosed(): boolean {
    return this.info !== undefined;
  }

  /** Writes one encoded message (its line and newline): through `transport.writeMessage` when the transport has it, else `write`. */
  send(text: string): void {
    if (this.messageLevel) (this.transport.writeMessage as (text: string) => void).call(this.transport, text);
    else this.transport.write(text);
  }

  report(kind: Diagnostic["kind"], message: string, data?: unknown): void {
    this.inbound.report(kind, message, data);
  }

  answerPending(body: Record<string, unknown>): void {
    answerPending(this.outbound, body);
  }

  rejectInvalidResponse(body: Record<string, unknown>): boolean {
    return rejectInvalidResponse(this.outbound, body);
  }

  cancelOutbound(sessionId: string, cause: "session_cancel" | "session_close"): void {
    this.outbound.cancelSession(sessionId, cause);
  }

  /**
   * Closes once: rejects pending calls, aborts inbound signals, releases
   * timers and listeners. A clean close (no `error`: `close()` called, or
   * the peer ended its stream) first answers the peer's requests still
   * running as cancelled (`onCancel` or -32800), as ACP's internal
   * cancellation asks; a failed transport gets no more writes.
   */
  close(reason: string, error?: Error): void {
    if (this.info) return;
    if (error === undefined) this.inbound.answerCancelledAtEnd();
    const info: CloseInfo = { reason, error };
    this.info = info;
    this.watchdog?.close();
    const closedError = new ConnectionClosedError(reason, error ? { cause: error } : undefined);
    for (const call of this.outbound.pending.drain()) call.reject(closedError);
    this.outbound.clearAbandoned();
    this.inbound.close();
    this.writer.closed();
    this.report("closed", `connection closed: ${reason}`, error ? describeError(error) : undefined);
    try {
      this.transport.close();
    } catch {
      // Closing a broken stream may throw; the connection is closed either way.
    }
    this.resolveClosed(info);
  }

  stats(): ConnectionStats {
    const { timers, listeners } = this.outbound.pending.resources();
    const { inFlight, busyLanes } = this.inbound.counts();
    return { pendingOutbound: this.outbound.pending.size, inFlightInbound: inFlight, busyLanes, timers, abortListeners: listeners };
  }
}
