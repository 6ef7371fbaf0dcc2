/**
 * A message's text reused as it goes on: the line it came as, with only its
 * id spliced, wrapped in the envelope or unwrapped from it, never parsed
 * into a new object and encoded again. Each splice applies only to a line
 * laid out as this library and the SDKs write one; any other is encoded anew.
 */
import type { MessageKind } from "../jsonrpc/classify.ts";

export type Id = string | number;

/** A message read from a hop: its parsed body, its kind (classified once) and the line it came as. */
export interface Inbound {
  readonly body: Record<string, unknown>;
  readonly kind: MessageKind;
  readonly line: string;
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

/**
 * Where a message being sent comes from, when its text can be reused: the
 * message `m` itself going on (`same`: its method and params unchanged),
 * `m` wrapped in the envelope being sent (`wrap`), or what `m`, an envelope,
 * wraps (`unwrap`).
 */
export interface Splice {
  readonly m: Inbound;
  readonly how: "same" | "wrap" | "unwrap";
}

/** How `m`'s text goes on as `method`: itself when `same`, else wrapped in `envelope` or unwrapped from it; undefined for an envelope going on as an envelope (encoded anew). */
export function spliceOf(m: Inbound, method: string, same: boolean, envelope: string): Splice | undefined {
  if (same) return { m, how: "same" };
  const wrapped = m.body.method === envelope;
  if (wrapped === (method === envelope)) return undefined;
  return { m, how: wrapped ? "unwrap" : "wrap" };
}

/** The line `from` gives for `method` under `id` (none: a notification), or undefined when its text cannot be reused. */
function splicedLine(id: Id | undefined, method: string, from: Inbound | Splice): string | undefined {
  if (!("how" in from)) return splicedLine(id, method, { m: from, how: "same" });
  if (from.how === "wrap") return wrappedLine(id, method, from.m);
  if (from.how === "unwrap") return unwrappedLine(id, method, from.m);
  if (id !== undefined) return splicedId(from.m, id);
  return from.m.line.startsWith(HEAD) ? from.m.line : undefined;
}

/** A request's line: spliced from `from`'s text when it can be (see {@link Splice}; a message alone: `same`), else encoded. */
export function requestLine(id: Id, method: string, params: unknown, from?: Inbound | Splice): string {
  return (from && splicedLine(id, method, from)) ?? JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
}

/** A notification's line: spliced from `from`'s text when it can be (see {@link Splice}; a message alone: `same`), else encoded. */
export function notificationLine(method: string, params: unknown, from?: Inbound | Splice): string {
  return (from && splicedLine(undefined, method, from)) ?? JSON.stringify(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
}

/** An answer's line under `id`: the answer's own line with the id spliced, else its result or error encoded. */
export function answerLine(id: Id, answer: Inbound): string {
  return splicedId(answer, id) ?? JSON.stringify("error" in answer.body ? { jsonrpc: "2.0", id, error: answer.body.error } : { jsonrpc: "2.0", id, result: answer.body.result });
}

/** The keys a message's own text may not repeat after the part a splice reads (a repeated key would win over it). */
const KEYS = ['"jsonrpc"', '"id"', '"method"', '"params"'];

/** `line` minus `head` and its last `tail` characters, when it has exactly that head and tail and repeats none of {@link KEYS} after the head. */
function between(line: string, head: string, tail: string): string | undefined {
  if (!line.startsWith(head) || !line.endsWith(tail)) return undefined;
  for (const key of KEYS) if (line.indexOf(key, head.length) !== -1) return undefined;
  return line.slice(head.length, line.length - tail.length);
}

const keyCount = (o: object): number => {
  let n = 0;
  for (const _ in o) n++;
  return n;
};

/** How a request or notification starts, up to its params: `{"jsonrpc":"2.0",["id":…,]"method":…,"params":`. */
const headOf = (id: Id | undefined, method: string): string => `${id === undefined ? HEAD : `${ID_HEAD}${JSON.stringify(id)},`}"method":${JSON.stringify(method)},"params":`;

/**
 * `m` (a request or notification with params) wrapped in `envelope` under
 * `id` (none for a notification), its params' own text spliced in: when the
 * line is laid out as this library and the SDKs write it (the four members in
 * order, nothing after params) and repeats none of them; undefined otherwise
 * (the caller encodes).
 */
export function wrappedLine(id: Id | undefined, envelope: string, m: Inbound): string | undefined {
  const { body } = m;
  if (typeof body.params !== "object" || body.params === null || keyCount(body) !== (body.id === undefined ? 3 : 4)) return undefined;
  const params = between(m.line, headOf(body.id as Id | undefined, body.method as string), "}");
  return params === undefined ? undefined : `${headOf(id, envelope)}{"method":${JSON.stringify(body.method)},"params":${params}}}`;
}

/**
 * The message `m` (an envelope, `{method, params}` and nothing else in its
 * params) wraps, under `id` (none for a notification) when it goes on as
 * the `method` it names, its params' own text
 * spliced in; undefined when the line is not laid out so (see {@link wrappedLine}).
 */
export function unwrappedLine(id: Id | undefined, method: string, m: Inbound): string | undefined {
  const { body } = m;
  const envelope = body.params as { method?: unknown; params?: unknown } | undefined;
  if (typeof envelope?.params !== "object" || envelope.params === null || envelope.method !== method || keyCount(envelope) !== 2) return undefined;
  if (keyCount(body) !== (body.id === undefined ? 3 : 4)) return undefined;
  const params = between(m.line, `${headOf(body.id as Id | undefined, body.method as string)}{"method":${JSON.stringify(envelope.method)},"params":`, "}}");
  return params === undefined ? undefined : `${headOf(id, envelope.method)}${params}}`;
}
