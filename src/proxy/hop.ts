/**
 * One hop of a chain, as the conductor keeps it: the line framing of its
 * stream, its ids (the conductor's own requests on it, and what it forwarded
 * for requests received on it), and the answers the conductor gives on it
 * itself (`-32700`, `-32600`). Messages leave as text, reused where they
 * can be (`splice.ts`).
 */
import { oversizedAnswer, unusableAnswer } from "../jsonrpc/unusable.ts";
import type { ErrorObject } from "../errors.ts";
import { kindOf, readLines, type ReaderLimits } from "../transport/reader.ts";
import type { Transport } from "../transport/transport.ts";
import { fromValue, Inbound, readLine, type Id, type Read } from "./splice.ts";

export { Inbound, notificationLine, requestLine, withId, type Id } from "./splice.ts";

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
  /** Requests received on this hop that the conductor forwarded, by their id (a Map keeps `1` and `"1"` apart): where, and under which id, for `$/cancel_request`. */
  readonly forwarded: Map<Id, { readonly target: Hop; readonly id: Id }>;
  nextId: number;
  alive: boolean;
  /** Lines held back (while the MCP bridge starts, on the agent's hop); undefined when none. */
  held: string[] | undefined;
  /** How many held lines are not ready yet ({@link holdUntil}). */
  holding: number;
}

/**
 * Lines a router sends on a hop before it hands them to the stream at once
 * (`Transport.flush`) instead of at the end of the turn: the next process
 * starts on the first lines of a long chunk while this one routes the rest.
 */
export const FORWARD_BATCH = 16;

/** Writes lines to `transport`, flushing every {@link FORWARD_BATCH} of them. */
export function lineWriter(transport: Transport): (line: string) => void {
  let count = 0;
  return (line) => {
    transport.write(`${line}\n`);
    if (++count === FORWARD_BATCH) {
      count = 0;
      transport.flush?.();
    }
  };
}

/** A hop that writes its lines with `write` (without their newline). */
export function makeHop(index: number, name: string, write: (line: string) => void): Hop {
  const hop: Hop = {
    index,
    name,
    send: (line) => (hop.held !== undefined ? void hop.held.push(line) : write(line)),
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
 * `transport/reader.ts`, as lines): each line's head is read off it
 * (`splice.ts`); what is not a request, notification or response is
 * answered on the hop; the rest goes to `message`.
 */
export function readHop(hop: Hop, transport: Transport, limits: ReaderLimits, message: (from: Hop, m: Inbound) => void, onEnd: () => void): void {
  const deliver = (read: Read): void => {
    if (read instanceof Inbound) return message(hop, read);
    // Not a usable message: answered as everywhere (`jsonrpc/unusable.ts`); a response-shaped body that is not a response by no one.
    const answer = unusableAnswer(read.value, read.kind);
    if (answer !== undefined) answerError(hop, answer.id, answer.error);
  };
  readLines(
    transport,
    {
      line: (text) => deliver(readLine(text, limits.maxDepth, kindOf)),
      message: (value, line) => deliver(fromValue(value, kindOf, line)),
      oversized: () => {
        const answer = oversizedAnswer(limits.maxMessageBytes);
        answerError(hop, answer.id, answer.error);
      },
      end: onEnd,
    },
    limits,
  );
}
