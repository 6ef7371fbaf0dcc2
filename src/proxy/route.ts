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
import type { ChainRows } from "./chain-rows.ts";
import { unwrap, type How, type Inbound } from "./splice.ts";

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
  /** Answer it on its hop with `error` (a request's own id); a notification is dropped, saying `error.message`. */
  | { readonly do: "refuse"; readonly error: ErrorObject }
  /** Send it to hop `to` (`PEER`, or a component) as `method`, its text made as `how` says. */
  | ({ readonly do: "forward"; readonly to: number; readonly method: string } & How);

const ANSWER: Decision = { do: "answer" };
const CANCEL: Decision = { do: "cancel" };
const SAME = "same";

/** Decides where a message from hop `from` goes (see the module comment). */
export function route(shape: ChainShape, rows: ChainRows, from: number, m: Inbound): Decision {
  if (m.kind === "response") return ANSWER;
  const method = m.method;
  if (method === rows.cancel) return CANCEL;

  if (from === PEER) {
    if (method === rows.envelope && shape.mode === "proxy") {
      const inner = unwrap(m, rows.envelope);
      if (typeof inner === "string") return invalidEnvelope(inner);
      return { do: "forward", to: shape.last, method: rows.envelope, how: "rewrap", inner };
    }
    // A client speaks to one agent: the proxy table's own methods are the conductor's, never a client's.
    if (shape.mode === "terminal" && rows.proxyOnly.has(method)) return { do: "refuse", error: wireError.methodNotFound(method, "a client of a conductor does not send proxy methods") };
    if (method === rows.initialize && hasSuccessor(shape, 0)) return { do: "forward", to: 0, method: rows.proxyInitialize, how: "rename" };
    return { do: "forward", to: 0, method, how: SAME };
  }
  if (method === rows.envelope) {
    const inner = unwrap(m, rows.envelope);
    if (typeof inner === "string") return invalidEnvelope(inner);
    const to = from < shape.last ? from + 1 : shape.mode === "proxy" ? PEER : undefined;
    if (to === undefined) return { do: "refuse", error: wireError.methodNotFound(rows.envelope, `${shape.name(from)} is the agent: it has no successor`) };
    // Proxy mode: the tail's successor is the outer chain, spoken to in the same envelope (its `_meta` stays on this hop).
    if (to === PEER) return { do: "forward", to, method: rows.envelope, how: "rewrap", inner };
    return { do: "forward", to, method: inner.method === rows.initialize && hasSuccessor(shape, to) ? rows.proxyInitialize : inner.method, how: "unwrap", inner };
  }
  // Anything else from a component goes towards its predecessor: as it is to the peer, else in the envelope.
  if (from === 0) return { do: "forward", to: PEER, method, how: SAME };
  return { do: "forward", to: from - 1, method: rows.envelope, how: "wrap" };
}

const hasSuccessor = (shape: ChainShape, i: number): boolean => i < shape.last || shape.mode === "proxy";
const invalidEnvelope = (why: string): Decision => ({ do: "refuse", error: wireError.invalidParams({ errors: [{ path: "/method", message: why }] }) });
