/**
 * The example agent's sessions, kept in memory: working directory, mode,
 * title, the running turn, and the history of every update sent (what
 * `session/load` replays).
 */
import { randomUUID } from "node:crypto";
import { RpcError, type ClientPeer, type SessionInfo, type SessionMode, type SessionModeState, type SessionUpdate } from "../src/index.ts";

/** The two modes the example agent offers; `ask` is the default of a new session. */
export const MODES: readonly SessionMode[] = [
  { id: "ask", name: "Ask", description: "Answer questions without changing anything" },
  { id: "code", name: "Code", description: "Work on the code in the session's directory" },
];

export interface Session {
  readonly id: string;
  cwd: string;
  modeId: string;
  /** The first words of the first prompt, shown by `session/list`. */
  title: string | undefined;
  /** ISO 8601 time of the last activity. */
  updatedAt: string;
  /** Every update of this session, in order, user messages included: replayed by `session/load`. */
  readonly history: SessionUpdate[];
  /** False after `session/close` until a `session/load` opens it again. */
  open: boolean;
  /** Aborts the turn in flight (used by `session/close`); undefined when idle. */
  turn: AbortController | undefined;
}

export interface SessionStore {
  create(cwd: string): Session;
  /** The session, or `-32002` (resource not found). */
  get(sessionId: string): Session;
  /** The session if it is open, else `-32002`: prompts need an open session. */
  getOpen(sessionId: string): Session;
  /** Sessions in `cwd` (all when undefined), most recently updated first. */
  list(cwd: string | undefined): SessionInfo[];
}

/** Creates an empty in-memory store; nothing outlives the process. */
export function createSessionStore(): SessionStore {
  const sessions = new Map<string, Session>();
  const get = (sessionId: string): Session => {
    const session = sessions.get(sessionId);
    if (!session) throw RpcError.resourceNotFound(`session:${sessionId}`);
    return session;
  };
  return {
    create(cwd) {
      const session: Session = { id: randomUUID(), cwd, modeId: "ask", title: undefined, updatedAt: new Date().toISOString(), history: [], open: true, turn: undefined };
      sessions.set(session.id, session);
      return session;
    },
    get,
    getOpen(sessionId) {
      const session = get(sessionId);
      if (!session.open) throw RpcError.resourceNotFound(`session:${sessionId} (closed; load it to continue)`);
      return session;
    },
    list(cwd) {
      return [...sessions.values()]
        .filter((s) => cwd === undefined || s.cwd === cwd)
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
        .map((s) => ({ sessionId: s.id, cwd: s.cwd, title: s.title ?? null, updatedAt: s.updatedAt }));
    },
  };
}

/** The `modes` field of `session/new` and `session/load` answers. */
export function modeState(session: Session): SessionModeState {
  return { currentModeId: session.modeId, availableModes: [...MODES] };
}

/** Records `update` in the session's history, then sends it to the client as `session/update`. */
export async function send(client: ClientPeer, session: Session, update: SessionUpdate): Promise<void> {
  session.history.push(update);
  session.updatedAt = new Date().toISOString();
  await client.sessionUpdate({ sessionId: session.id, update });
}
