/**
 * The relay: what a router that forwards JSON-RPC messages between links
 * keeps, and the only place it is kept. A link is one stream the router
 * speaks on (the conductor: its peer and each component; a proxy's
 * pass-through path: its one stream to the conductor). The relay owns, per
 * link, what the router forwarded on it and is owed an answer for, what
 * arrived on it and went on elsewhere (for that link's `$/cancel_request`),
 * its own ids, whether it still lives, and the lines held back on it; the
 * router reaches that state only through the functions below and never
 * holds a link's record itself.
 *
 * - {@link Relay.request}: a request that arrived on one link goes on to
 *   another (or the same: a proxy's stream carries both directions) under an
 *   id of the target's; its answer goes back under the id it came with.
 * - {@link Relay.call}: the router's own request; its answer goes to a callback.
 * - {@link Relay.answer}: an answer arrived; whom it is for.
 * - {@link Relay.cancel} / {@link Relay.cancelSession}: a `$/cancel_request`
 *   for one forwarded request, or a session's cancel for each one of it.
 * - {@link Relay.hold}: lines held back on a link until one is ready (the
 *   MCP bridge rewrites a request's params before it may go).
 * - {@link Relay.end}: the link is gone; everything owed on it is settled.
 *
 * Ids: a link's own ids come from its `ids` function (a counter by
 * default), so answers never meet an id the router did not give; a `Map`
 * keeps `1` and `"1"` apart.
 */
import type { Inbound } from "./splice.ts";

export type Id = string | number;

/** A stream the router speaks on: a token the relay keeps the state of. */
export interface Link {
  /** For messages: `the client`, `component 1 (…)`. */
  readonly name: string;
}

/** Why a request was forwarded, as the router wants it back with its answer. */
export interface Forwarded {
  /** The link it arrived on, and its id there; undefined for the router's own call. */
  readonly origin: Link | undefined;
  readonly originId: Id;
  /** The message as it arrived (its session is read off it only when a session is cancelled). */
  readonly message: Inbound | undefined;
  /** What the router marked it with when it sent it (a turn's cancelled result, a direction). */
  readonly mark: unknown;
  /** True once a cancel for it was sent on. */
  readonly cancelled: boolean;
}

/** Where the router's own request's answer goes. */
export type OwnAnswer = (body: Record<string, unknown>) => void;

/** An answer's destination: a forwarded request (its origin), or the router's own callback. */
export type Owed = Forwarded | OwnAnswer;

/** The relay of one router. */
export interface Relay {
  /** A new link writing its lines (without their newline) with `write`; `ids` makes its n-th own id (default: n). */
  link(name: string, write: (line: string) => void, ids?: (n: number) => Id): Link;
  /** Whether `link` still lives (not ended). */
  alive(link: Link): boolean;
  /**
   * Records that the request that arrived on `from` as `originId` goes on to `to`, and returns the
   * id it has there; the router then writes it under that id (`send`, or `hold` while its text is
   * not ready). `message` and `mark` come back with its answer. `keep`: it goes on under its own
   * id when no request the router sent on `to` waits under that id (its text and its answer's
   * then need no new id spliced in).
   */
  request(from: Link, originId: Id, to: Link, message?: Inbound, mark?: unknown, keep?: boolean): Id;
  /** The router's own request on `to` (`line` makes it under its id); `answer` gets its answer's body. */
  call(to: Link, line: (id: Id) => string, answer: OwnAnswer): Id;
  /** Writes `line` on `to` (held back while the link holds); false when the link is gone. */
  send(to: Link, line: string): boolean;
  /** The answer with `id` arrived on `from`: whom it is for (now settled: a function for the router's own call), or undefined for an id the router never gave or already settled. */
  answer(from: Link, id: Id): Owed | undefined;
  /**
   * A `$/cancel_request` arrived on `from` for its request `originId`: where that request went
   * (the link and its id there), marked cancelled; undefined when it was never forwarded or is
   * answered, or was cancelled already.
   */
  cancel(from: Link, originId: Id): { readonly to: Link; readonly id: Id } | undefined;
  /**
   * A session was cancelled: each request sent on `on` that `wanted` picks and whose session
   * (`sessionOf` reads it, only now) is `sessionId`, marked cancelled and handed to `each`.
   */
  cancelSession(on: Link, sessionId: string, wanted: (f: Forwarded) => boolean, sessionOf: (f: Forwarded) => string | undefined, each: (id: Id, f: Forwarded) => void): void;
  /** Holds what is sent on `to` from here until `line` is ready (and any other held line), then sends them all in order. */
  hold(to: Link, line: Promise<string>): void;
  /** `link` is gone: what it was owed is handed to `each` (then forgotten), and what arrived on it and went elsewhere is forgotten. */
  end(link: Link, each: (owed: Owed, id: Id) => void): void;
}

/** One link's state: never leaves this module. */
interface State {
  readonly write: (line: string) => void;
  readonly ids: (n: number) => Id;
  /** What the router sent on this link and is owed an answer for, by the id it went out with. */
  readonly sent: Map<Id, Owed>;
  /** What arrived on this link and went on, by its id here: where, under which id. */
  readonly received: Map<Id, { readonly to: Link; readonly id: Id }>;
  next: number;
  alive: boolean;
  /** Lines held back; undefined when none. */
  held: string[] | undefined;
  /** How many held lines are not ready yet. */
  holding: number;
}

interface MutableForwarded extends Forwarded {
  cancelled: boolean;
}

const counter = (n: number): Id => n;

/** A relay with no links yet. */
export function createRelay(): Relay {
  const states = new Map<Link, State>();
  const of = (link: Link): State => states.get(link) as State;
  /** A new id of the link's own, never one a request still waits under (a kept id may have taken it). */
  const nextId = (s: State): Id => {
    let id = s.ids(s.next++);
    while (s.sent.has(id)) id = s.ids(s.next++);
    return id;
  };
  const write = (s: State, line: string) => (s.held !== undefined ? void s.held.push(line) : s.write(line));
  const hold = (s: State, line: Promise<string>): void => {
    const held = s.held ?? [];
    s.held = held;
    const slot = held.push("") - 1;
    s.holding++;
    void line.then((text) => {
      held[slot] = text;
      if (--s.holding > 0 || s.held !== held) return;
      s.held = undefined;
      for (const l of held) write(s, l);
    });
  };

  return {
    link(name, writeLine, ids = counter) {
      const link: Link = { name };
      states.set(link, { write: writeLine, ids, sent: new Map(), received: new Map(), next: 0, alive: true, held: undefined, holding: 0 });
      return link;
    },
    alive: (link) => of(link).alive,
    request(from, originId, to, message, mark, keep) {
      const target = of(to);
      const id = keep === true && !target.sent.has(originId) ? originId : nextId(target);
      target.sent.set(id, { origin: from, originId, message, mark, cancelled: false });
      of(from).received.set(originId, { to, id });
      return id;
    },
    call(to, line, answer) {
      const target = of(to);
      const id = nextId(target);
      target.sent.set(id, answer);
      write(target, line(id));
      return id;
    },
    send(to, line) {
      const target = of(to);
      if (!target.alive) return false;
      write(target, line);
      return true;
    },
    answer(from, id) {
      const s = of(from);
      const owed = s.sent.get(id);
      if (owed === undefined) return undefined;
      s.sent.delete(id);
      if (typeof owed !== "function" && owed.origin !== undefined) of(owed.origin).received.delete(owed.originId);
      return owed;
    },
    cancel(from, originId) {
      const where = of(from).received.get(originId);
      if (where === undefined) return undefined;
      const entry = of(where.to).sent.get(where.id);
      if (entry === undefined || typeof entry === "function" || entry.cancelled) return undefined;
      (entry as MutableForwarded).cancelled = true;
      return where;
    },
    cancelSession(on, sessionId, wanted, sessionOf, each) {
      for (const [id, entry] of of(on).sent) {
        if (typeof entry === "function" || entry.cancelled || !wanted(entry) || sessionOf(entry) !== sessionId) continue;
        (entry as MutableForwarded).cancelled = true;
        each(id, entry);
      }
    },
    hold: (to, line) => hold(of(to), line),
    end(link, each) {
      const s = of(link);
      s.alive = false;
      const owed = [...s.sent];
      s.sent.clear();
      s.received.clear();
      for (const [id, entry] of owed) {
        if (typeof entry !== "function" && entry.origin !== undefined) of(entry.origin).received.delete(entry.originId);
        each(entry, id);
      }
    },
  };
}
