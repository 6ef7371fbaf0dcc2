/**
 * Brings the sessions open at a crash back on a restarted agent, each on
 * its own: `session/resume` where the agent advertises it (no replay), else
 * `session/load` where advertised (the agent replays the history; the
 * supervisor marks those updates as replay for the handler), else the
 * session is lost. A resume that fails falls back to a load when the agent
 * offers one. The methods are found in the protocol's own rows by their
 * callback names (`resumeSession`, `loadSession`) and their gates read with
 * the protocol's capability paths, so a v2 table works as v1 does. No
 * `node:` imports.
 */
import { hasCapability } from "../connection/gate.ts";
import type { Protocol } from "../protocol.ts";
import type { Row } from "../row.ts";
import type { SessionOutcome } from "./events.ts";

/** A session as the app opened it: the params of the request that opened it, with the id it got. */
export interface OpenSession {
  readonly sessionId: string;
  /** The opening request's params (`cwd`, `mcpServers`, …), reused for `session/resume` / `session/load`. */
  readonly params: Readonly<Record<string, unknown>>;
}

/** What the recovery needs of the new connection. */
export interface RecoveryHost {
  /** The agent's capabilities from the new `initialize`. */
  readonly agentCapabilities: unknown;
  /** Sends a request on the new connection. */
  request(wire: string, params: unknown): Promise<unknown>;
  /** The `session/load` of `sessionId` starts (true) or ended (false): its updates are replay. */
  replaying(sessionId: string, on: boolean): void;
}

/** How one session fared. */
export interface Recovered {
  readonly sessionId: string;
  readonly outcome: SessionOutcome;
  readonly error?: Error;
}

/** The agent's row named `callback`, if the table has it. */
function rowOf(protocol: Protocol, callback: string): Row<never, never> | undefined {
  return protocol.rows.agent.find((r) => r.callback === callback && r.kind === "request");
}

/** True when `row` exists and the agent advertised its capability (or it has none). */
function offered(row: Row<never, never> | undefined, capabilities: unknown): row is Row<never, never> {
  return row !== undefined && (row.capability === undefined || hasCapability(capabilities, row.capability));
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Recovers `session` on the new agent: resume, else load, else lost. Never rejects. */
export async function recoverSession(protocol: Protocol, host: RecoveryHost, session: OpenSession): Promise<Recovered> {
  const params = { ...session.params, sessionId: session.sessionId };
  const resume = rowOf(protocol, "resumeSession");
  const load = rowOf(protocol, "loadSession");
  let failure: Error | undefined;
  if (offered(resume, host.agentCapabilities)) {
    try {
      await host.request(resume.wire, params);
      return { sessionId: session.sessionId, outcome: "resumed" };
    } catch (error) {
      failure = asError(error);
    }
  }
  if (offered(load, host.agentCapabilities)) {
    host.replaying(session.sessionId, true);
    try {
      await host.request(load.wire, params);
      return { sessionId: session.sessionId, outcome: "loaded" };
    } catch (error) {
      failure = asError(error);
    } finally {
      host.replaying(session.sessionId, false);
    }
  }
  return failure === undefined ? { sessionId: session.sessionId, outcome: "lost" } : { sessionId: session.sessionId, outcome: "lost", error: failure };
}
