/**
 * The mock agent's options and in-memory sessions, shared by its v1 and v2
 * handlers: what it advertises, the scenario turns it replays, and per
 * session the cwd, mode, config values, history and the running turn.
 */
import { RpcError } from "../../src/index.ts";
import { parseSteps, type Step } from "./steps.ts";
import type { JsonObject } from "./updates.ts";

/** The agent capabilities the mock agent may advertise; each one adds its methods. */
export interface Advertise {
  /** v1 `loadSession` (replays the session's updates). */
  readonly loadSession: boolean;
  /** v1 `sessionCapabilities.list` (v2 lists as baseline). */
  readonly list: boolean;
  /** v1 `sessionCapabilities.close` (v2 closes as baseline). */
  readonly close: boolean;
  /** v1 session modes (`modes` in `session/new`, `session/set_mode`); v2 has no modes. */
  readonly modes: boolean;
  /** Session config options (`configOptions` in `session/new`, `session/set_config_option`). */
  readonly configOptions: boolean;
}

/** Everything advertised: the default without `--script`, so every client feature has something to talk to. */
export const ADVERTISE_ALL: Advertise = { loadSession: true, list: true, close: true, modes: true, configOptions: true };

/** Options of both handlers. */
export interface MockOptions {
  readonly advertise: Advertise;
  /** Scenario turns: prompt N of a session runs `turns[N]`; later prompts are parsed from their text. */
  readonly turns: readonly (readonly Step[])[];
  /** Diagnostics (stderr). */
  readonly log: (message: string) => void;
}

export interface MockSession {
  readonly id: string;
  cwd: string;
  modeId: string;
  model: string;
  verbose: boolean;
  title: string | null;
  updatedAt: string;
  /** Every update sent for this session, the user's prompts included: replayed by v1 `session/load`. */
  readonly history: JsonObject[];
  /** Prompts run so far (indexes the scenario). */
  prompts: number;
  /** Aborts the running turn (`session/close`); undefined when idle. */
  turn: AbortController | undefined;
}

/** Creates a session store; ids are `mock-session-N`, deterministic per process. */
export function createSessions(): {
  create(cwd: string): MockSession;
  get(sessionId: string): MockSession;
  list(cwd: string | null | undefined): MockSession[];
  remove(sessionId: string): void;
} {
  const sessions = new Map<string, MockSession>();
  let next = 0;
  return {
    create(cwd) {
      const session: MockSession = { id: `mock-session-${++next}`, cwd, modeId: "ask", model: "mock-small", verbose: false, title: null, updatedAt: new Date(0).toISOString(), history: [], prompts: 0, turn: undefined };
      sessions.set(session.id, session);
      return session;
    },
    get(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw RpcError.resourceNotFound(`session:${sessionId}`);
      return session;
    },
    list: (cwd) => [...sessions.values()].filter((s) => cwd == null || s.cwd === cwd),
    remove: (sessionId) => void sessions.delete(sessionId),
  };
}

/** The steps of the session's next prompt: the scenario's turn while it lasts, else the prompt text parsed (an error names the line). */
export function stepsFor(options: MockOptions, session: MockSession, text: string): Step[] {
  const scripted = options.turns[session.prompts];
  session.prompts++;
  if (scripted !== undefined) return [...scripted];
  const parsed = parseSteps(text);
  if ("error" in parsed) {
    options.log(`prompt refused: line ${parsed.line}: ${parsed.error}`);
    const reason = `prompt line ${parsed.line}: ${parsed.error}`;
    throw new RpcError(-32602, reason, { reason, line: parsed.line });
  }
  return parsed.steps;
}

/** The prompt's text blocks joined; other blocks are named so an echo shows them. */
export function promptText(blocks: readonly { readonly type: string; readonly text?: string }[]): string {
  return blocks.map((b) => (b.type === "text" ? (b.text ?? "") : `[${b.type}]`)).join("");
}

/** Applies `session/set_config_option` to the session, or throws -32602 naming what is wrong. */
export function setConfig(session: MockSession, configId: string, value: unknown): void {
  if (configId === "model") {
    if (value !== "mock-small" && value !== "mock-large") throw RpcError.invalidParams({ configId, reason: "model is mock-small or mock-large" });
    session.model = value;
  } else if (configId === "verbose") {
    // A boolean for clients that advertised boolean options, else the select's "on" / "off".
    if (value === "on" || value === "off") session.verbose = value === "on";
    else if (typeof value !== "boolean") throw RpcError.invalidParams({ configId, reason: 'verbose is a boolean, or "on" / "off"' });
    else session.verbose = value;
  } else {
    throw RpcError.invalidParams({ configId, reason: "unknown config option; this agent has model and verbose" });
  }
}
