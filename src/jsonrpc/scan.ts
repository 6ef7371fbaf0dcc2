/**
 * A message's head read off its line without building it: the line is
 * checked to be one JSON object (the grammar of `JSON.parse`, with the depth
 * bound), and the places of its `id`, `method` and `params` are kept, so a
 * router can decide where the message goes and send its text on with the id
 * spliced, wrapped or unwrapped, never parsing it into objects or encoding
 * it again (the conductor and the proxy's pass-through path,
 * `src/proxy/splice.ts`).
 *
 * The kind is the one rule's (`classify.ts`): classify is run on a stand-in
 * holding the members it reads. {@link scanHead} gives up (undefined) on
 * anything it does not read the way `JSON.parse` would, and the caller parses
 * the line instead: a line that is not JSON or nests too deep, a value that
 * is not one object, a repeated member it reads (`JSON.parse` keeps the
 * last), a kind other than request, notification or response.
 */
import { classify, type MessageKind } from "./classify.ts";

/** The kinds a head is read for. */
export type HeadKind = Extract<MessageKind, "request" | "notification" | "response">;

/** Where a member's value lies in the line: `[at, end)`; `at` is -1 when the member is absent. */
export interface Span {
  readonly at: number;
  readonly end: number;
}

/** What {@link scanHead} reads off a line. */
export interface Head {
  readonly kind: HeadKind;
  /** The id (a request's or a response's), as `JSON.parse` gives it. */
  readonly id: string | number | undefined;
  /** The method of a request or notification. */
  readonly method: string | undefined;
  /** Where the id's, the method's and the params' values lie: `[…At, …End)`; `…At` is -1 when absent. */
  readonly idAt: number;
  readonly idEnd: number;
  readonly methodAt: number;
  readonly methodEnd: number;
  readonly paramsAt: number;
  readonly paramsEnd: number;
  /** Whether a response is an error answer (it has `error`, and no `result`: the one rule allows one of them). */
  readonly error: boolean;
  /** Whether the line has a backslash or a control character: later scans of it ({@link scanEnvelope}, {@link stringMember}) need not look again. */
  readonly escapes: boolean;
}

const NONE: Span = { at: -1, end: -1 };

/** Control characters (raw ones are not allowed in strings; outside them only whitespace is): a line with any is scanned one character at a time. */
const CONTROL = /[\u0000-\u001f]/;

/** Thrown (once per failed scan, never out of this module) when the line is not what the scan accepts. */
const FAIL = new Error("not scanned");

const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
const isDigit = (c: number) => c >= 48 && c <= 57;

/** Reads the head of `line` (see the module comment); undefined when the caller must parse it. */
export function scanHead(line: string, maxDepth: number): Head | undefined {
  return new Scan(line, maxDepth).readHead();
}

/**
 * The members `method` and `params` of the object at `[at, end)` of `line`
 * (an envelope's params, already checked by {@link scanHead}): their spans,
 * and the method's value; undefined when it is not an object or repeats one.
 */
export function scanEnvelope(line: string, at: number, escapes?: boolean): { method: unknown; methodSpan: Span; paramsSpan: Span } | undefined {
  return new Scan(line, Number.MAX_SAFE_INTEGER, escapes).guarded(
    () => undefined,
    (scan) => scan.readEnvelope(at),
  );
}

/**
 * The value of the string member `name` of the object at `at` of `line` (a
 * line {@link scanHead} took, e.g. its params), read without parsing the
 * object: the last such member, as `JSON.parse` keeps; undefined when the
 * object has none, or it is not a string.
 */
export function stringMember(line: string, at: number, name: string, escapes?: boolean): string | undefined {
  return new Scan(line, Number.MAX_SAFE_INTEGER, escapes).guarded(
    () => undefined,
    (scan) => scan.readMember(at, name),
  );
}

/** One scan of one line: the line, its depth bound, and whether it has escapes or control characters. */
class Scan {
  readonly text: string;
  readonly limit: number;
  /** Whether the line has a backslash or a control character anywhere: without, a string ends at the next quote. */
  readonly escapes: boolean;

  constructor(text: string, limit: number, escapes?: boolean) {
    this.text = text;
    this.limit = limit;
    this.escapes = escapes ?? (text.indexOf("\\") !== -1 || CONTROL.test(text));
  }

  /** `run(this)`, or `failed()` when the scan threw {@link FAIL}. */
  guarded<T>(failed: () => T, run: (scan: Scan) => T): T {
    try {
      return run(this);
    } catch (error) {
      if (error === FAIL) return failed();
      throw error;
    }
  }

  readMember(at: number, name: string): string | undefined {
    const text = this.text;
    let i = this.ws(at);
    if (text.charCodeAt(i) !== 123 /* { */) return undefined;
    let found: unknown;
    i = this.ws(i + 1);
    if (text.charCodeAt(i) === 125) return undefined;
    for (;;) {
      const keyEnd = this.skipString(i);
      const key = this.escapes ? this.keyOf(i, keyEnd) : keyEnd - i - 2 === name.length && text.startsWith(name, i + 1) ? name : "";
      i = this.ws(this.ws(keyEnd) + 1);
      const end = this.skipValue(i, 2);
      if (key === name) found = this.valueOf(i, end);
      i = this.ws(end);
      if (text.charCodeAt(i) === 125) break;
      i = this.ws(i + 1);
    }
    return typeof found === "string" ? found : undefined;
  }

  readEnvelope(at: number): { method: unknown; methodSpan: Span; paramsSpan: Span } | undefined {
    const text = this.text;
    let i = this.ws(at);
    if (text.charCodeAt(i) !== 123 /* { */) return undefined;
    let methodSpan = NONE;
    let paramsSpan = NONE;
    i = this.ws(i + 1);
    if (text.charCodeAt(i) !== 125 /* } */) {
      for (;;) {
        const keyEnd = this.skipString(i);
        const key = this.keyOf(i, keyEnd);
        i = this.ws(this.ws(keyEnd) + 1);
        const end = this.skipValue(i, 2);
        if (key === "method" || key === "params") {
          if ((key === "method" ? methodSpan : paramsSpan).at !== -1) return undefined;
          if (key === "method") methodSpan = { at: i, end };
          else paramsSpan = { at: i, end };
        }
        i = this.ws(end);
        if (text.charCodeAt(i) === 125) break;
        i = this.ws(i + 1);
      }
    }
    return { method: methodSpan.at === -1 ? undefined : this.valueOf(methodSpan.at, methodSpan.end), methodSpan, paramsSpan };
  }

  readHead(): Head | undefined {
    let idAt = -1;
    let idEnd = -1;
    let methodAt = -1;
    let methodEnd = -1;
    let paramsAt = -1;
    let paramsEnd = -1;
    let resultAt = -1;
    let errorAt = -1;
    let i: number;
    try {
      i = this.ws(0);
      if (this.text.charCodeAt(i) !== 123 /* { */ || this.limit < 1) return undefined;
      i = this.ws(i + 1);
      if (this.text.charCodeAt(i) !== 125 /* } */) {
        for (;;) {
          if (this.text.charCodeAt(i) !== 34 /* " */) return undefined;
          const keyEnd = this.skipString(i);
          const key = this.escapes ? this.keyOf(i, keyEnd) : this.known(i, keyEnd);
          i = this.ws(keyEnd);
          if (this.text.charCodeAt(i) !== 58 /* : */) return undefined;
          i = this.ws(i + 1);
          const end = this.skipValue(i, 2);
          switch (key) {
            case "id":
              if (idAt !== -1) return undefined;
              idAt = i;
              idEnd = end;
              break;
            case "method":
              if (methodAt !== -1) return undefined;
              methodAt = i;
              methodEnd = end;
              break;
            case "params":
              if (paramsAt !== -1) return undefined;
              paramsAt = i;
              paramsEnd = end;
              break;
            case "result":
              if (resultAt !== -1) return undefined;
              resultAt = i;
              break;
            case "error":
              if (errorAt !== -1) return undefined;
              errorAt = i;
              break;
          }
          i = this.ws(end);
          const c = this.text.charCodeAt(i);
          if (c === 125) break;
          if (c !== 44 /* , */) return undefined;
          i = this.ws(i + 1);
        }
      }
      if (this.ws(i + 1) !== this.text.length) return undefined;
    } catch (error) {
      if (error === FAIL) return undefined;
      throw error;
    }
    // The one classification rule, on a stand-in with the members it reads.
    const id = idAt === -1 ? undefined : this.valueOf(idAt, idEnd);
    const method = methodAt === -1 ? undefined : this.valueOf(methodAt, methodEnd);
    const stand: Record<string, unknown> = { id, method };
    if (resultAt !== -1) stand.result = true;
    if (errorAt !== -1) stand.error = true;
    const kind = classify(stand);
    if (kind !== "request" && kind !== "notification" && kind !== "response") return undefined;
    return { kind, id: id as string | number | undefined, method: method as string | undefined, idAt, idEnd, methodAt, methodEnd, paramsAt, paramsEnd, error: errorAt !== -1, escapes: this.escapes };
  }

  /**
   * The value of a scalar at `[at, end)` as `JSON.parse` gives it (a string
   * with this.escapes is decoded by it); for an object or array, a stand-in of
   * its type (classify only reads types).
   */
  valueOf(at: number, end: number): unknown {
    const c = this.text.charCodeAt(at);
    if (c === 34 /* " */) {
      const inner = this.text.slice(at + 1, end - 1);
      return inner.indexOf("\\") === -1 ? inner : (JSON.parse(this.text.slice(at, end)) as string);
    }
    if (c === 123) return {};
    if (c === 91) return [];
    if (c === 116 /* t */) return true;
    if (c === 102 /* f */) return false;
    if (c === 110 /* n */) return null;
    return Number(this.text.slice(at, end));
  }

  /** The key at `[at, end)` of a line without this.escapes when it is one {@link readHead} reads, else "". */
  known(at: number, end: number): string {
    switch (end - at) {
      case 4:
        return this.text.startsWith('"id"', at) ? "id" : "";
      case 7:
        return this.text.startsWith('"error"', at) ? "error" : "";
      case 8:
        return this.text.startsWith('"method"', at) ? "method" : this.text.startsWith('"params"', at) ? "params" : this.text.startsWith('"result"', at) ? "result" : "";
      default:
        return "";
    }
  }

  /** The key whose string spans `[at, end)`, decoded. */
  keyOf(at: number, end: number): string {
    const inner = this.text.slice(at + 1, end - 1);
    return inner.indexOf("\\") === -1 ? inner : (JSON.parse(this.text.slice(at, end)) as string);
  }

  /** The first index at or after `i` that is not JSON whitespace. */
  ws(i: number): number {
    for (;;) {
      const c = this.text.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return i;
      i++;
    }
  }

  /** The end of the value starting at `i` (whitespace skipped by the caller), at nesting `depth`; throws {@link FAIL}. */
  skipValue(i: number, depth: number): number {
    const c = this.text.charCodeAt(i);
    if (c === 34) return this.skipString(i);
    if (c === 123 || c === 91) {
      if (depth > this.limit) throw FAIL;
      return c === 123 ? this.skipObject(i, depth) : this.skipArray(i, depth);
    }
    if (c === 116) return this.literal(i, "true");
    if (c === 102) return this.literal(i, "false");
    if (c === 110) return this.literal(i, "null");
    return this.skipNumber(i);
  }

  literal(i: number, word: string): number {
    if (!this.text.startsWith(word, i)) throw FAIL;
    return i + word.length;
  }

  skipObject(i: number, depth: number): number {
    i = this.ws(i + 1);
    if (this.text.charCodeAt(i) === 125) return i + 1;
    for (;;) {
      if (this.text.charCodeAt(i) !== 34) throw FAIL;
      i = this.ws(this.skipString(i));
      if (this.text.charCodeAt(i) !== 58) throw FAIL;
      i = this.ws(this.skipValue(this.ws(i + 1), depth + 1));
      const c = this.text.charCodeAt(i);
      if (c === 125) return i + 1;
      if (c !== 44) throw FAIL;
      i = this.ws(i + 1);
    }
  }

  skipArray(i: number, depth: number): number {
    i = this.ws(i + 1);
    if (this.text.charCodeAt(i) === 93) return i + 1;
    for (;;) {
      i = this.ws(this.skipValue(i, depth + 1));
      const c = this.text.charCodeAt(i);
      if (c === 93) return i + 1;
      if (c !== 44) throw FAIL;
      i = this.ws(i + 1);
    }
  }

  /** The end of the string starting at `i` (its opening quote); throws on a control character, a bad escape or no closing quote. */
  skipString(i: number): number {
    if (this.text.charCodeAt(i) !== 34) throw FAIL;
    if (!this.escapes) {
      const close = this.text.indexOf('"', i + 1);
      if (close === -1) throw FAIL;
      return close + 1;
    }
    const n = this.text.length;
    for (i++; i < n; i++) {
      const c = this.text.charCodeAt(i);
      if (c === 34) return i + 1;
      if (c < 32) throw FAIL;
      if (c === 92) {
        const e = this.text.charCodeAt(++i);
        if (e === 117 /* u */) {
          for (let k = 1; k <= 4; k++) if (!isHex(this.text.charCodeAt(i + k))) throw FAIL;
          i += 4;
        } else if (e !== 34 && e !== 92 && e !== 47 && e !== 98 && e !== 102 && e !== 110 && e !== 114 && e !== 116) throw FAIL;
      }
    }
    throw FAIL;
  }

  /** The end of the number at `i`: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`. */
  skipNumber(i: number): number {
    if (this.text.charCodeAt(i) === 45 /* - */) i++;
    const first = this.text.charCodeAt(i);
    if (first === 48) i++;
    else if (first >= 49 && first <= 57) while (isDigit(this.text.charCodeAt(++i)));
    else throw FAIL;
    if (this.text.charCodeAt(i) === 46 /* . */) {
      if (!isDigit(this.text.charCodeAt(++i))) throw FAIL;
      while (isDigit(this.text.charCodeAt(++i)));
    }
    const e = this.text.charCodeAt(i);
    if (e === 101 || e === 69) {
      const s = this.text.charCodeAt(++i);
      if (s === 43 || s === 45) i++;
      if (!isDigit(this.text.charCodeAt(i))) throw FAIL;
      while (isDigit(this.text.charCodeAt(++i)));
    }
    return i;
  }
}
