/**
 * One hop of a chain, as the conductor keeps it: the line framing of its
 * stream, its ids (the conductor's own requests on it, and what it forwarded
 * for requests received on it), and the answers the conductor gives on it
 * itself (`-32700`, `-32600`). Messages leave as text: a message that goes on
 * unchanged but for its id leaves as the line it came in with, the id
 * spliced in, never parsed into a new object and encoded again.
 */
import { classify, type MessageKind } from "../jsonrpc/classify.ts";
import { parseValue, ParseFailure } from "../jsonrpc/parse.ts";
import { wireError, type ErrorObject } from "../errors.ts";
import { createFramer } from "../transport/framer.ts";
import type { Transport } from "../transport/transport.ts";

export type Id = string | number;

/** A message read from a hop: its parsed body, its kind (classified once) and the line it came as. */
export interface Inbound {
  readonly body: Record<string, unknown>;
  readonly kind: MessageKind;
  readonly line: string;
}

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
 * Reads `transport` as `hop`'s stream: lines parsed once and classified; what
 * is not a JSON-RPC message is answered on the hop; the rest goes to `message`.
 */
export function readHop(hop: Hop, transport: Transport, maxBytes: number, message: (from: Hop, m: Inbound) => void, onEnd: () => void): void {
  const framer = createFramer(
    {
      line(text, shallow) {
        const value = parseValue(text, undefined, shallow);
        if (value instanceof ParseFailure) return answerError(hop, null, wireError.parse(value.reason));
        if (Array.isArray(value)) return answerError(hop, null, wireError.batchRejected(value.length === 0));
        if (typeof value !== "object" || value === null) return answerError(hop, null, wireError.notJsonRpc());
        message(hop, { body: value as Record<string, unknown>, kind: classify(value), line: text });
      },
      oversized: () => answerError(hop, null, wireError.lineTooLong(maxBytes)),
    },
    maxBytes,
  );
  transport.start({ data: (chunk) => framer.push(chunk), end: () => (framer.end(), onEnd()) });
}

const HEAD = '{"jsonrpc":"2.0",';
const ID_HEAD = '{"jsonrpc":"2.0","id":';

/**
 * `m`'s line with its id replaced by `id`, when the line starts as this
 * library and the SDKs write a message (`{"jsonrpc":"2.0","id":…,`) and names
 * no other `"id"` after it (a repeated key would win over the spliced one);
 * undefined otherwise (the caller encodes the message anew).
 */
export function splicedId(m: Inbound, id: Id): string | undefined {
  const { line } = m;
  if (!line.startsWith(ID_HEAD)) return undefined;
  const old = JSON.stringify(m.body.id);
  const after = ID_HEAD.length + old.length;
  if (!line.startsWith(old, ID_HEAD.length) || line.charCodeAt(after) !== 44 /* , */ || line.indexOf('"id"', after) !== -1) return undefined;
  return `${ID_HEAD}${JSON.stringify(id)}${line.slice(after)}`;
}

/** A request's line: `m`'s own with the id spliced when its method and params go on unchanged, else encoded. */
export function requestLine(id: Id, method: string, params: unknown, same?: Inbound): string {
  return (same && splicedId(same, id)) ?? JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
}

/** A notification's line: `m`'s own when its method and params go on unchanged (and it says `"jsonrpc":"2.0"` first), else encoded. */
export function notificationLine(method: string, params: unknown, same?: Inbound): string {
  if (same !== undefined && same.line.startsWith(HEAD)) return same.line;
  return JSON.stringify(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
}

/** An answer's line under `id`: the answer's own line with the id spliced, else its result or error encoded. */
export function answerLine(id: Id, answer: Inbound): string {
  return splicedId(answer, id) ?? JSON.stringify("error" in answer.body ? { jsonrpc: "2.0", id, error: answer.body.error } : { jsonrpc: "2.0", id, result: answer.body.result });
}
