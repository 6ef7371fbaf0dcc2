/**
 * What a supervised client (supervisor.ts) tells the app, through its
 * `onEvent` option: one event per exit, per restart, per session brought
 * back or lost, per watchdog decision, and the end. And the errors its calls
 * reject with when the agent is gone for good or a session did not come
 * back. No `node:` imports.
 */
import type { UnresponsiveEvent, WatchdogDecision } from "../connection/watchdog-options.ts";

/** How one session fared after a restart: resumed (`session/resume`), loaded (`session/load`, its history replayed to the handler marked as replay) or lost. */
export type SessionOutcome = "resumed" | "loaded" | "lost";

/** One thing that happened to a supervised agent. */
export type SupervisionEvent =
  /** The agent's connection ended without the app asking (an exit, a kill, a closed stream, the watchdog's kill). */
  | { readonly type: "exited"; readonly reason: string; readonly error: Error | undefined; readonly willRestart: boolean }
  /** The watchdog found the agent silent; `decision` is what the app chose (or the default). */
  | { readonly type: "unresponsive"; readonly event: UnresponsiveEvent; readonly decision: WatchdogDecision }
  /** A restart was granted: the agent starts again after `delayMs` (the backoff). `attempt` counts restarts from 1. */
  | { readonly type: "restarting"; readonly attempt: number; readonly delayMs: number }
  /** The new agent answered `initialize` with the app's own parameters (and `authenticate`, if the app had); its sessions come next. */
  | { readonly type: "restarted"; readonly attempt: number }
  /** A session open at the crash came back, or did not (`error` says why). */
  | { readonly type: "session"; readonly sessionId: string; readonly outcome: SessionOutcome; readonly error?: Error }
  /** Every open session was tried: calls go to the new agent from here on. */
  | { readonly type: "recovered"; readonly attempt: number }
  /** Past the restart limit: the supervisor gave up; `error` is what `closed` carries. */
  | { readonly type: "gave-up"; readonly error: RestartLimitError };

/** The agent ended more often than the restart policy allows: the supervisor gave up. Calls reject with it from then on. */
export class RestartLimitError extends Error {
  /** Restarts within the period when it gave up. */
  readonly restarts: number;
  /** The policy's `periodMs`. */
  readonly periodMs: number;
  constructor(restarts: number, periodMs: number, cause: Error | undefined) {
    super(`the agent ended again after ${restarts} restart${restarts === 1 ? "" : "s"} within ${periodMs} ms; not restarting it (restart intensity ${restarts}, period ${periodMs} ms)${cause ? `: ${cause.message}` : ""}`, cause === undefined ? undefined : { cause });
    this.name = "RestartLimitError";
    this.restarts = restarts;
    this.periodMs = periodMs;
  }
}

/** A call named a session that did not come back after a restart (the agent advertised neither `session/resume` nor `session/load`, or both failed). */
export class SessionLostError extends Error {
  readonly sessionId: string;
  constructor(sessionId: string, cause?: Error) {
    super(`session ${sessionId} was lost when the agent restarted${cause ? `: ${cause.message}` : " (the agent advertises neither session/resume nor session/load)"}`, cause === undefined ? undefined : { cause });
    this.name = "SessionLostError";
    this.sessionId = sessionId;
  }
}

/**
 * True when a handler call was made for a `session/load` replay after a
 * restart: the update is history the app has already shown, not news.
 *
 *   sessionUpdate(params, ctx) { if (isReplay(ctx)) return; render(params); }
 */
export function isReplay(ctx: unknown): boolean {
  return typeof ctx === "object" && ctx !== null && (ctx as { readonly replay?: unknown }).replay === true;
}
