/**
 * The inbound pipeline (DESIGN §4), in order: frame → parse → classify →
 * envelope → connection-routed rows → initialization gate → capability gate
 * → auth gate → decode (with leniency) → dispatch → exactly one answer.
 * The row is looked up once; the gates read it before any decode; decode is
 * the runtime's table-driven `decodeParams` and dispatch its `dispatch`
 * (`src/decode.ts`), the same code `decode()` runs for tools and tests.
 */
import type { RequestId } from "../context.ts";
import { wireError } from "../errors.ts";
import { classify, isResponseShaped, rejectionId, type MessageKind } from "../jsonrpc/classify.ts";
import { checkEnvelope } from "../jsonrpc/envelope.ts";
import { ParseFailure, parseValue } from "../jsonrpc/parse.ts";
import { isExtensionWire, type Row } from "../row.ts";
import { decodeParams, dispatch } from "../decode.ts";
import { capabilityName, hasCapability } from "./capabilities.ts";
import { admitInitialize, callerAllowed, capabilitiesIn, observeObjects } from "./columns.ts";
import { InboundCall, type BatchSink } from "./call.ts";
import { describe, type ConnectionCore } from "./core.ts";
import { isThenable } from "./lanes.ts";

type Body = Record<string, unknown>;

/** Handles one framed line; `shallow`: the framer found too few brackets in it to nest deeper than `maxDepth`. */
export function processLine<P>(core: ConnectionCore<P>, text: string, maxDepth: number | undefined, shallow = false): void {
  const value = parseValue(text, maxDepth, shallow);
  if (value instanceof ParseFailure) {
    core.report("parse_error", `unparsable line: ${value.reason}`);
    core.reject(null, wireError.parse(value.reason), undefined);
    return;
  }
  if (Array.isArray(value)) processBatch(core, value);
  else processMessage(core, value, undefined);
}

function processBatch<P>(core: ConnectionCore<P>, items: unknown[]): void {
  if (!core.acceptBatches || items.length === 0) {
    core.report("batch", items.length === 0 ? "empty batch rejected" : `batch of ${items.length} rejected (batches: "reject")`);
    core.reject(null, wireError.batchRejected(items.length === 0), undefined);
    return;
  }
  const answers: string[] = [];
  let open = 1;
  const sink: BatchSink = {
    add(answer) {
      answers.push(answer);
      sink.done();
    },
    done() {
      if (--open === 0 && answers.length > 0) core.transport.write(`[${answers.join(",")}]\n`);
    },
  };
  for (const item of items) {
    const kind = classify(item);
    if (answersExpected(kind, item)) open++;
    if (kind === "request" && core.router.inboundRow(core.side, "request", (item as Body).method as string)?.unbatched) {
      core.reject((item as Body).id as RequestId, wireError.unbatched(String((item as Body).method)), sink);
      continue;
    }
    processMessage(core, item, sink, kind);
  }
  sink.done();
}

/** True when an element of a batch will get an answer (it goes through `writeAnswer` exactly once). */
function answersExpected(kind: MessageKind, item: unknown): boolean {
  return kind === "request" || kind === "unidentified_request" || (kind === "unknown" && !isResponseShaped(item));
}

/** Handles one message; `kind` is its classification, computed once. */
export function processMessage<P>(core: ConnectionCore<P>, value: unknown, batch: BatchSink | undefined, kind: MessageKind = classify(value)): void {
  const body = value as Body;
  switch (kind) {
    case "request":
      processRequest(core, body, batch);
      return;
    case "notification":
      processNotification(core, body);
      return;
    case "response":
      core.outbound.answerPending(body);
      return;
    case "unidentified_request":
      core.reject(rejectionId(kind, body), wireError.unusableId(), batch);
      return;
    default:
      // Never answered; with both result and error, the pending call it names fails now (JSON-RPC 2.0 §5).
      if (isResponseShaped(value)) {
        if (!core.outbound.rejectInvalidResponse(body)) core.report("unknown_response", "response-shaped message without a usable id dropped", { id: (body as { id?: unknown } | null)?.id ?? null });
      } else {
        core.report("unknown_message", "message is neither a request, a notification nor a response");
        core.reject(null, wireError.notJsonRpc(), batch);
      }
  }
}

function processRequest<P>(core: ConnectionCore<P>, body: Body, batch: BatchSink | undefined): void {
  const id = body.id as RequestId;
  const wire = body.method as string;
  const envelope = checkEnvelope(body);
  if (envelope) return core.reject(id, envelope, batch);
  if (core.inFlight.has(id)) return core.reject(id, wireError.duplicateId(), batch);
  const row = core.router.inboundRow(core.side, "request", wire) as Row<unknown, unknown> | undefined;
  if (!core.initialized && row?.lifecycle !== "initialize") return core.reject(id, wireError.notInitialized(), batch);
  if (core.hasRepeatable && !admitInitialize(core, row, core.initialized)) return core.reject(id, wireError.repeatedInitialize(), batch);
  if (row === undefined) {
    const handler = core.handler as { extMethod?: (m: string, p: unknown, c: unknown) => unknown };
    if (!isExtensionWire(wire) || typeof handler.extMethod !== "function") return core.reject(id, wireError.methodNotFound(wire), batch);
    const params = body.params ?? {};
    const call = new InboundCall(core, wire, id, sessionOf(params), undefined, batch, undefined);
    return start(core, call, params);
  }
  if (row.capability !== undefined && !hasCapability(core.ownCapabilities(), row.capability)) {
    return core.reject(id, wireError.methodNotFound(wire, `${capabilityName(core.side, row.capability)} was not advertised`), batch);
  }
  if (!callerAllowed(row, core.side === "agent" ? core.clientCapabilities : core.agentCapabilities)) {
    return core.reject(id, wireError.methodNotFound(wire, `${capabilityName(core.peerSide, row.callerCapability ?? [])} was not advertised`), batch);
  }
  if (row.auth && core.authRequired && !core.authenticated) return core.reject(id, wireError.authRequired(), batch);
  const params = body.params === undefined ? {} : body.params;
  const outcome = decodeParams(core.router, row, params, core.leniency);
  if (outcome !== undefined) {
    if (!outcome.ok) return core.reject(id, wireError.invalidParams({ errors: outcome.errors }), batch);
    core.report("repaired", `repaired the params of "${wire}"`, { id, repairs: outcome.repairs });
  }
  if (row.lifecycle === "initialize" && core.side === "agent") core.offeredClientCapabilities = capabilitiesIn(row, "params", params);
  const sessionId = sessionOf(params);
  if (row.cancelsSession && sessionId !== undefined) core.cancelSession(sessionId, "session_close");
  const call = new InboundCall(core, wire, id, sessionId, row, batch, undefined);
  start(core, call, params);
}

function start<P>(core: ConnectionCore<P>, call: InboundCall<P>, params: unknown): void {
  if (core.inFlight.size >= core.maxInFlight) {
    call.answered = true;
    core.reject(call.requestId as RequestId, wireError.tooManyInFlight(core.maxInFlight), call.batch);
    return;
  }
  core.invoke(call, params);
}

function processNotification<P>(core: ConnectionCore<P>, body: Body): void {
  const wire = body.method as string;
  const params = body.params === undefined ? {} : body.params;
  const row = core.router.inboundRow(core.side, "notification", wire) as Row<unknown, unknown> | undefined;
  // Connection-routed rows, before any gate and never decoded by a handler (DESIGN §4.5).
  if (row?.layer === "protocol") return core.cancelInbound((params as { requestId?: unknown } | null)?.requestId);
  if (row?.layer === "session_control") {
    const sessionId = sessionOf(params);
    if (sessionId === undefined) return core.report("invalid_notification", `dropped "${wire}" without a string sessionId`);
    return core.cancelSession(sessionId);
  }
  if (row === undefined || row.invoke === undefined) {
    const handler = core.handler as { extNotification?: (m: string, p: unknown, c: unknown) => unknown };
    if (row === undefined && isExtensionWire(wire) && typeof handler.extNotification === "function" && isObject(params)) {
      return deliver(core, sessionOf(params), undefined, wire, params);
    }
    return core.report("unknown_notification", `ignored notification "${wire}"`);
  }
  if (row.capability !== undefined && !hasCapability(core.ownCapabilities(), row.capability)) {
    return core.report("gated_notification", `dropped "${wire}": ${capabilityName(core.side, row.capability)} was not advertised`);
  }
  if (!callerAllowed(row, core.side === "agent" ? core.clientCapabilities : core.agentCapabilities)) {
    return core.report("gated_notification", `dropped "${wire}": ${capabilityName(core.peerSide, row.callerCapability ?? [])} was not advertised`);
  }
  const outcome = decodeParams(core.router, row, params, core.leniency);
  if (outcome !== undefined) {
    if (!outcome.ok) return core.report("invalid_notification", `dropped "${wire}" with invalid params`, { errors: outcome.errors });
    core.report("repaired", `repaired the params of "${wire}"`, { repairs: outcome.repairs });
  }
  if (core.side === "client" && core.tracksObjects) observeObjects(core, core.router, params);
  const sessionId = sessionOf(params);
  if (core.side === "client" && sessionId !== undefined && core.diagnostic !== undefined && !core.knownSessions.has(sessionId)) {
    core.report("unknown_session", `"${wire}" for session ${JSON.stringify(sessionId)}, which no session/new, load or resume introduced; delivered anyway`);
  }
  deliver(core, sessionId, row, wire, params);
}

/**
 * Runs a notification handler in its session's lane (notifications without a
 * session share one lane): at once when the lane is idle, else after the
 * notifications queued before it. `row` undefined means an extension.
 */
function deliver<P>(core: ConnectionCore<P>, sessionId: string | undefined, row: Row<unknown, unknown> | undefined, wire: string, params: unknown): void {
  const lane = sessionId ?? "";
  const call = new InboundCall(core, wire, undefined, sessionId, row, undefined, lane);
  if (!core.lanes.runNow(lane, runNotification, core, call, params)) core.lanes.run(lane, () => runNotification(core, call, params));
}

function runNotification<P>(core: ConnectionCore<P>, call: InboundCall<P>, params: unknown): unknown {
  if (core.isClosed) return undefined;
  let result: unknown;
  try {
    result = dispatch(call.row, core.handler, call.wire, params, call);
  } catch (error) {
    finishNotification(core, call);
    core.report("handler_error", "a notification handler threw", describe(error));
    return undefined;
  }
  if (!isThenable(result)) {
    finishNotification(core, call);
    return undefined;
  }
  return result.then(
    () => finishNotification(core, call),
    (error: unknown) => {
      finishNotification(core, call);
      throw error;
    },
  );
}

function finishNotification<P>(core: ConnectionCore<P>, call: InboundCall<P>): void {
  call.answered = true;
  // Only a call whose handler read `ctx.signal` was added (looking up the others would hash each call).
  if (call.signalled) core.liveNotifications.delete(call);
}

function sessionOf(params: unknown): string | undefined {
  const s = isObject(params) ? params.sessionId : undefined;
  return typeof s === "string" ? s : undefined;
}

function isObject(value: unknown): value is Body {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Handles one message a transport framed and parsed itself (`TransportReceiver.message`):
 * what {@link processLine} does after parsing, batches and parse failures included.
 * `kind`, when the transport classified the message, is used as is.
 */
export function processValue<P>(core: ConnectionCore<P>, value: unknown, kind?: MessageKind): void {
  if (value instanceof ParseFailure) {
    core.report("parse_error", `unparsable line: ${value.reason}`);
    core.reject(null, wireError.parse(value.reason), undefined);
    return;
  }
  if (Array.isArray(value)) processBatch(core, value);
  else processMessage(core, value, undefined, kind ?? classify(value));
}
