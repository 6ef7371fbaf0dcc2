import type { RequestId } from "../../src/context.ts";
/** The state the monitor's checkers share (monitor.ts owns it; requests.ts, answers.ts and turns.ts read and change it). */
import type { CallBook } from "./calls.ts";
import type { Sender, Violation } from "./rules.ts";
import type { Stats } from "./stats.ts";
import type { Table, Tables } from "./tables.ts";

/** What the monitor learnt from one message. */
export interface Observed {
  readonly index: number;
  readonly t: number;
  readonly from: Sender;
  /** `non_json` for a line that does not parse; `batch` for a JSON array. */
  readonly kind: "request" | "unidentified_request" | "notification" | "response" | "unknown" | "non_json" | "batch";
  readonly method: string | undefined;
  readonly id: unknown;
  /** For an answer: the method it answers, its latency, and its error code if it is an error. */
  readonly answers: { readonly method: string; readonly ms: number; readonly error: number | undefined } | undefined;
  /** The inner MCP message an `mcp/message` carries, described (tools/inspect/mcp.ts). */
  readonly mcp?: string | undefined;
  readonly violations: readonly Violation[];
}

/** Per-session state the rules need. */
export interface SessionState {
  /** Id of the session/prompt in flight (sent, not yet answered), if any. */
  prompt: RequestId | undefined;
  /** A turn has ended (v1: its answer; v2: its idle state_update) and no new one started. */
  turnEnded: boolean;
  lastTurnCancelled: boolean;
  /** session/load or session/resume requests in flight (their replay is not turn content). */
  loading: number;
  /** v2: prompts acknowledged and waiting for the idle state_update that ends their work, with the answer's `messageId`. */
  accepted: { readonly messageId: string | undefined; readonly call: string }[];
  /** v2: `messageId`s of the user_message / user_message_chunk updates seen since the session's work last ended. */
  readonly userMessages: Set<string>;
  /** v2: the client sent session/cancel while a prompt was in flight or its work running. */
  cancelRequested: boolean;
}

/** Connection-wide state read and changed by the checkers. */
export interface MonitorState {
  /** The tables this monitor judges with (built-in, or with a user's own in place: `inspect --table`). */
  readonly tables: Tables;
  table: Table;
  /** The version the agent answered, once initialize is answered. */
  negotiated: number | undefined;
  initialized: boolean;
  /** The params of the latest initialize request (its capabilities are read once the answer names the table). */
  initParams: unknown;
  clientCapabilities: unknown;
  agentCapabilities: unknown;
  authMethods: readonly unknown[];
  authenticated: boolean;
  readonly sessions: Map<string, SessionState>;
  /**
   * Updates for a session id no answer introduced yet, sent while a request
   * that opens a session (new, fork, load, resume) was pending: its answer may
   * still introduce the id (an ordering matter, noted). By session id: the
   * first such update's message; charged as ACP-SESSION-001 only if no answer
   * introduced the id by the end.
   */
  readonly earlyUpdates: Map<string, string>;
  /** Calls by the side that sent them. */
  readonly calls: { readonly client: CallBook; readonly agent: CallBook };
  readonly stats: Stats;
  /** Notes for the summary (a version without a table, a switch of table, oversized lines). */
  readonly notes: string[];
}
