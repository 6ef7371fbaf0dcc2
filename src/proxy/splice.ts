/**
 * A message's text reused as it goes on: a router's message is its line and
 * its head (`jsonrpc/scan.ts`); it leaves as that line with its id spliced
 * in, or wrapped in the envelope or unwrapped from it with the params' own
 * text, never parsed and encoded again. Its body is parsed only when asked
 * for. A line the head reader does not take is parsed; when it is a message
 * after all, it goes on from its canonical encoding.
 */
import type { MessageKind } from "../jsonrpc/classify.ts";
import { ParseFailure, parseValue } from "../jsonrpc/parse.ts";
import { scanEnvelope, scanHead, type Head, type HeadKind, type Span } from "../jsonrpc/scan.ts";
import { sessionIdAt } from "../jsonrpc/session-id.ts";

export type Id = string | number;

/** A message read from a hop: its kind, id and method read off its line; its body parsed when asked for. */
export class Inbound {
  readonly line: string;
  readonly head: Head;
  private parsed: Record<string, unknown> | undefined;

  constructor(line: string, head: Head, body?: Record<string, unknown>) {
    this.line = line;
    this.head = head;
    this.parsed = body;
  }

  get kind(): HeadKind {
    return this.head.kind;
  }
  get id(): Id | undefined {
    return this.head.id;
  }
  /** The method of a request or notification. */
  get method(): string {
    return this.head.method as string;
  }
  /** The whole message, parsed once on first use. */
  get body(): Record<string, unknown> {
    return (this.parsed ??= JSON.parse(this.line) as Record<string, unknown>);
  }
  /** Its params, parsed (from their own text) on each use; undefined when absent. */
  params(): unknown {
    const { paramsAt, paramsEnd } = this.head;
    return this.parsed !== undefined ? this.parsed.params : paramsAt === -1 ? undefined : JSON.parse(this.line.slice(paramsAt, paramsEnd));
  }
}

/** What a line is to a router: a message it routes ({@link Inbound}), or what `parseValue` gave with its kind (a failure, a batch, another kind). */
export type Read = Inbound | { readonly value: unknown; readonly kind: MessageKind | undefined };

/**
 * Reads `line`: its head when the head reader takes it; else the line is
 * parsed (`maxDepth` bound) and, when it is a request, notification or
 * response after all, read from its canonical encoding.
 */
export function readLine(line: string, maxDepth: number, kindOf: (value: unknown) => MessageKind | undefined): Read {
  const head = scanHead(line, maxDepth);
  if (head !== undefined) return new Inbound(line, head);
  return fromValue(parseValue(line, maxDepth), kindOf);
}

/**
 * A parsed message (from a message-level transport, with the `line` it was
 * parsed from; or a line the head reader did not take) as {@link Read}:
 * its head read off `line` when it can be, else off its canonical encoding.
 */
export function fromValue(value: unknown, kindOf: (value: unknown) => MessageKind | undefined, line?: string): Read {
  const kind = value instanceof ParseFailure ? undefined : kindOf(value);
  if (kind !== "request" && kind !== "notification" && kind !== "response") return { value, kind };
  const body = value as Record<string, unknown>;
  const given = line === undefined ? undefined : scanHead(line, Number.MAX_SAFE_INTEGER);
  if (given !== undefined && given.kind === kind) return new Inbound(line as string, given, body);
  const canonical = JSON.stringify(kind === "response" ? ("error" in body && body.error !== undefined ? { jsonrpc: "2.0", id: body.id, error: body.error } : { jsonrpc: "2.0", id: body.id, result: body.result }) : { jsonrpc: "2.0", id: body.id, method: body.method, params: body.params });
  return new Inbound(canonical, scanHead(canonical, Number.MAX_SAFE_INTEGER) as Head, body);
}

const textOf = (line: string, span: Span): string | undefined => (span.at === -1 ? undefined : line.slice(span.at, span.end));
/** The text of `m`'s params; undefined when absent. */
const paramsTextOf = (m: Inbound): string | undefined => (m.head.paramsAt === -1 ? undefined : m.line.slice(m.head.paramsAt, m.head.paramsEnd));
const idText = (id: Id): string => (typeof id === "number" ? String(id) : JSON.stringify(id));

/** A request (with `id`) or notification line from the texts of its method and params (params left out when undefined or `null`). */
function messageLine(id: Id | undefined, methodText: string, paramsText: string | undefined): string {
  const params = paramsText === undefined || paramsText === "null" ? "" : `,"params":${paramsText}`;
  return id === undefined ? `{"jsonrpc":"2.0","method":${methodText}${params}}` : `{"jsonrpc":"2.0","id":${idText(id)},"method":${methodText}${params}}`;
}

/** `m`'s line with its id replaced by `id` (a notification's line as it is when `id` is undefined). */
export function withId(m: Inbound, id: Id | undefined): string {
  const { idAt, idEnd } = m.head;
  if (id === undefined || idAt === -1 || id === m.head.id) return m.line;
  return `${m.line.slice(0, idAt)}${idText(id)}${m.line.slice(idEnd)}`;
}

/** `m` as `method` (its own method renamed), under `id`: its params' text kept. */
export function renamedLine(id: Id | undefined, method: string, m: Inbound): string {
  return messageLine(id, JSON.stringify(method), paramsTextOf(m));
}

/** `m` wrapped in `envelope` under `id` (none for a notification): `{method, params}` with `m`'s own texts. */
export function wrappedLine(id: Id | undefined, envelope: string, m: Inbound): string {
  const { line, head } = m;
  const params = paramsTextOf(m);
  const method = line.slice(head.methodAt, head.methodEnd);
  return messageLine(id, JSON.stringify(envelope), params === undefined || params === "null" ? `{"method":${method}}` : `{"method":${method},"params":${params}}`);
}

/** What an envelope wraps: its method, and its params' text (undefined when absent or `null`). */
export interface Wrapped {
  readonly method: string;
  readonly paramsText: string | undefined;
}

/**
 * What the envelope `m` wraps, or why it wraps nothing usable (`wire`: the
 * envelope's method, for the message): its params must be an object with a
 * string `method`, and its `params`, when present and not `null`, an object
 * or an array.
 */
export function unwrap(m: Inbound, wire: string): Wrapped | string {
  const { line, head } = m;
  const at = head.paramsAt;
  if (at === -1 || line.charCodeAt(at) !== 123 /* { */) return `${wire} params must be an object with a method`;
  const scanned = scanEnvelope(line, at, head.escapes);
  // A repeated member (the last one counts): read from the parsed params instead.
  const inner = scanned ?? fromParsed(m.params() as Record<string, unknown>);
  if (typeof inner.method !== "string") return `${wire} needs the wrapped message's method (a string)`;
  const paramsText = "paramsText" in inner ? inner.paramsText : textOf(line, inner.paramsSpan);
  if (paramsText === undefined || paramsText === "null") return { method: inner.method, paramsText: undefined };
  const c = paramsText.charCodeAt(0);
  if (c !== 123 && c !== 91 /* [ */) return `${wire} params.params must be an object or an array`;
  return { method: inner.method, paramsText };
}

const fromParsed = (p: Record<string, unknown>): { method: unknown; paramsText: string | undefined } => ({ method: p.method, paramsText: p.params === undefined ? undefined : JSON.stringify(p.params) });

/** The message the envelope `m` wraps (see {@link unwrap}), as `method` under `id` (none for a notification). */
export function unwrappedLine(id: Id | undefined, method: string, inner: Wrapped): string {
  return messageLine(id, JSON.stringify(method), inner.paramsText);
}

/** A new envelope `envelope` around what the envelope `inner` came from wraps (its `_meta` stays on its own hop), under `id`. */
export function rewrappedLine(id: Id | undefined, envelope: string, inner: Wrapped): string {
  const method = JSON.stringify(inner.method);
  return messageLine(id, JSON.stringify(envelope), inner.paramsText === undefined ? `{"method":${method}}` : `{"method":${method},"params":${inner.paramsText}}`);
}

/**
 * How a forwarded message's text is made from the one it came as: `same`
 * (the id spliced), `rename` (the same params under another method), `wrap`
 * (in the envelope), `unwrap` (what the envelope wraps, `inner`), `rewrap`
 * (the envelope's own params in a new envelope).
 */
export type How = { readonly how: "same" | "rename" | "wrap" } | { readonly how: "unwrap"; readonly inner: Wrapped } | { readonly how: "rewrap"; readonly inner: Wrapped };

/** The session `m` belongs to: its params' `sessionId` when a string, read off its text (the parsed body when there is one). */
export function sessionOf(m: Inbound): string | undefined {
  return sessionIdAt(m.line, m.head.paramsAt, m.head.escapes);
}

/** The session of the message the envelope `m` wraps (see {@link unwrap}); undefined when it wraps none. */
export function sessionOfWrapped(m: Inbound): string | undefined {
  const inner = unwrap(m, "");
  return typeof inner === "string" || inner.paramsText === undefined ? undefined : sessionIdAt(inner.paramsText, 0);
}

/** The text `m` leaves as under `id` (none: a notification), as `method`, made as `how` says (`splice.ts`). */
export function lineOf(id: Id | undefined, method: string, m: Inbound, how: How): string {
  switch (how.how) {
    case "same":
      return withId(m, id);
    case "rename":
      return renamedLine(id, method, m);
    case "wrap":
      return wrappedLine(id, method, m);
    case "unwrap":
      return unwrappedLine(id, method, how.inner);
    case "rewrap":
      return rewrappedLine(id, method, how.inner);
  }
}

/** The params of what `m` becomes as `how` says: parsed from their text, for a hook that reads them. */
export function paramsOf(m: Inbound, how: How): unknown {
  if (how.how === "unwrap") return how.inner.paramsText === undefined ? undefined : JSON.parse(how.inner.paramsText);
  if (how.how === "wrap" || how.how === "rewrap") return JSON.parse(lineOf(undefined, "", m, how)).params;
  return m.params();
}

/** A request line the conductor or a proxy writes itself. */
export function requestLine(id: Id, method: string, params: unknown): string {
  return JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
}

/** A notification line the conductor or a proxy writes itself. */
export function notificationLine(method: string, params: unknown): string {
  return JSON.stringify(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
}
