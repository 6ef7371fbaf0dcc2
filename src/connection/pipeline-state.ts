/**
 * The inbound pipeline's state (DESIGN §11 "Pipeline"), and what it needs from
 * its connection ({@link InboundHost}). The steps of the inbound path, in
 * order, each in a module of its own: `receive.ts` (a parsed line: a failure,
 * a batch, one message classified once), `admit.ts` (the gates a request or a
 * notification meets before decode), `deliver.ts` (decode, what the state
 * learns, the call in its lane or in flight), `run-handler.ts` (the handler
 * call), `answer.ts` (exactly one answer per request); `pipeline.ts` is the
 * face the connection holds.
 */
import type { RequestId } from "../context.ts";
import type { Protocol } from "../protocol.ts";
import type { Row } from "../row.ts";
import type { Tracing } from "../tracing/hook.ts";
import type { Transport } from "../transport/transport.ts";
import type { Leniency } from "../validation/check.ts";
import type { CallHost, ExtensionSender, InboundCall } from "./call.ts";
import { Lanes } from "./lanes.ts";
import { DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_QUEUED_NOTIFICATIONS, type ConnectionOptions, type Diagnostic } from "./options.ts";
import { report, reportHandlerError } from "./report.ts";
import type { Capabilities, ConnectionState } from "./state.ts";

export type Body = Record<string, unknown>;
export type AnyRow = Row<unknown, unknown>;

/** What the pipeline needs from its connection. */
export interface InboundHost<Peer> {
  readonly side: "agent" | "client";
  /** The connection's protocol, with its registered extensions' rows. */
  readonly protocol: Protocol;
  readonly transport: Transport;
  /** Writes one encoded message (its line and newline): `transport.writeMessage` when there is one, else `write`. */
  send(text: string): void;
  readonly peer: Peer;
  readonly isClosed: boolean;
  report(kind: Diagnostic["kind"], message: string, data?: unknown): void;
  /** A response arrived: settle the pending outbound call it answers. */
  answerPending(body: Body): void;
  /** A response-shaped body with both result and error: fail the call it names; false when it names none. */
  rejectInvalidResponse(body: Body): boolean;
  /** Inbound `session/cancel`: `$/cancel_request` for the agent's own outstanding requests of that session. */
  cancelOutbound(sessionId: string, cause: "session_cancel" | "session_close"): void;
  /** The connection's watchdog, told when a request of the peer's that ran asynchronously was answered. */
  readonly watchdog: { answered(): void } | undefined;
}

/**
 * The inbound pipeline's state: requests in flight, notification lanes, the
 * handler and the options every step reads. The steps (`receive.ts`,
 * `admit.ts`, `deliver.ts`, `run-handler.ts`, `answer.ts`) read and write it;
 * the rest of the connection reaches it only through `Inbound`
 * (`pipeline.ts`), which shows methods only.
 */
export class Pipeline<Peer> implements CallHost<Peer> {
  /** Inbound requests whose handler has not answered yet, by request id (type-exact). */
  readonly inFlight = new Map<RequestId, InboundCall<Peer>>();
  /** Notification calls whose handler read `ctx.signal` and has not finished: aborted on close. */
  readonly liveNotifications = new Set<InboundCall<Peer>>();
  readonly lanes: Lanes;
  /** Set when a response settled a call: the next line waits one microtask so the caller's continuation runs first. */
  settledResponse = false;
  readonly host: InboundHost<Peer>;
  /** The `onDiagnostic` hook; undefined: diagnostics cost nothing. */
  readonly diagnostic: ((d: Diagnostic) => void) | undefined;
  readonly state: ConnectionState;
  readonly handler: object;
  readonly leniency: Leniency;
  readonly exposeErrors: boolean;
  /** `logErrors`: handler errors go to stderr with their stack as well. */
  readonly logErrors: boolean;
  readonly authRequired: boolean;
  /** `initializeFirst`: requests before `initialize` completed are refused. */
  readonly initializeFirst: boolean;
  /** `customMethods: "any"`: a method outside the table reaches `extMethod`/`extNotification` without a `_`. */
  readonly anyCustomMethod: boolean;
  readonly acceptBatches: boolean;
  readonly maxInFlight: number;
  /** The table has a `repeatable` row: requests are then tracked for it; others skip that per message. */
  readonly hasRepeatable: boolean;
  /** The `tracing` hook; undefined: handler calls are not wrapped and no `_meta` is read. */
  readonly tracing: Tracing | undefined;
  /** What `ctx.request` / `ctx.notify` send through (the connection's own sender, built before this pipeline). */
  readonly extensionSender: ExtensionSender;

  constructor(host: InboundHost<Peer>, state: ConnectionState, handler: object, sender: ExtensionSender, options: ConnectionOptions) {
    this.host = host;
    this.extensionSender = sender;
    this.diagnostic = options.onDiagnostic;
    this.state = state;
    this.handler = handler;
    const rows = host.protocol.rows;
    this.leniency = options.leniency ?? "repair";
    this.exposeErrors = options.exposeErrors === true;
    this.logErrors = options.logErrors === true;
    this.authRequired = options.authRequired === true;
    this.initializeFirst = options.initializeFirst !== false;
    this.anyCustomMethod = options.customMethods === "any";
    // A table that keeps rows out of batches (`unbatched`: ACP v2) follows JSON-RPC 2.0 batches by default.
    this.acceptBatches = (options.batches ?? (rows.agent.some((r) => r.unbatched) ? "accept" : "reject")) === "accept";
    this.maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
    this.hasRepeatable = [...rows.agent, ...rows.client].some((r) => r.repeatable !== undefined);
    this.tracing = options.tracing;
    this.lanes = new Lanes(
      (error) => reportHandlerError(this, "a notification handler failed", error),
      options.maxQueuedNotifications ?? DEFAULT_MAX_QUEUED_NOTIFICATIONS,
      (high, queued) => {
        if (host.isClosed) return;
        report(this, "backpressure", high ? `reading paused: ${queued} notifications wait for their handlers` : `reading resumed: ${queued} notifications wait`);
        if (high) host.transport.pause?.();
        else host.transport.resume?.();
      },
    );
  }

  // CallHost: what a handler's context reads.
  get peer(): Peer {
    return this.host.peer;
  }

  get isClosed(): boolean {
    return this.host.isClosed;
  }

  get agentCapabilities(): Capabilities | undefined {
    return this.state.agentCapabilities;
  }

  get clientCapabilities(): Capabilities | undefined {
    return this.state.clientCapabilities;
  }

  /** `$/cancel_request` for an inbound request: aborts it; unknown or finished ids are ignored. */
  cancelRequest(requestId: unknown): void {
    if (typeof requestId !== "string" && typeof requestId !== "number") return;
    this.inFlight.get(requestId)?.cancel("cancel_request");
  }

  /**
   * Inbound `session/cancel` (agent side): cancels that session's running
   * turn and handlers and the agent's own outstanding requests for it. Only
   * calls in flight now are touched, so a late cancel never reaches the next turn.
   */
  cancelSession(sessionId: string, cause: "session_cancel" | "session_close" = "session_cancel"): void {
    this.state.turnCancelled(sessionId, cause);
    for (const call of this.inFlight.values()) {
      if (call.sessionId !== sessionId) continue;
      call.sessionCancelled = true;
      call.cancel(cause);
    }
    this.host.cancelOutbound(sessionId, cause);
  }

  /** Close: every call in flight is over and its signal aborted; lanes dropped. */
  close(): void {
    for (const call of this.inFlight.values()) {
      call.answered = true;
      call.abortForClose();
    }
    this.inFlight.clear();
    for (const call of this.liveNotifications) call.abortForClose();
    this.liveNotifications.clear();
    this.lanes.clear();
  }
}
