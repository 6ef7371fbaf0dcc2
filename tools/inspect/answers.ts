/** Rules checked when an answer is seen: pairing by id, exactly one answer, error objects, result schema, and what an answer changes. */
import type { RequestId } from "../../src/context.ts";
import { isRequestId } from "../../src/jsonrpc/classify.ts";
import { settle, type Call } from "./calls.ts";
import { judgeIdEcho } from "./ids.ts";
import { checkSchema, type Found } from "./checks.ts";
import type { MonitorState, Observed } from "./monitor-state.ts";
import { sessionOf } from "./requests.ts";
import { peerOf, type Sender } from "./rules.ts";
import { onPromptAnswered } from "./turns.ts";

type Answer = Observed["answers"];

/** An answer with a usable id, written by `from` to a request of the peer. */
export function onAnswer(state: MonitorState, from: Sender, m: Record<string, unknown>, t: number, report: Found): Answer {
  const caller = peerOf(from);
  const book = state.calls[caller];
  const id = m.id as RequestId;
  const call = book.pending.get(id);
  if (call === undefined) {
    const before = book.answered.get(id);
    if (before !== undefined && book.cancelledAnswered.has(id)) report("cancel-answered-twice", `${from} answered ${before} #${JSON.stringify(id)} again; it had been cancelled with $/cancel_request and already answered`);
    else if (before !== undefined) report("answered-twice", `${from} answered ${before} #${JSON.stringify(id)} a second time`);
    else report("unknown-response-id", `${from} answered id ${JSON.stringify(id)}, which names no pending request of the ${caller}`);
    return undefined;
  }
  settle(book, id, call);
  const error = m.error !== undefined ? checkErrorObject(m.error, call, report) : undefined;
  if (error === undefined) onResult(state, call, m.result, report);
  else onError(state, call, error, report);
  const s = call.method === "session/prompt" && call.sessionId !== undefined ? state.sessions.get(call.sessionId) : undefined;
  if (s !== undefined) onPromptAnswered(s, id, call, error === undefined ? (m.result ?? {}) : undefined);
  if (call.row?.lifecycle === "opens_session" && call.method !== "session/new" && call.method !== "session/fork" && call.sessionId !== undefined) {
    const s = sessionOf(state, call.sessionId);
    s.loading = Math.max(0, s.loading - 1);
  }
  return { method: call.method, ms: t - call.t, error };
}

/** The error code, after checking the error object (integer code, string message). */
function checkErrorObject(error: unknown, call: Call, report: Found): number {
  const e = (typeof error === "object" && error !== null ? error : {}) as { code?: unknown; message?: unknown };
  if (typeof e.code !== "number" || !Number.isInteger(e.code)) report("error-object", `the error answering ${call.method} #${JSON.stringify(call.id)} has code ${JSON.stringify(e.code)}, not an integer`);
  else if (typeof e.message !== "string") report("error-object", `the error answering ${call.method} #${JSON.stringify(call.id)} has no string message`, undefined, "ACP-JSONRPC-002");
  return typeof e.code === "number" ? e.code : Number.NaN;
}

function onResult(state: MonitorState, call: Call, result: unknown, report: Found): void {
  const r = (typeof result === "object" && result !== null ? result : {}) as Record<string, unknown>;
  if (call.row?.lifecycle === "initialize") onInitialized(state, call, r, result, report);
  else if (call.row !== undefined && !call.envelopeInvalid) checkSchema(call.table, call.row, "result", result, report);
  switch (call.row?.lifecycle) {
    case "authenticate":
      state.authenticated = true;
      break;
    case "logout":
      state.authenticated = false;
      break;
    case "opens_session": {
      // new and fork answer the id they opened; load and resume open the id they named.
      const opened = typeof r.sessionId === "string" ? r.sessionId : call.method !== "session/fork" ? call.sessionId : undefined;
      if (opened === undefined) break;
      sessionOf(state, opened);
      const early = state.earlyUpdates.get(opened);
      if (early !== undefined) {
        state.earlyUpdates.delete(opened);
        state.notes.push(`${early}; the ${call.method} answer introduced it afterwards (updates before their session's answer: an ordering matter, not ACP-SESSION-001)`);
      }
      break;
    }
    case "closes_session":
      if (call.sessionId !== undefined) state.sessions.delete(call.sessionId);
      break;
  }
  if (call.method === "session/prompt" && call.cancelledBySession && call.table.turnEnd === undefined && r.stopReason !== "cancelled") {
    report("cancelled-prompt-stop-reason", `agent answered ${call.method} #${JSON.stringify(call.id)} with stopReason ${JSON.stringify(r.stopReason)} after the client's session/cancel; a cancelled turn ends with "cancelled"`, "agent");
  }
  if (call.method === "session/request_permission" && call.cancelledBySession) {
    const outcome = (r.outcome as { outcome?: unknown } | undefined)?.outcome;
    call.reported = true;
    if (outcome !== "cancelled") report("permission-after-cancel", `client answered session/request_permission #${JSON.stringify(call.id)} with outcome ${JSON.stringify(outcome)} after session/cancel; it must be "cancelled"`, "client", "ACP-PERM-102");
  }
}

/**
 * A successful initialize answer: the version it names selects the table
 * (which also judges this result), and the latest answer is the one in
 * force, so a negotiating client's second initialize moves the connection
 * to the version answered then. Capabilities are read from that table's
 * field names.
 */
function onInitialized(state: MonitorState, call: Call, r: Record<string, unknown>, result: unknown, report: Found): void {
  const answered = state.tables.forVersion(r.protocolVersion);
  const table = answered ?? state.table;
  const row = table.router.inboundRow("agent", "request", "initialize") ?? call.row;
  if (row !== undefined && !call.envelopeInvalid) checkSchema(table, row, "result", result, report);
  if (answered === undefined) state.notes.push(`the agent answered protocolVersion ${JSON.stringify(r.protocolVersion)}; no table is generated for it, so ${state.table.name} was used`);
  else if (answered.version !== state.table.version) {
    if (state.negotiated !== undefined) state.notes.push(`initialize was answered again, with protocolVersion ${answered.version}: the ${answered.name} table judges the rest (the latest initialize is in force)`);
    state.table = answered;
  }
  state.initialized = true;
  state.negotiated = typeof r.protocolVersion === "number" ? r.protocolVersion : undefined;
  state.agentCapabilities = r[state.table.capabilityFields.result];
  const params = (typeof state.initParams === "object" && state.initParams !== null ? state.initParams : {}) as Record<string, unknown>;
  state.clientCapabilities = params[state.table.capabilityFields.params];
  state.authMethods = Array.isArray(r.authMethods) ? r.authMethods : [];
}

function onError(state: MonitorState, call: Call, code: number, report: Found): void {
  const name = `${call.method} #${JSON.stringify(call.id)}`;
  // The codes as the judging table's schema names them.
  const codes = call.table.errorCodes;
  if (call.unknownMethod && code !== codes.MethodNotFound) report("method-not-found-code", `${name} (an unknown method) was answered ${code}, not -32601`);
  if (code === codes.MethodNotFound && (call.method === "session/new" || call.method === "session/prompt" || call.method === "initialize")) report("required-method", `${name} was answered -32601; every agent supports it`);
  if (call.method === "session/prompt" && call.cancelledBySession) report("cancelled-prompt-error", `${name} was answered with error ${code} after session/cancel; a cancelled turn ends with stopReason "cancelled"`);
  if (code === codes.AuthRequired && call.row?.auth === true) {
    if (state.authenticated) report("auth-order", `${name} was answered -32000 (authentication required) after authenticate succeeded`);
    else if (call.method === "session/new" && state.initialized && state.authMethods.length === 0) report("auth-order", `${name} was answered -32000 (authentication required) but the agent advertised no authMethods`, undefined, "ACP-AUTH-005");
  }
  if (call.method === "session/request_permission") call.reported = true;
}

/**
 * A response-shaped body that is not a well-formed answer: both result and
 * error, or an id that is not a request id. An error with id null answers a
 * line the peer wrote that had no usable id; if there is none, the answer
 * broke the rejection-id rule for a request whose id was usable. `line` is
 * the whole line (absent for a batch item), to read an id's digits.
 */
export function onMalformedAnswer(state: MonitorState, from: Sender, m: Record<string, unknown>, t: number, report: Found, line?: string): Answer {
  const caller = peerOf(from);
  const book = state.calls[caller];
  const hasResult = Object.prototype.hasOwnProperty.call(m, "result");
  const hasError = m.error !== undefined;
  if (hasResult && hasError) {
    report("envelope", `${from} answered id ${JSON.stringify(m.id)} with both result and error`, from, "ACP-JSONRPC-002");
    if (isRequestId(m.id)) {
      const call = book.pending.get(m.id);
      if (call) settle(book, m.id, call);
      return call ? { method: call.method, ms: t - call.t, error: undefined } : undefined;
    }
    return undefined;
  }
  if (m.id === null && hasError) {
    if (book.nullOwed > 0) {
      book.nullOwed--;
      return undefined;
    }
    for (const [key, call] of book.pending) {
      if (!call.envelopeInvalid) continue;
      settle(book, key, call);
      report("rejection-id", `${from} rejected ${call.method} #${JSON.stringify(call.id)} with id null; its id was usable and must be echoed`);
      return { method: call.method, ms: t - call.t, error: (m.error as { code?: number }).code };
    }
    report("unknown-response-id", `${from} sent an error with id null, but the ${caller} wrote no line without a usable id`);
    return undefined;
  }
  const echoed = typeof m.id === "number" ? book.numericUnusable.findIndex((u) => u.value === m.id) : -1;
  if (echoed !== -1) {
    const sent = book.numericUnusable[echoed]!;
    book.numericUnusable.splice(echoed, 1);
    if (book.nullOwed > 0) book.nullOwed--;
    // The same double, other digits: 2^53+1 answered as 2^53 (ids.ts has the policy).
    const echo = sent.raw !== undefined && line !== undefined ? judgeIdEcho(sent.raw, line, m) : undefined;
    if (echo?.kind === "altered") {
      report("id-altered", `${from} answered the request whose id was ${sent.raw!} with id ${echo.answered}; a response repeats the request's id exactly (an id the ${from} cannot hold is refused with -32600 and id null)`, from);
      return undefined;
    }
    // The peer treated a number JSON-RPC allows as an id: a choice, not a breach (RequestId's prose: SHOULD NOT, for the sender).
    state.notes.push(`${from} answered the request whose id was ${sent.raw ?? JSON.stringify(m.id)} (not a string or a safe integer) echoing that id; JSON-RPC allows numbers there, so this is noted, not charged`);
    return undefined;
  }
  if (m.id === null) report("rejection-id", `${from} sent a result with id null`, from, "ACP-JSONRPC-001");
  else if (m.id === undefined) report("envelope", `${from} sent an answer without an id`, from, "ACP-JSONRPC-101");
  else report("rejection-id", `${from} answered with id ${JSON.stringify(m.id)}, which is not a request id; an unusable id is answered with id null`, from, "ACP-INFO-INVALIDREQ-001");
  if (book.nullOwed > 0) book.nullOwed--;
  return undefined;
}
