/**
 * Where a client connection's `session/update`s go: each active session
 * (v1 `sessions.ts`, v2 `sessions-v2.ts`) routes its own, and updates that
 * arrive while a `session/new` answer is awaited are held for the session it
 * makes.
 */
type Json = Record<string, unknown>;

/**
 * Per connection: where each session's updates go, and which ACP version's sessions it makes.
 * While a `start()` waits for its `session/new` answer, updates for sessions nobody reads yet are
 * held, and the new session takes those of its id (an agent may send them right after, or even in
 * the same chunk as, the answer); nothing is held otherwise.
 */
export class SessionRoutes {
  /** The connection's ACP version: 2 makes v2 active sessions (sessions-v2.ts). */
  readonly version: number;
  readonly #routes = new Map<string, (notification: Json & { sessionId: string; update: Json }) => void>();
  /** `start()` calls waiting for their answer. */
  #starting = 0;
  /** Updates held while a `start()` waits, by session id. */
  readonly #early = new Map<string, (Json & { sessionId: string; update: Json })[]>();
  constructor(version = 1) {
    this.version = version;
  }
  /** Called for every inbound `session/update`. */
  deliver(params: unknown): void {
    const sessionId = (params as { sessionId?: unknown } | null)?.sessionId;
    if (typeof sessionId !== "string") return;
    const route = this.#routes.get(sessionId);
    if (route !== undefined) return route(params as Json & { sessionId: string; update: Json });
    if (this.#starting === 0) return;
    const held = this.#early.get(sessionId) ?? [];
    held.push(params as Json & { sessionId: string; update: Json });
    this.#early.set(sessionId, held);
  }
  /** Routes `sessionId`'s updates to `to` (the held ones first) until the returned function is called. */
  add(sessionId: string, to: (notification: Json & { sessionId: string; update: Json }) => void): () => void {
    this.#routes.set(sessionId, to);
    const held = this.#early.get(sessionId);
    this.#early.delete(sessionId);
    for (const notification of held ?? []) to(notification);
    return () => {
      if (this.#routes.get(sessionId) === to) this.#routes.delete(sessionId);
    };
  }
  /** A `start()` began waiting for its answer. @internal */
  startBegan(): void {
    this.#starting += 1;
  }
  /** A `start()` has its answer (and its session, when it got one); once none waits, nothing more is held. @internal */
  startEnded(): void {
    this.#starting -= 1;
    if (this.#starting === 0) this.#early.clear();
  }
}
