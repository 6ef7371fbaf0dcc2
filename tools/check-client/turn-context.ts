/**
 * What a turn of `check --client` works with (scenarios.ts, permission.ts,
 * ids.ts): the peer that is the client's agent, the scorecard, the run's
 * limits and folder, the negotiated version, and the facts one run leaves for
 * the next.
 */
import type { Scorecard } from "../check/score.ts";
import type { Peer } from "./peer.ts";

/** Facts a later run depends on. */
export interface Shared {
  /** The permission run got an answer with an outcome: the cancel run may leave one pending. */
  permissionAnswered?: boolean;
}

/** One turn's context: what the client's run gives each scenario. */
export interface TurnContext {
  readonly peer: Peer;
  readonly card: Scorecard;
  readonly timeoutMs: number;
  /** The run's fresh folder (what `{cwd}` stands for): fs probes write there when the session's cwd is unusable. */
  readonly scratch: string;
  /** The session's protocol version, once the client's initialize was answered (1 before). */
  readonly version: 1 | 2;
  readonly shared: Shared;
  /** `--strict-ids`: judge ids beyond ±(2^53−1) on ACP-JSONRPC-001 too (ids.ts). */
  readonly strictIds: boolean;
  /** SIGINT to the client's process group. */
  interrupt(): void;
  /** Why the client is gone ("exited (code 1)", "closed the agent's stdin"), or undefined while it is connected. */
  gone(): string | undefined;
}
