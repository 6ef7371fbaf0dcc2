/**
 * `defineProxy`: an ACP proxy (the Proxy Chains RFD) as a handler of the
 * proxy table's agent side. A proxy sits between its predecessor (a client,
 * or another proxy) and its successor (an agent, or another proxy); its
 * conductor carries messages both ways. Every message passes on unchanged
 * unless a hook for its method says otherwise:
 *
 * - `fromClient.<callback>` sees what the predecessor sends (`prompt`,
 *   `newSession`, `initialize`, …) with params already validated by the
 *   table; it may call `ctx.forward(params)` (the same params or rewritten)
 *   and return or change the successor's answer, answer itself without
 *   forwarding, or send more (`ctx.toAgent`, `ctx.toClient`).
 * - `fromAgent.<callback>` sees what the successor sends (`sessionUpdate`,
 *   `requestPermission`, `readTextFile`, …), validated against the table's
 *   client side, with the same choices towards the predecessor.
 *
 * Decisions (the RFD leaves them to the proxy):
 * - `proxy/initialize` is forwarded as `initialize` (the same params), and
 *   the proxy answers with its successor's answer, `protocolVersion`
 *   unchanged (a `fromClient.initialize` hook may change the rest). The RFD
 *   has every proxy advertise `mcpCapabilities.acp`: `conduct` sets it in the
 *   agent's answer when the agent lacks it (and bridges), so the answer a
 *   proxy passes on says it already.
 * - `session/cancel` from the predecessor is forwarded to the successor as a
 *   notification once per running prompt, and the prompt waits for the
 *   successor's answer (a cancelled turn still answers). A `$/cancel_request`
 *   is hop-local: it cancels this proxy's own `proxy/successor` request.
 * - Order: what the successor sends is handled in arrival order (a hook that
 *   awaits holds up the messages after it), and the answer to a request
 *   forwarded to the successor is passed back only after everything the
 *   successor sent before that answer (a `session/load` replay reaches the
 *   predecessor before the load's answer, as it left the agent).
 * - Methods the table does not know: `_`-prefixed ones pass on unchanged both
 *   ways (no validation; the ends validate them); any other is `-32601`.
 */
import { decode } from "../decode.ts";
import { RpcError } from "../errors.ts";
import type { Row } from "../row.ts";
import type { AgentHandler } from "./generated/handlers.ts";
import { protocol } from "./generated/protocol.ts";
import type { ProxySuccessorNotification, ProxySuccessorRequest } from "./generated/types.ts";
import type { AnyHook, Ctx, DefinedProxy, ProxyHooks, ProxyOutbound, ProxySender } from "./hooks.ts";
import { arrivalOrder, hopSignal, successorParams, type Ordered } from "./order.ts";
import { proxyRows } from "./rows.ts";
import { sessionIdOf } from "../jsonrpc/session-id.ts";

export type { DefinedProxy, ProxyContext, ProxyHook, ProxyHookSet, ProxyHooks, ProxyOutbound, ProxySender } from "./hooks.ts";

/** Rows the proxy answers itself rather than forwarding as they are: both initializes and the envelope. */
const ownRow = (wire: string) => wire === proxyRows.proxyInitialize || wire === proxyRows.envelope || wire === proxyRows.initialize;

/**
 * The proxy's handler for the proxy table's agent side, built from `hooks`.
 * `outbound` is the connection it is served on (set once connected:
 * {@link connectProxy} does this); until then nothing can be forwarded.
 */
export function defineProxy(hooks: ProxyHooks = {}): DefinedProxy {
  let out: ProxyOutbound | undefined;
  const conductor = (): ProxyOutbound => {
    if (out === undefined) throw RpcError.internal("the proxy is not connected to its conductor");
    return out;
  };
  const toAgent: ProxySender = {
    request: (method, params, options) => conductor().request(proxyRows.envelope, successorParams(method, params), options),
    notify: (method, params) => conductor().notify(proxyRows.envelope, successorParams(method, params)),
  };
  const toClient: ProxySender = {
    request: (method, params, options) => conductor().request(method, params ?? {}, options),
    notify: (method, params) => conductor().notify(method, params ?? {}),
  };
  const fromClient = (hooks.fromClient ?? {}) as Readonly<Record<string, AnyHook | undefined>>;
  const fromAgent = (hooks.fromAgent ?? {}) as Readonly<Record<string, AnyHook | undefined>>;

  // What each side sent, in arrival order: a message starts when the one before it was handed on,
  // and an answer from that side waits for what it sent before the answer.
  const fromSuccessorSide = arrivalOrder();
  const fromPredecessorSide = arrivalOrder();
  toAgent.request = fromSuccessorSide.answersAfter(toAgent.request);
  toClient.request = fromPredecessorSide.answersAfter(toClient.request);

  const handler: Record<string, unknown> = {};
  // Every method the predecessor may send: forward unless hooked.
  for (const row of protocol.rows.agent) {
    if (row.callback === undefined || ownRow(row.wire)) continue;
    handler[row.callback] = predecessorCall(row, fromClient[row.callback], toAgent, toClient, fromPredecessorSide);
  }
  handler.initializeProxy = async (params: unknown, ctx: Ctx) => {
    const hook = fromClient.initialize;
    const forward = (p: unknown) => toAgent.request(proxyRows.initialize, p);
    const context = { forward, toAgent, toClient, signal: ctx.signal, sessionId: ctx.sessionId };
    return hook === undefined ? forward(params) : hook(params, context);
  };
  handler.extMethod = (wire: string, params: unknown, ctx: Ctx) => {
    return fromPredecessorSide.start(() => toAgent.request(wire, params, { signal: hopSignal(ctx.signal) }));
  };
  handler.extNotification = (wire: string, params: unknown) => void fromPredecessorSide.inOrder(() => toAgent.notify(wire, params)).catch(() => {});
  // What the successor sends, delivered by the conductor inside proxy/successor.
  // A request waits its turn to start (its answer comes when the predecessor answers); a notification
  // returns at once, so the connection hands the next one over without waiting (the order is kept here).
  handler.fromSuccessor = (params: ProxySuccessorRequest, ctx: Ctx) => {
    return fromSuccessorSide.start(() => successorCall(params, "request", fromAgent, toAgent, toClient, ctx));
  };
  handler.fromSuccessorNotification = (params: ProxySuccessorNotification, ctx: Ctx) => {
    void fromSuccessorSide.inOrder(() => successorCall(params, "notification", fromAgent, toAgent, toClient, ctx)).catch(() => {});
  };
  return {
    hooks,
    handler: handler as unknown as AgentHandler,
    attach(outbound) {
      out = outbound;
    },
  };
}

/** The handler method for one predecessor row: the hook if any, else forward unchanged. */
function predecessorCall(row: Row<never, never>, hook: AnyHook | undefined, toAgent: ProxySender, toClient: ProxySender, order: Ordered) {
  const wire = row.wire;
  if (row.kind === "notification") {
    // Returns at once, so the connection hands the next message over without waiting; the order is kept here.
    return (params: unknown, ctx: Ctx) => {
      const forward = async (p: unknown) => void (await toAgent.notify(wire, p));
      void order.inOrder(() => (hook === undefined ? forward(params) : hook(params, { forward, toAgent, toClient, signal: ctx.signal, sessionId: ctx.sessionId }))).catch(() => {});
    };
  }
  const turn = proxyRows.turns.has(wire);
  return (params: unknown, ctx: Ctx) => {
    let cancelSent = false;
    const forward = (p: unknown) => {
      // session/cancel reaches the successor as the notification it is; $/cancel_request stays on this hop.
      if (turn && !cancelSent) {
        ctx.signal.addEventListener(
          "abort",
          () => {
            const cause = (ctx.signal.reason as { cause?: unknown } | undefined)?.cause;
            if (cause === "session_cancel" && ctx.sessionId !== undefined && !cancelSent) {
              cancelSent = true;
              void toAgent.notify(proxyRows.sessionCancel, { sessionId: ctx.sessionId }).catch(() => {});
            }
          },
          { once: true },
        );
      }
      return toAgent.request(wire, p, { signal: hopSignal(ctx.signal) });
    };
    // Starts in arrival order with the notifications around it; its answer comes when the successor answers.
    return order.start(() => (hook === undefined ? forward(params) : hook(params, { forward, toAgent, toClient, signal: ctx.signal, sessionId: ctx.sessionId })));
  };
}

/** A message the successor sent: validated against the predecessor's side of the table, then hooked or passed on. */
async function successorCall(envelope: ProxySuccessorRequest, kind: "request" | "notification", hooks: Readonly<Record<string, AnyHook | undefined>>, toAgent: ProxySender, toClient: ProxySender, ctx: Ctx): Promise<unknown> {
  const { method } = envelope;
  const params = envelope.params ?? undefined;
  const decoded = decode(protocol, "client", kind, method, params ?? {});
  if (decoded.tag === "method_not_found") throw RpcError.methodNotFound(method);
  if (decoded.tag === "invalid_params") throw RpcError.invalidParams({ errors: decoded.errors });
  const forward = async (p: unknown): Promise<unknown> => (kind === "request" ? toClient.request(method, p, { signal: hopSignal(ctx.signal) }) : void (await toClient.notify(method, p)));
  const callback = decoded.tag === "ok" ? decoded.row.callback : undefined;
  const hook = callback === undefined ? undefined : hooks[callback];
  if (hook === undefined) return forward(params);
  return hook(decoded.params, { forward, toAgent, toClient, signal: ctx.signal, sessionId: sessionIdOf(decoded.params) });
}
