/** Rules checked when a request or a notification is seen: ids, methods, order, gates, schema, cancellation. */
import type { RequestId } from "../../src/context.ts";
import { gate } from "../../src/connection/gate.ts";
import { isRequestId } from "../../src/jsonrpc/classify.ts";
import { isExtensionWire } from "../../src/row.ts";
import type { Call } from "./calls.ts";
import { checkSchema, type Found } from "./checks.ts";
import type { MonitorState, SessionState } from "./monitor-state.ts";
import { peerOf, requirementForGate, requirementForInitOrder, type Sender } from "./rules.ts";
import { widerTableFor, type Table } from "./tables.ts";
import { declaresAcpServer } from "./mcp.ts";
import { onPromptSent, onSessionCancel, onTurnUpdate } from "./turns.ts";
import { sessionIdOf } from "../../src/jsonrpc/session-id.ts";

/** Session state for `id`, created on first use. */
export function sessionOf(state: MonitorState, id: string): SessionState {
  let s = state.sessions.get(id);
  if (s === undefined) {
    s = { prompt: undefined, turnEnded: false, lastTurnCancelled: false, loading: 0, accepted: [], userMessages: new Set(), cancelRequested: false };
    state.sessions.set(id, s);
  }
  return s;
}

/**
 * The table that judges a message `handler` receives: for the client's
 * `initialize`, the table of the version it asks for (the answer decides
 * the connection's); otherwise the connection's, first widened (and kept
 * widened) when only the wider table has the method.
 */
function tableOf(state: MonitorState, from: Sender, kind: "request" | "notification", method: string, params: unknown, index: number): Table {
  if (kind === "request" && opensConnection(state, from, method)) return state.tables.forVersion((params as { protocolVersion?: unknown } | undefined)?.protocolVersion) ?? state.table;
  const wider = widerTableFor(state.table, peerOf(from), kind, method) ?? (declaresAcpServer(method, params) ? state.table.wider : undefined);
  if (wider !== undefined) {
    state.notes.push(
      `switched from the ${state.table.name} table to ${wider.name} at message ${index}: ${from} sent ${method}, which only ${wider.name} has${wider.router.inboundRow(peerOf(from), kind, method) !== undefined && state.table.router.inboundRow(peerOf(from), kind, method) !== undefined ? " with a type acp MCP server" : ""}`,
    );
    state.table = wider;
  }
  return state.table;
}

/**
 * The client's request that opens the connection: `initialize`, or the row
 * the table marks as the initializer (the proxy table's `proxy/initialize`).
 */
function opensConnection(state: MonitorState, from: Sender, method: string): boolean {
  return from === "client" && state.table.router.inboundRow("agent", "request", method)?.lifecycle === "initialize";
}

export function onRequest(state: MonitorState, from: Sender, m: Record<string, unknown>, envelopeOk: boolean, t: number, index: number, report: Found): void {
  const method = m.method as string;
  const id = m.id as RequestId;
  const handler = peerOf(from);
  const book = state.calls[from];
  const table = tableOf(state, from, "request", method, m.params, index);
  const row = table.router.inboundRow(handler, "request", method);
  const unknownMethod = row === undefined && !isExtensionWire(method);
  if (unknownMethod) report("unknown-method", `${from} sent request ${method}, which the ${handler} does not handle in the ${table.name} table and is not an _ extension`);
  if (book.pending.has(id)) report("duplicate-request-id", `${from} sent ${method} with id ${JSON.stringify(id)} while ${book.pending.get(id)?.method} with that id is still pending`);

  const opens = opensConnection(state, from, method);
  if (!state.initialized && !opens && from === "client") {
    report("init-order", `client sent ${method} before initialize was answered`, from, requirementForInitOrder(method, table.version));
  } else if (state.initialized && row !== undefined) {
    // The connection's one gate, in its words.
    const refusal = gate(table, state, row, handler);
    if (refusal !== undefined) report("capability-gate", `${from} called ${method} but ${refusal.message}`, from, requirementForGate(method, table.version));
  }
  if (opens) state.initParams = m.params;
  if (method === "authenticate") checkAuthMethod(state, m.params, report);
  if (row !== undefined && envelopeOk) checkSchema(table, row, "params", m.params ?? {}, report);

  const sessionId = sessionIdOf(m.params);
  if (sessionId !== undefined) {
    // load and resume name the session they open (and may replay it); fork names its source, new names none.
    if (row?.lifecycle === "opens_session" && method !== "session/new" && method !== "session/fork") sessionOf(state, sessionId).loading++;
    const s = state.sessions.get(sessionId);
    if (method === "session/prompt" && s !== undefined) {
      permissionsLeftAfterCancel(state, sessionId, report);
      onPromptSent(s, id);
    }
  }
  const call: Call = {
    id,
    method,
    from,
    t,
    index,
    row,
    table,
    sessionId,
    unknownMethod,
    envelopeInvalid: !envelopeOk,
    cancelledByRequest: false,
    cancelledBySession: false,
    reported: false,
  };
  book.pending.set(id, call);
}

export function onNotification(state: MonitorState, from: Sender, m: Record<string, unknown>, envelopeOk: boolean, index: number, report: Found): void {
  const method = m.method as string;
  const handler = peerOf(from);
  const table = tableOf(state, from, "notification", method, m.params, index);
  const row = table.router.inboundRow(handler, "notification", method);
  if (row === undefined && !isExtensionWire(method)) report("unknown-method", `${from} sent notification ${method}, which the ${handler} does not handle in the ${table.name} table and is not an _ extension`);
  if (state.initialized && row !== undefined) {
    const refusal = gate(table, state, row, handler);
    if (refusal !== undefined) report("capability-gate", `${from} sent ${method} but ${refusal.message}`, from, requirementForGate(method, table.version));
  }
  if (row !== undefined && envelopeOk) checkSchema(table, row, "params", m.params ?? {}, report);
  const params = (m.params ?? {}) as Record<string, unknown>;
  if (method === "$/cancel_request" && isRequestId(params.requestId)) {
    // The caller cancels its own request.
    const call = state.calls[from].pending.get(params.requestId);
    if (call) call.cancelledByRequest = true;
  } else if (method === "session/cancel" && from === "client") {
    const sessionId = sessionIdOf(params);
    if (sessionId === undefined) return;
    const s = state.sessions.get(sessionId);
    const prompt = s?.prompt !== undefined ? state.calls.client.pending.get(s.prompt) : undefined;
    if (prompt) prompt.cancelledBySession = true;
    if (s !== undefined) onSessionCancel(s);
    for (const call of state.calls.agent.pending.values()) {
      if (call.method === "session/request_permission" && call.sessionId === sessionId) call.cancelledBySession = true;
    }
  } else if (method === "session/update" && from === "agent") {
    const sessionId = sessionIdOf(params);
    if (sessionId === undefined) return;
    const s = state.sessions.get(sessionId);
    if (s === undefined) {
      const message = `agent sent session/update for session ${JSON.stringify(sessionId)}, which no session/new, fork, load or resume introduced`;
      const opening = [...state.calls.client.pending.values()].some((c) => c.row?.lifecycle === "opens_session");
      if (!opening) report("unknown-session", message);
      else if (!state.earlyUpdates.has(sessionId)) state.earlyUpdates.set(sessionId, `${message} while a request opening a session was pending`);
      return;
    }
    onTurnUpdate(state, sessionId, s, params, report);
  }
}

/** Reports permission requests of `sessionId` still unanswered after a session/cancel (checked when the client moves on). */
export function permissionsLeftAfterCancel(state: MonitorState, sessionId: string, report: Found): void {
  for (const call of state.calls.agent.pending.values()) {
    if (call.method !== "session/request_permission" || call.sessionId !== sessionId || !call.cancelledBySession || call.reported) continue;
    call.reported = true;
    report("permission-after-cancel", `client left session/request_permission #${JSON.stringify(call.id)} unanswered after session/cancel of session ${sessionId}`, "client", "ACP-PERM-101");
  }
}

/** A client never passes a terminal-type auth method to authenticate (ACP-AUTH-101). */
function checkAuthMethod(state: MonitorState, params: unknown, report: Found): void {
  const methodId = (params as { methodId?: unknown } | undefined)?.methodId;
  const method = state.authMethods.find((a) => (a as { id?: unknown } | null)?.id === methodId) as { type?: unknown } | undefined;
  if (method?.type === "terminal") report("auth-order", `client called authenticate with ${JSON.stringify(methodId)}, a terminal auth method, which runs outside ACP`, "client", "ACP-AUTH-101");
}
