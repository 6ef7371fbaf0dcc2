/**
 * One hop of a chain, as the conductor keeps it: the line framing of its
 * stream, its ids (the conductor's own requests on it, and what it forwarded
 * for requests received on it), and the answers the conductor gives on it
 * itself (`-32700`, `-32600`). Messages leave as text, reused where they
 * can be (`splice.ts`).
 */
import { ParseFailure } from "../jsonrpc/parse.ts";
import { wireError, type ErrorObject } from "../errors.ts";
import { readMessages, type ReaderLimits } from "../transport/reader.ts";
import type { Transport } from "../transport/transport.ts";
import type { Id, Inbound } from "./splice.ts";

export { answerLine, notificationLine, requestLine, splicedId, type Id, type Inbound, type Splice } from "./splice.ts";

/** Where an answer on a hop goes: back to the hop and id a request came from, or to the conductor's own caller. */
export type Waiting = { readonly origin: Hop; readonly originId: Id } | { readonly own: (answer: Record<string, unknown>) => void };

/** One hop: the peer (index -1) or a component. */
export interface Hop {
  readonly index: number;
  readonly name: string;
  /** Writes one line (without its newline); held back while {@link Hop.held} is set. */
  readonly send: (line: string) => void;
  /** The conductor's requests on this hop, by id. */
  readonly pending: Map<Id, Waiting>;
  /** Requests received on this hop that the conductor forwarded: where, and under which id, for `$/cancel_request`. */
  readonly forwarded: Map<string, { readonly target: Hop; readonly id: Id }>;
  nextId: number;
  alive: boolean;
  /** Lines held back (while the MCP bridge starts, on the agent's hop); undefined when none. */
  held: string[] | undefined;
  /** How many held lines are not ready yet ({@link holdUntil}). */
  holding: number;
}

/** The key of a request id in {@link Hop.forwarded}: `1` and `"1"` apart. */
export const idKey = (id: Id): string => `${typeof id}:${id}`;

/** A hop that writes its lines with `write`. */
export function makeHop(index: number, name: string, write: (text: string) => void): Hop {
  const hop: Hop = {
    index,
    name,
    send: (line) => (hop.held !== undefined ? void hop.held.push(line) : write(`${line}\n`)),
    pending: new Map(),
    forwarded: new Map(),
    nextId: 0,
    alive: true,
    held: undefined,
    holding: 0,
  };
  return hop;
}

/** Holds `hop`'s lines from here until `line` is ready (and any other held line), then sends them all in order. */
export function holdUntil(hop: Hop, line: Promise<string>): void {
  const held = hop.held ?? [];
  hop.held = held;
  const slot = held.push("") - 1;
  hop.holding++;
  void line.then((text) => {
    held[slot] = text;
    if (--hop.holding > 0 || hop.held !== held) return;
    hop.held = undefined;
    for (const l of held) hop.send(l);
  });
}

/** Answers `id` on `hop` with `error`, unless the hop is gone. */
export function answerError(hop: Hop, id: Id | null, error: ErrorObject): void {
  if (hop.alive) hop.send(JSON.stringify({ jsonrpc: "2.0", id, error }));
}

/**
 * Reads `transport` as `hop`'s stream (the one message reader,
 * `transport/reader.ts`): what is not a JSON-RPC message is answered on the
 * hop; the rest goes to `message`.
 */
export function readHop(hop: Hop, transport: Transport, limits: ReaderLimits, message: (from: Hop, m: Inbound) => void, onEnd: () => void): void {
  readMessages(
    transport,
    {
      message(value, line, kind) {
        if (value instanceof ParseFailure) return answerError(hop, null, wireError.parse(value.reason));
        if (Array.isArray(value)) return answerError(hop, null, wireError.batchRejected(value.length === 0));
        if (kind === undefined) return answerError(hop, null, wireError.notJsonRpc());
        message(hop, { body: value as Record<string, unknown>, kind, line });
      },
      oversized: () => answerError(hop, null, wireError.lineTooLong(limits.maxMessageBytes)),
      end: onEnd,
    },
    limits,
  );
}
