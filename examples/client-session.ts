/**
 * One open session seen from the example client: sends prompts, mode and
 * config changes, close and load, and writes each to the transcript with its
 * outcome. The tour and the interactive loop are written against this.
 */
import type { ClientConnection, SessionConfigOption, SessionNotification, StopReason } from "../src/index.ts";
import type { Transcript } from "./transcript.ts";

export interface PromptOptions {
  /** Send `session/cancel` this many milliseconds after the prompt went out. */
  readonly cancelAfterMs?: number;
  /** Send `session/cancel` when this signal aborts (e.g. Ctrl-C). */
  readonly cancelSignal?: AbortSignal;
  /** Write the prompt to the transcript. Default true; false when the person just typed it. */
  readonly echo?: boolean;
}

export interface ClientSession {
  readonly conn: ClientConnection;
  readonly sessionId: string;
  readonly cwd: string;
  readonly transcript: Transcript;
  /** The stop reason of every prompt sent so far, in order. */
  readonly stopReasons: readonly StopReason[];
  /** Sends a text prompt; resolves with its stop reason once the turn is over. */
  prompt(text: string, options?: PromptOptions): Promise<StopReason>;
  /** Sends `session/cancel` for this session. */
  cancel(): Promise<void>;
  /** Sends `session/set_mode`. */
  setMode(modeId: string): Promise<void>;
  /** Sends `session/set_config_option`; resolves with the options the agent answered. */
  setConfigOption(configId: string, value: string | boolean): Promise<readonly SessionConfigOption[]>;
  /** Sends `session/close`. */
  close(): Promise<void>;
  /** Sends `session/load`; resolves with how many updates the agent replayed (counted, not printed). */
  load(): Promise<number>;
  /** Shows an update for this session, or counts it while a load replays the history. */
  receive(notification: SessionNotification): void;
}

export function createClientSession(conn: ClientConnection, sessionId: string, cwd: string, transcript: Transcript): ClientSession {
  const stopReasons: StopReason[] = [];
  const cancel = () => conn.agent.cancel({ sessionId });
  // Counts replayed updates while a session/load is in flight.
  let replayed: number | undefined;
  return {
    conn,
    sessionId,
    cwd,
    transcript,
    stopReasons,
    cancel,
    async prompt(text, options = {}) {
      const { cancelAfterMs, cancelSignal, echo = true } = options;
      if (echo) transcript.user(text);
      const sendCancel = (why: string) => {
        transcript.note(`  (${why}: sending session/cancel)`);
        void cancel().catch(() => {});
      };
      const timer = cancelAfterMs === undefined ? undefined : setTimeout(() => sendCancel(`${cancelAfterMs} ms passed`), cancelAfterMs);
      const onAbort = () => sendCancel("interrupted");
      cancelSignal?.addEventListener("abort", onAbort, { once: true });
      try {
        const { stopReason } = await conn.agent.prompt({ sessionId, prompt: [{ type: "text", text }] });
        transcript.stop(stopReason);
        stopReasons.push(stopReason);
        return stopReason;
      } finally {
        clearTimeout(timer);
        cancelSignal?.removeEventListener("abort", onAbort);
      }
    },
    async setMode(modeId) {
      transcript.user(`/mode ${modeId}`);
      await conn.agent.setSessionMode({ sessionId, modeId });
    },
    async setConfigOption(configId, value) {
      transcript.user(`/config ${configId} ${String(value)}`);
      const params = typeof value === "boolean" ? { sessionId, configId, type: "boolean" as const, value } : { sessionId, configId, value };
      const { configOptions } = await conn.agent.setSessionConfigOption(params);
      return configOptions;
    },
    async close() {
      transcript.user("/close");
      await conn.agent.closeSession({ sessionId });
    },
    async load() {
      transcript.user("/load");
      replayed = 0;
      try {
        // The answer resolves after every update the agent sent before it was delivered.
        await conn.agent.loadSession({ sessionId, cwd, mcpServers: [] });
        return replayed;
      } finally {
        replayed = undefined;
      }
    },
    receive(notification) {
      if (replayed === undefined) transcript.update(notification);
      else replayed++;
    },
  };
}
