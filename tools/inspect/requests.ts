/** Rules checked when a request or a notification is seen: ids, methods, order, gates, schema, cancellation. */
import type { RequestId } from "../../src/context.ts";
import { capabilityName, hasCapability } from "../../src/connection/capabilities.ts";
import { isRequestId } from "../../src/jsonrpc/classify.ts";
import { isExtensionWire } from "../../src/row.ts";
import { idKey, type Call } from "./calls.ts";
import { checkSchema, type Found } from "./checks.ts";
import type { MonitorState, SessionState } from "./monitor.ts";
import { peerOf, requirementForGate, requirementForInitOrder, type Sender } from "./rules.ts";

/** Turn content: updates that belong to a prompt turn (not session-level state such as modes, commands or usage). */
const TURN_CONTENT = new Set(["agent_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update", "plan"]);

/** Session state for `id`, created on first use. */
export function sessionOf(state: MonitorState, id: string): SessionState {
  let s = state.sessions.get(id);
  if (s === undefined) {
    s = { prompt: undefined, turnEnded: false, lastTurnCancelled: false, loading: 0 };
    state.sessions.set(id, s);
  }
  return s;
}

function sessionIdOf(params: unknown): string | undefined {
  const id = typeof params === "object" && params !== null ? (params as { sessionId?: unknown }).sessionId : undefined;
  return typeof id === "string" ? id : undefined;
}

export function onRequest(state: MonitorState, from: Sender, m: Record<string, unknown>, envelopeOk: boolean, t: number, index: number, report: Found): void {
  const method = m.method as string;
  const id = m.id as RequestId;
  const handler = peerOf(from);
  const book = state.calls[from];
  const key = idKey(id);
  const row = state.table.router.inboundRow(handler, "request", method);
  const unknownMethod = row === undefined && !isExtensionWire(method);
  if (unknownMethod) report("unknown-method", `${from} sent request ${method}, which the ${handler} does not handle in the ${state.table.name} table and is not an _ extension`);
  if (book.pending.has(key)) report("duplicate-request-id", `${from} sent ${method} with id ${JSON.stringify(id)} while ${book.pending.get(key)?.method} with that id is still pending`);

  if (!state.initialized && method !== "initialize" && from === "client") {
    report("init-order", `client sent ${method} before initialize was answered`, from, requirementForInitOrder(method));
  } else if (state.initialized && row?.capability !== undefined) {
    const caps = handler === "agent" ? state.agentCapabilities : state.clientCapabilities;
    if (!hasCapability(caps, row.capability)) report("capability-gate", `${from} called ${method} but ${capabilityName(handler, row.capability)} was not advertised`, from, requirementForGate(method));
  }
  if (method === "initialize") state.clientCapabilities = (m.params as { clientCapabilities?: unknown } | undefined)?.clientCapabilities;
  if (method === "authenticate") checkAuthMethod(state, m.params, report);
  if (row !== undefined && envelopeOk) checkSchema(row, "params", m.params ?? {}, state.table.router.leniency, report);

  const sessionId = sessionIdOf(m.params);
  if (sessionId !== undefined) {
    if (row?.lifecycle === "opens_session" && method !== "session/new") sessionOf(state, sessionId).loading++;
    const s = state.sessions.get(sessionId);
    if (method === "session/prompt" && s !== undefined) {
      permissionsLeftAfterCancel(state, sessionId, report);
      s.prompt = key;
      s.turnEnded = false;
    }
  }
  const call: Call = {
    id, method, from, t, index, row, sessionId, unknownMethod,
    envelopeInvalid: !envelopeOk, cancelledByRequest: false, cancelledBySession: false, reported: false,
  };
  book.pending.set(key, call);
}

export function onNotification(state: MonitorState, from: Sender, m: Record<string, unknown>, envelopeOk: boolean, report: Found): void {
  const method = m.method as string;
  const handler = peerOf(from);
  const row = state.table.router.inboundRow(handler, "notification", method);
  if (row === undefined && !isExtensionWire(method)) report("unknown-method", `${from} sent notification ${method}, which the ${handler} does not handle in the ${state.table.name} table and is not an _ extension`);
  if (state.initialized && row?.capability !== undefined) {
    const caps = handler === "agent" ? state.agentCapabilities : state.clientCapabilities;
    if (!hasCapability(caps, row.capability)) report("capability-gate", `${from} sent ${method} but ${capabilityName(handler, row.capability)} was not advertised`, from, requirementForGate(method));
  }
  if (row !== undefined && envelopeOk) checkSchema(row, "params", m.params ?? {}, state.table.router.leniency, report);
  const params = (m.params ?? {}) as Record<string, unknown>;
  if (method === "$/cancel_request" && isRequestId(params.requestId)) {
    // The caller cancels its own request.
    const call = state.calls[from].pending.get(idKey(params.requestId));
    if (call) call.cancelledByRequest = true;
  } else if (method === "session/cancel" && from === "client") {
    const sessionId = sessionIdOf(params);
    if (sessionId === undefined) return;
    const s = state.sessions.get(sessionId);
    const prompt = s?.prompt !== undefined ? state.calls.client.pending.get(s.prompt) : undefined;
    if (prompt) prompt.cancelledBySession = true;
    for (const call of state.calls.agent.pending.values()) {
      if (call.method === "session/request_permission" && call.sessionId === sessionId) call.cancelledBySession = true;
    }
  } else if (method === "session/update" && from === "agent") {
    const sessionId = sessionIdOf(params);
    if (sessionId === undefined) return;
    const s = state.sessions.get(sessionId);
    if (s === undefined) {
      report("unknown-session", `agent sent session/update for session ${JSON.stringify(sessionId)}, which no session/new, load or resume introduced`);
      return;
    }
    const kind = (params.update as { sessionUpdate?: unknown } | undefined)?.sessionUpdate;
    if (typeof kind === "string" && TURN_CONTENT.has(kind) && s.prompt === undefined && s.turnEnded && s.loading === 0) {
      const why = s.lastTurnCancelled ? "the cancelled turn was answered" : "the turn was answered";
      report("update-after-turn", `agent sent a ${kind} update for session ${sessionId} after ${why} and before the next prompt`, "agent", s.lastTurnCancelled ? "ACP-CANCEL-002" : "ACP-PROMPT-001");
    }
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
