/**
 * Where the conductor sends a message: a pure function of the chain's shape,
 * the rows it routes by ({@link ChainRows}), the hop it came from and the
 * message. It decides; the wiring (`conductor.ts`) does.
 *
 * - The peer speaks to the head of the chain; a component's envelope goes to
 *   its successor unwrapped; anything else a component sends goes to its
 *   predecessor, wrapped in the envelope unless that is the peer.
 * - An initialize to a component with a successor becomes the proxy table's
 *   initialize.
 * - Proxy mode: the peer is an outer conductor, every component a proxy; the
 *   tail's successor is the outer chain, reached in the envelope on the
 *   peer's hop, and the peer's envelopes go to the tail as they are.
 */
import { wireError, type ErrorObject } from "../errors.ts";
import type { MessageKind } from "../jsonrpc/classify.ts";
import type { ChainRows } from "./chain-rows.ts";

/** The chain: its last component's index, the mode, and each component's name for messages. */
export interface ChainShape {
  readonly last: number;
  readonly mode: "terminal" | "proxy";
  readonly name: (index: number) => string;
}

/** The peer's index in routing decisions. */
export const PEER = -1;

/** What to do with one message. */
export type Decision =
  /** A response: match it against the conductor's requests on the hop. */
  | { readonly do: "answer" }
  /** `$/cancel_request`: cancel what the conductor forwarded for it. */
  | { readonly do: "cancel" }
  /** Answer it on its hop with `error` (a request's own id, or `null` when `anonymous`); a notification is dropped, saying `error.message`. */
  | { readonly do: "refuse"; readonly error: ErrorObject; readonly anonymous?: true }
  /** Nothing to do (a response-shaped body that is not one). */
  | { readonly do: "ignore" }
  /** Send `method` and `params` to hop `to` (`PEER`, or a component); `same` when both are the message's own. */
  | { readonly do: "forward"; readonly to: number; readonly method: string; readonly params: unknown; readonly same: boolean };

/** The message being routed: its kind, and method and params when it has them. */
export interface Routed {
  readonly kind: MessageKind;
  readonly body: Record<string, unknown>;
}

/** Decides where a message from hop `from` goes (see the module comment). */
export function route(shape: ChainShape, rows: ChainRows, from: number, m: Routed): Decision {
  const { kind, body } = m;
  if (kind === "response") return { do: "answer" };
  if (kind === "unidentified_request") return { do: "refuse", error: wireError.unusableId(), anonymous: true };
  if (kind === "unknown") return "result" in body || "error" in body ? { do: "ignore" } : { do: "refuse", error: wireError.notJsonRpc(), anonymous: true };
  const method = body.method as string;
  const params = body.params;
  if (method === rows.cancel) return { do: "cancel" };
  const hasSuccessor = (i: number) => i < shape.last || shape.mode === "proxy";
  const initializeFor = (i: number, wire: string) => (wire === rows.initialize && hasSuccessor(i) ? rows.proxyInitialize : wire);

  if (from === PEER) {
    if (shape.mode === "proxy" && method === rows.envelope) {
      const inner = unwrap(params, rows.envelope);
      if (typeof inner === "string") return invalidEnvelope(inner);
      return { do: "forward", to: shape.last, method: rows.envelope, params: envelope(inner), same: false };
    }
    // A client speaks to one agent: the proxy table's own methods are the conductor's, never a client's.
    if (shape.mode === "terminal" && rows.proxyOnly.has(method)) return { do: "refuse", error: wireError.methodNotFound(method, "a client of a conductor does not send proxy methods") };
    const wire = initializeFor(0, method);
    return { do: "forward", to: 0, method: wire, params, same: wire === method };
  }
  if (method === rows.envelope) {
    const inner = unwrap(params, rows.envelope);
    if (typeof inner === "string") return invalidEnvelope(inner);
    const to = from < shape.last ? from + 1 : shape.mode === "proxy" ? PEER : undefined;
    if (to === undefined) return { do: "refuse", error: wireError.methodNotFound(rows.envelope, `${shape.name(from)} is the agent: it has no successor`) };
    // Proxy mode: the tail's successor is the outer chain, spoken to in the same envelope (its `_meta` stays on this hop).
    if (to === PEER) return { do: "forward", to, method: rows.envelope, params: envelope(inner), same: false };
    return { do: "forward", to, method: initializeFor(to, inner.method), params: inner.params, same: false };
  }
  // Anything else from a component goes towards its predecessor: as it is to the peer, else in the envelope.
  if (from === 0) return { do: "forward", to: PEER, method, params, same: true };
  return { do: "forward", to: from - 1, method: rows.envelope, params: params === undefined ? { method } : { method, params }, same: false };
}

const invalidEnvelope = (why: string): Decision => ({ do: "refuse", error: wireError.invalidParams({ errors: [{ path: "/method", message: why }] }) });
const envelope = (inner: { method: string; params: unknown }) => (inner.params === undefined ? { method: inner.method } : { method: inner.method, params: inner.params });

/** The wrapped message of an envelope, or why there is none. */
export function unwrap(params: unknown, wire: string): { method: string; params: unknown } | string {
  if (typeof params !== "object" || params === null || Array.isArray(params)) return `${wire} params must be an object with a method`;
  const p = params as { method?: unknown; params?: unknown };
  if (typeof p.method !== "string") return `${wire} needs the wrapped message's method (a string)`;
  const inner = p.params === null ? undefined : p.params;
  if (inner !== undefined && typeof inner !== "object") return `${wire} params.params must be an object or an array`;
  return { method: p.method, params: inner };
}
