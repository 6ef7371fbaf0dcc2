/**
 * The turns of `check --client`, one client run each: `handshake` (one
 * message chunk), `updates` (every update kind of the v1 schema, then an
 * unknown kind, a `_meta`-laden update, an update for an unknown session and
 * a 1 MiB chunk, each followed by a liveness wait), `permission` (a
 * permission request, then fs and terminal requests when advertised) and
 * `cancel` (a running tool call and a pending permission request, then
 * SIGINT to the client's process group, as Ctrl-C in a terminal sends it);
 * the last two are in permission.ts. Each turn scores its rows on the
 * scorecard as it goes.
 */
import { metaLadenUpdate, unknownKind, unknownUpdate, updateSamples } from "../mock-agent/updates.ts";
import { fail, notRun, pass, type Scorecard } from "../check/score.ts";
import type { TurnStart } from "./agent.ts";
import type { Peer } from "./peer.ts";

/** How long the client must stay connected after a probe update to count as having tolerated it, in ms. Default 300: a receiver that chokes on a message does so as it parses it. */
export const LIVENESS_MS = 300;
/** The size of the large message's text, in bytes: 1 MiB, far beyond any chunk a model streams, well under the framer's 32 MiB limit. */
export const LARGE_BYTES = 1024 * 1024;

export type ScenarioName = "handshake" | "updates" | "permission" | "cancel";
export const SCENARIOS: readonly ScenarioName[] = ["handshake", "updates", "permission", "cancel"];

/** Facts a later run depends on. */
export interface Shared {
  /** The permission run got an answer with an outcome: the cancel run may leave one pending. */
  permissionAnswered?: boolean;
}

export interface TurnContext {
  readonly peer: Peer;
  readonly card: Scorecard;
  readonly timeoutMs: number;
  /** The client's working directory, a fresh folder of check's: fs probes write only there. */
  readonly scratch: string;
  readonly shared: Shared;
  /** SIGINT to the client's process group. */
  interrupt(): void;
  /** Why the client is gone ("exited (code 1)", "closed the agent's stdin"), or undefined while it is connected. */
  gone(): string | undefined;
}

export const update = (ctx: TurnContext, sessionId: string, u: unknown) => ctx.peer.notify("session/update", { sessionId, update: u });
const truthyAt = (root: unknown, path: readonly string[]) => path.reduce<unknown>((v, k) => (typeof v === "object" && v !== null ? (v as Record<string, unknown>)[k] : undefined), root) === true;

/** Waits {@link LIVENESS_MS}; undefined when the client is still there, else why it is gone. */
export async function survived(ctx: TurnContext): Promise<string | undefined> {
  await ctx.peer.pause(LIVENESS_MS);
  return ctx.gone();
}

export async function handshakeTurn(ctx: TurnContext, start: TurnStart): Promise<"end_turn"> {
  update(ctx, start.sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hello from acp-router check --client." } });
  return "end_turn";
}

export async function updatesTurn(ctx: TurnContext, start: TurnStart): Promise<"end_turn"> {
  const samples = updateSamples(1).filter((s) => s.requires === undefined || truthyAt(start.capabilities, s.requires));
  const steps: { id: string; what: string; send: () => void }[] = [
    { id: "ACP-PROMPT-105", what: `the ${samples.length} sample updates of every v1 kind`, send: () => samples.forEach((s) => update(ctx, start.sessionId, s.update)) },
    { id: "ACP-EXT-104", what: `an update of unknown kind "${unknownKind}"`, send: () => update(ctx, start.sessionId, unknownUpdate()) },
    { id: "ACP-META-102", what: "an agent_message_chunk carrying _meta", send: () => update(ctx, start.sessionId, metaLadenUpdate(1)) },
    { id: "ACP-SESSION-108", what: "an update for an unknown session", send: () => update(ctx, "check-unknown-session", { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "For a session you never opened." } }) },
    { id: "ACP-TRANSPORT-106", what: `a ${LARGE_BYTES}-byte agent_message_chunk`, send: () => update(ctx, start.sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x".repeat(LARGE_BYTES) } }) },
  ];
  let goneAfter: string | undefined;
  for (const step of steps) {
    if (goneAfter !== undefined) {
      ctx.card.score(step.id, notRun(goneAfter));
      continue;
    }
    step.send();
    const why = await survived(ctx);
    if (why === undefined) ctx.card.score(step.id, pass);
    else {
      ctx.card.score(step.id, fail(`the client ${why} within ${LIVENESS_MS} ms of ${step.what}`));
      goneAfter = `the client ${why} after ${step.what}`;
    }
  }
  return "end_turn";
}
