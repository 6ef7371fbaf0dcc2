/**
 * The inbound pipeline (DESIGN §4, §11 "Pipeline"), in order: parse →
 * classify → envelope → row lookup → connection-routed rows →
 * initialization gate → capability gate (the one `gate`) → auth gate →
 * decode (with leniency) → dispatch → exactly one answer. Each message is
 * classified once and its row looked up once; every later step reads those.
 *
 * `Inbound` owns what answering needs (requests in flight, notification
 * lanes, the handler); the negotiated facts it learns go to the connection's
 * `ConnectionState`, their one writer. It knows its connection only through
 * {@link InboundHost}, so this module imports no other connection module
 * that imports it back.
 */
import type { RequestId } from "../context.ts";
import { dispatch } from "../decode.ts";
import { ErrorCode, RpcError, wireError, type ErrorObject } from "../errors.ts";
import { classify, isResponseShaped, type MessageKind } from "../jsonrpc/classify.ts";
import { checkEnvelope } from "../jsonrpc/envelope.ts";
import { encodeLine, encodeResult, errorMessage } from "../jsonrpc/messages.ts";
import { ParseFailure, parseValue } from "../jsonrpc/parse.ts";
import { oversizedAnswer, unusableAnswer, type UnusableAnswer } from "../jsonrpc/unusable.ts";
import type { Protocol } from "../protocol.ts";
import { isExtensionWire, type Row } from "../row.ts";
import { traceContextOf, type Tracing } from "../tracing/hook.ts";
import type { Transport } from "../transport/transport.ts";
import { decodeParams, type Leniency } from "../validation/check.ts";
import { reportUnhandled } from "./advertised.ts";
import { InboundCall, type BatchSink, type CallHost, type ExtensionSender } from "./call.ts";
import { gate } from "./gate.ts";
import { Lanes, isThenable, type HandlerRun } from "./lanes.ts";
import { DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_QUEUED_NOTIFICATIONS, type ConnectionOptions, type Diagnostic } from "./options.ts";
import type { Capabilities, ConnectionState } from "./state.ts";
import { sessionIdOf } from "../jsonrpc/session-id.ts";

type Body = Record<string, unknown>;
type AnyRow = Row<unknown, unknown>;

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
}

/**
 * The pipeline's own state and steps: this module's alone. The rest of the
 * connection reaches it only through {@link Inbound}, so every field here is
 * read and written in this file.
 */
class Pipeline<Peer> implements CallHost<Peer> {
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

  /**
   * Outbound `session/cancel` (client side): every pending inbound call of
   * that session whose row has an `onCancel` result (permission requests) is
   * answered with it now, and its signal aborted.
   */
  cancelOwnSession(sessionId: string): void {
    for (const call of [...this.inFlight.values()]) {
      if (call.sessionId !== sessionId || call.row?.onCancel === undefined) continue;
      call.cancel("session_cancel");
      succeed(this, call, call.row.onCancel);
    }
  }

  /**
   * A clean close (the peer ended its input, or this side closed): a request
   * still running is cancelled internally, and ACP asks the same answer as
   * for `$/cancel_request` (cancellation.mdx, "Internal Cancellation":
   * SHOULD): its row's `onCancel` result, else -32800. Written now, while
   * the connection can still write, before {@link close}.
   */
  answerCancelledAtEnd(): void {
    for (const call of [...this.inFlight.values()]) {
      call.cancel("connection_closed");
      fail(this, call, RpcError.requestCancelled());
    }
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

/**
 * The inbound half of one connection, as the rest of the connection sees it:
 * what arrives goes in (`processLine`, `processValue`, `rejectOversized`);
 * the outbound half says when a response settled a call and settles its
 * calls in their session's lane order; close and stats. Its state is
 * {@link Pipeline}'s, private to this module: nothing outside this file
 * reads or writes a field of it.
 */
export class Inbound<Peer> {
  private readonly pipeline: Pipeline<Peer>;

  constructor(host: InboundHost<Peer>, state: ConnectionState, handler: object, sender: ExtensionSender, options: ConnectionOptions) {
    this.pipeline = new Pipeline(host, state, handler, sender, options);
  }

  /** One message as the reader (`transport/reader.ts`) delivers it: parsed (a `ParseFailure` included), with its kind when it is one object. */
  processValue(value: unknown, kind?: MessageKind): void {
    processValue(this.pipeline, value, kind);
  }

  /** A line longer than `maxBytes`, skipped: answered `-32700`. */
  rejectOversized(length: number, maxBytes: number): void {
    rejectOversized(this.pipeline, length, maxBytes);
  }

  /** Tells the `onDiagnostic` hook, if any. */
  report(kind: Diagnostic["kind"], message: string, data?: unknown): void {
    report(this.pipeline, kind, message, data);
  }

  /** A response settled one of our calls: the next line waits one microtask, so the caller's continuation runs first. */
  responseSettled(): void {
    this.pipeline.settledResponse = true;
  }

  /** True (once) when a response settled a call since the last ask. */
  takeSettledResponse(): boolean {
    const settled = this.pipeline.settledResponse;
    this.pipeline.settledResponse = false;
    return settled;
  }

  /** The handler served (read-only: the client's `initialize` checks what it lacks). */
  get handler(): object {
    return this.pipeline.handler;
  }

  /** The handlers running now, for a call about to be sent (see `Lanes.sent`). */
  lanesSent(): HandlerRun[] | undefined {
    return this.pipeline.lanes.sent();
  }

  /** Settles an answer to a call of session `sessionId` after that session's earlier notifications (see `Lanes.answer`); at once when no lane is busy. */
  settleInLane(sessionId: string | undefined, sentDuring: readonly HandlerRun[] | undefined, settle: () => void): void {
    if (sessionId === undefined || this.pipeline.lanes.size === 0) settle();
    else this.pipeline.lanes.answer(sessionId, sentDuring, settle);
  }

  /** Outbound `session/cancel` (client side): see {@link Pipeline.cancelOwnSession}. */
  cancelOwnSession(sessionId: string): void {
    this.pipeline.cancelOwnSession(sessionId);
  }

  /** A clean close: requests still running are answered as cancelled. */
  answerCancelledAtEnd(): void {
    this.pipeline.answerCancelledAtEnd();
  }

  /** Close: every call in flight is over and its signal aborted. */
  close(): void {
    this.pipeline.close();
  }

  /** Requests in flight and busy lanes, for `stats()`. */
  counts(): { readonly inFlight: number; readonly busyLanes: number } {
    return { inFlight: this.pipeline.inFlight.size, busyLanes: this.pipeline.lanes.size };
  }
}

/** Tells the `onDiagnostic` hook; a failing hook never breaks the connection. */
function report<P>(inbound: Pipeline<P>, kind: Diagnostic["kind"], message: string, data?: unknown): void {
  const hook = inbound.diagnostic;
  if (hook === undefined) return;
  try {
    hook(data === undefined ? { kind, message } : { kind, message, data });
  } catch {
    // A failing diagnostics hook must not break the connection.
  }
}

/**
 * Reports a handler's failure: a `handler_error` diagnostic whose `data` is the
 * one-line description and whose `error` is the thrown value itself, and with
 * `logErrors` a line on stderr with the stack (never stdout: on stdio it
 * carries the protocol).
 */
export function reportHandlerError<P>(inbound: Pipeline<P>, message: string, error: unknown): void {
  if (inbound.logErrors) {
    const detail = error instanceof Error ? (error.stack ?? describeError(error)) : describeError(error);
    try {
      // No `node:` import: the core runs in browsers too, where the console stands in for stderr.
      const stderr = (globalThis as { process?: { stderr?: { write(text: string): unknown } } }).process?.stderr;
      if (stderr) stderr.write(`acp-router: ${message}: ${detail}\n`);
      else console.error(`acp-router: ${message}: ${detail}`);
    } catch {
      // stderr may be closed; the connection goes on.
    }
  }
  const hook = inbound.diagnostic;
  if (hook === undefined) return;
  try {
    hook({ kind: "handler_error", message, data: describeError(error), error });
  } catch {
    // A failing diagnostics hook must not break the connection.
  }
}

/**
 * Handles one parsed line: a message, or a batch of them. Transports that parse messages
 * themselves (`TransportReceiver.message`) hand their value here, a `ParseFailure` included
 * (answered as an unparsable line), with its `kind` when they classified it.
 */
function processValue<P>(inbound: Pipeline<P>, value: unknown, kind?: MessageKind): void {
  if (value instanceof ParseFailure) {
    report(inbound, "parse_error", `unparsable line: ${value.reason}`);
    rejectUnusable(inbound, unusableAnswer(value, undefined), undefined);
  } else if (Array.isArray(value)) processBatch(inbound, value);
  else processMessage(inbound, value, undefined, kind);
}

/** Answers a line too long to read: `-32700`, `id: null`. */
function rejectOversized<P>(inbound: Pipeline<P>, length: number, maxBytes: number): void {
  report(inbound, "oversized_line", `skipped a line of at least ${length} characters (maxMessageBytes ${maxBytes})`);
  rejectUnusable(inbound, oversizedAnswer(maxBytes), undefined);
}

/** A batch (JSON-RPC 2.0 §6): rejected whole, or each element handled and the answers written as one array. */
function processBatch<P>(inbound: Pipeline<P>, items: unknown[]): void {
  if (!inbound.acceptBatches || items.length === 0) {
    report(inbound, "batch", items.length === 0 ? "empty batch rejected" : `batch of ${items.length} rejected (batches: "reject")`);
    rejectUnusable(inbound, unusableAnswer(items, undefined), undefined);
    return;
  }
  const answers: string[] = [];
  let open = 1;
  const sink: BatchSink = {
    expect() {
      open++;
    },
    add(answer) {
      answers.push(answer);
      sink.done();
    },
    done() {
      if (--open === 0 && answers.length > 0) inbound.host.send(`[${answers.join(",")}]\n`);
    },
  };
  for (const item of items) processMessage(inbound, item, sink);
  sink.done();
}

/** Handles one message: classified once (here, unless its transport did), its row looked up once. */
function processMessage<P>(inbound: Pipeline<P>, value: unknown, batch: BatchSink | undefined, kind: MessageKind = classify(value)): void {
  // Response-shaped bodies (having `result` or `error`) are never answered, whatever else is wrong.
  const responseShaped = kind === "unknown" && isResponseShaped(value);
  const body = value as Body;
  if (kind === "request" || kind === "notification") {
    const row = inbound.host.protocol.inboundRow(inbound.host.side, kind, body.method as string) as AnyRow | undefined;
    processCall(inbound, body, kind, row, batch);
  }
  else if (kind === "response") inbound.host.answerPending(body);
  else if (kind === "unidentified_request" || !responseShaped) {
    batch?.expect();
    if (kind === "unknown") report(inbound, "unknown_message", "message is neither a request, a notification nor a response");
    rejectUnusable(inbound, unusableAnswer(value, kind), batch);
  } else if (!inbound.host.rejectInvalidResponse(body)) {
    // Never answered; with both result and error, the pending call it names failed above (JSON-RPC 2.0 §5).
    report(inbound, "unknown_response", "response-shaped message without a usable id dropped", { id: body.id ?? null });
  }
}

/**
 * A request or a notification, one path for both: the row, the gates of its
 * kind, decode, what the state learns from it, then its call — answered
 * (requests) or delivered in its session's lane (notifications).
 */
function processCall<P>(inbound: Pipeline<P>, body: Body, kind: "request" | "notification", row: AnyRow | undefined, batch: BatchSink | undefined): void {
  const wire = body.method as string;
  const request = kind === "request";
  const id = request ? (body.id as RequestId) : undefined;
  if (request) {
    batch?.expect();
    const refused = refuseRequest(inbound, body, wire, id as RequestId, row, batch !== undefined);
    if (refused !== undefined) return reject(inbound, id as RequestId, refused, batch);
  }
  const params = body.params ?? {};
  if (!request && !admitNotification(inbound, params, wire, row)) return;
  if (row !== undefined) {
    const outcome = decodeParams(inbound.host.protocol, row, params, inbound.leniency);
    if (outcome !== undefined) {
      if (!outcome.ok) {
        if (request) return reject(inbound, id as RequestId, wireError.invalidParams({ errors: outcome.errors }), batch);
        return report(inbound, "invalid_notification", `dropped "${wire}" with invalid params`, { errors: outcome.errors });
      }
      report(inbound, "repaired", `repaired the params of "${wire}"`, request ? { id, repairs: outcome.repairs } : { repairs: outcome.repairs });
    }
  }
  const sessionId = sessionIdOf(params);
  // What the state learns from params: the agent, the client capabilities `initialize` offers;
  // the client, per-object capabilities its updates announce (only tables with such rows).
  const state = inbound.state;
  if (row !== undefined && (request ? row.lifecycle === "initialize" : state.tracksObjects)) state.received(row, params);
  // A client's notification for a session it never opened is delivered anyway; said only to a listener.
  if (!request && inbound.diagnostic !== undefined && sessionId !== undefined && inbound.host.side === "client" && !state.knowsSession(sessionId)) {
    report(inbound, "unknown_session", `"${wire}" for session ${JSON.stringify(sessionId)}, which no session/new, load or resume introduced; delivered anyway`);
  }
  // A notification runs in its session's lane (those without a session share one): at once
  // when the lane is idle, else after the notifications queued before it.
  const lane = request ? undefined : (sessionId ?? "");
  const call = new InboundCall(inbound, wire, id, sessionId, row, batch, lane);
  if (lane !== undefined) {
    if (!inbound.lanes.runNow(lane, runNotification, inbound, call, params)) inbound.lanes.run(lane, () => runNotification(inbound, call, params));
    return;
  }
  if (row?.cancelsSession && sessionId !== undefined) inbound.cancelSession(sessionId, "session_close");
  if (inbound.inFlight.size >= inbound.maxInFlight) {
    call.answered = true;
    return reject(inbound, id as RequestId, wireError.tooManyInFlight(inbound.maxInFlight), batch);
  }
  // A request of a session starts only after that session's earlier notifications were handled
  // (DESIGN §7; the no-deadlock exception is in `lanes.ts`); while it waits it is in flight:
  // `$/cancel_request`, `session/cancel` and close reach it. No busy lane means nothing to wait
  // for: the common case allocates no closure.
  if (sessionId !== undefined && inbound.lanes.size > 0 && inbound.lanes.queueRequest(sessionId, () => begin(inbound, call, params))) {
    inbound.inFlight.set(id as RequestId, call);
    return;
  }
  run(inbound, call, params);
}

/**
 * The gates a request meets before decode, in DESIGN §4's order: batch
 * membership, envelope, duplicate id, initialization, the capability gate,
 * authentication. The error to answer, or undefined to go on. A request
 * with no row is an unregistered `_` method for `extMethod`, or unknown.
 */
function refuseRequest<P>(inbound: Pipeline<P>, body: Body, wire: string, id: RequestId, row: AnyRow | undefined, inBatch: boolean): ErrorObject | undefined {
  if (inBatch && row?.unbatched) return wireError.unbatched(wire);
  const envelope = checkEnvelope(body);
  if (envelope !== undefined) return envelope;
  if (inbound.inFlight.has(id)) return wireError.duplicateId();
  const state = inbound.state;
  if (row?.lifecycle !== "initialize") {
    if (!state.initialized && inbound.initializeFirst) return wireError.notInitialized();
    if (inbound.hasRepeatable) state.requestSeen();
  } else if (!state.admitsInitialize(row)) return wireError.repeatedInitialize();
  if (row === undefined) {
    const handler = inbound.handler as { extMethod?: unknown };
    return (inbound.anyCustomMethod || isExtensionWire(wire)) && typeof handler.extMethod === "function" ? undefined : wireError.methodNotFound(wire);
  }
  const refusal = gate(inbound.host.protocol, state, row, inbound.host.side);
  if (refusal !== undefined) return wireError.methodNotFound(wire, refusal.message);
  if (row.auth && inbound.authRequired && !state.authenticated) return wireError.authRequired();
  return undefined;
}

/**
 * What a notification meets before decode: the connection-routed rows
 * (`$/cancel_request`, `session/cancel`: handled here, never decoded,
 * DESIGN §4.5), unknown methods (ignored; unregistered `_` ones go to
 * `extNotification`) and the capability gate (dropped with a diagnostic).
 * True when it goes on to decode and delivery.
 */
function admitNotification<P>(inbound: Pipeline<P>, params: unknown, wire: string, row: AnyRow | undefined): boolean {
  if (row?.layer === "protocol") {
    inbound.cancelRequest((params as { requestId?: unknown } | null)?.requestId);
    return false;
  }
  if (row?.layer === "session_control") {
    const sessionId = sessionIdOf(params);
    if (sessionId === undefined) report(inbound, "invalid_notification", `dropped "${wire}" without a string sessionId`);
    else inbound.cancelSession(sessionId);
    return false;
  }
  if (row === undefined || row.invoke === undefined) {
    const handler = inbound.handler as { extNotification?: unknown };
    if (row === undefined && (inbound.anyCustomMethod || isExtensionWire(wire)) && typeof handler.extNotification === "function" && isObject(params)) return true;
    report(inbound, "unknown_notification", `ignored notification "${wire}"`);
    return false;
  }
  const refusal = gate(inbound.host.protocol, inbound.state, row, inbound.host.side);
  if (refusal === undefined) return true;
  report(inbound, "gated_notification", `dropped "${wire}": ${refusal.message}`);
  return false;
}

function runNotification<P>(inbound: Pipeline<P>, call: InboundCall<P>, params: unknown): unknown {
  if (inbound.isClosed) return undefined;
  const result = callHandler(inbound, call, params);
  if (result === THREW) return undefined;
  if (!isThenable(result)) {
    finishNotification(inbound, call);
    return undefined;
  }
  return result.then(
    () => finishNotification(inbound, call),
    (error: unknown) => {
      finishNotification(inbound, call);
      throw error;
    },
  );
}

function finishNotification<P>(inbound: Pipeline<P>, call: InboundCall<P>): void {
  call.answered = true;
  // Only a call whose handler read `ctx.signal` was added (looking up the others would hash each call).
  if (call.signalled) inbound.liveNotifications.delete(call);
}

// ── answering requests, exactly once ─────────────────────────────────

/** Marks a handler that threw synchronously (its error already handled). */
const THREW: unique symbol = Symbol("threw");

/**
 * The one call into handlers: the row's `invoke`, or `extMethod` /
 * `extNotification` for an unregistered `_` method. A synchronous throw
 * fails a request, or is reported for a notification.
 */
function callHandler<P>(inbound: Pipeline<P>, call: InboundCall<P>, params: unknown): unknown {
  try {
    const tracing = inbound.tracing;
    if (tracing !== undefined) return traced(tracing, inbound, call, params);
    return dispatch(call.row, inbound.handler, call.wire, params, call);
  } catch (error) {
    if (call.requestId !== undefined) fail(inbound, call, error);
    else {
      finishNotification(inbound, call);
      reportHandlerError(inbound, "a notification handler threw", error);
    }
    return THREW;
  }
}

/** A handler call through the `tracing` hook, with the context the message carried. */
function traced<P>(tracing: Tracing, inbound: Pipeline<P>, call: InboundCall<P>, params: unknown): unknown {
  call.traceContext = traceContextOf(params);
  const kind = call.requestId === undefined ? "notification" : "request";
  return tracing.inbound({ method: call.wire, kind, side: inbound.host.side, sessionId: call.sessionId, requestId: call.requestId }, call.traceContext, () => dispatch(call.row, inbound.handler, call.wire, params, call));
}

/** Starts a request that waited in its session's lane, unless it was answered or cancelled meanwhile. */
function begin<P>(inbound: Pipeline<P>, call: InboundCall<P>, params: unknown): void {
  if (call.answered) return;
  if (call.cancelled) return fail(inbound, call, RpcError.requestCancelled());
  run(inbound, call, params);
}

function run<P>(inbound: Pipeline<P>, call: InboundCall<P>, params: unknown): void {
  const result = callHandler(inbound, call, params);
  if (result === THREW) return;
  if (isThenable(result)) {
    inbound.inFlight.set(call.requestId as RequestId, call);
    result.then(
      (value) => succeed(inbound, call, value),
      (error: unknown) => fail(inbound, call, error),
    );
  } else succeed(inbound, call, result);
}

function succeed<P>(inbound: Pipeline<P>, call: InboundCall<P>, value: unknown): void {
  if (call.answered) return;
  const row = call.row;
  // After session/cancel the turn answers as cancelled (ACP prompt-turn: the agent MUST
  // respond with the cancelled stop reason), keeping the handler's other fields.
  if (call.sessionCancelled) value = withOnCancel(value, row?.onCancel);
  call.answered = true;
  inbound.inFlight.delete(call.requestId as RequestId);
  if (row !== undefined && inbound.host.side === "agent") {
    if (row.lifecycle !== undefined) {
      const advertised = inbound.state.answered(row, value, call.sessionId, "agent");
      if (advertised !== undefined) reportUnhandled(inbound.host, inbound.handler, "agent", advertised);
    }
    if (row.turnEnd !== undefined) inbound.state.turnOpened(row, call.sessionId, call);
  }
  let line: string;
  try {
    line = encodeResult(call.requestId as RequestId, value);
  } catch (error) {
    reportHandlerError(inbound, `the result of "${call.wire}" cannot be encoded as JSON`, error);
    line = encodeLine(errorMessage(call.requestId as RequestId, RpcError.internalError().toJSON()));
  }
  writeAnswer(inbound, line, call.batch);
}

function fail<P>(inbound: Pipeline<P>, call: InboundCall<P>, error: unknown): void {
  if (call.answered) return;
  if (call.cancelled && (!(error instanceof RpcError) || error.code === ErrorCode.RequestCancelled)) {
    const onCancel = call.row?.onCancel;
    if (onCancel !== undefined) return succeed(inbound, call, onCancel);
    error = RpcError.requestCancelled();
  }
  call.answered = true;
  inbound.inFlight.delete(call.requestId as RequestId);
  if (!(error instanceof RpcError)) reportHandlerError(inbound, `handler of "${call.wire}" threw`, error);
  reject(inbound, call.requestId as RequestId, RpcError.from(error, inbound.exposeErrors).toJSON(), call.batch);
}

/** Answers a rejected message; `id` was chosen by the rejection-id rule (DESIGN §4.3). */
function reject<P>(inbound: Pipeline<P>, id: RequestId | null, error: ErrorObject, batch: BatchSink | undefined): void {
  writeAnswer(inbound, encodeLine(errorMessage(id, error)), batch);
}

/** Answers a message that is not a usable one, as `jsonrpc/unusable.ts` says (undefined: never answered). */
function rejectUnusable<P>(inbound: Pipeline<P>, answer: UnusableAnswer | undefined, batch: BatchSink | undefined): void {
  if (answer !== undefined) reject(inbound, answer.id, answer.error, batch);
}

/** Writes an answer line, or hands it to the batch it belongs to. */
function writeAnswer<P>(inbound: Pipeline<P>, line: string, batch: BatchSink | undefined): void {
  if (inbound.isClosed) return;
  if (batch) batch.add(line.slice(0, -1));
  else inbound.host.send(line);
}

/** `value` with the row's `onCancel` fields laid over it (both objects), else `onCancel` itself when there is one. */
function withOnCancel(value: unknown, onCancel: unknown): unknown {
  if (onCancel === undefined || typeof onCancel !== "object" || onCancel === null) return value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return onCancel;
  return { ...value, ...onCancel };
}

function isObject(value: unknown): value is Body {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A one-line description of anything thrown, for diagnostics. */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
