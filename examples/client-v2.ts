/**
 * The example client in ACP protocol version 2 (`acp-router/v2`): its
 * handler, and the v2 tour `client.ts` runs when the agent speaks v2. A v2
 * prompt is answered with an acknowledgement (the inserted message's id);
 * the turn ends when the agent reports the session `idle` in a
 * `state_update`, whose stop reason the transcript shows.
 */
import { RpcError, type ClientConnection, type ClientHandler, type SessionUpdate, type UpdateSessionNotification } from "../src/v2/index.ts";
import type { PlanEntry, SessionNotification } from "../src/index.ts";
import { TOUR_CANCEL_AFTER_MS, type TourReport } from "./tour.ts";
import { planText, type Transcript } from "./transcript.ts";

/** Stop reasons as the idle `state_update` reports them (`unknown` when it gave none). */
export type StopReasonV2 = string;

/** A v2 client handler printing to `transcript`, and a way to wait for a session to go idle. */
export interface V2Client {
  readonly handler: ClientHandler;
  /** Resolves with the stop reason of the next idle `state_update` of `sessionId`. */
  nextIdle(sessionId: string): Promise<StopReasonV2>;
}

/** Creates the v2 handler: updates go to the transcript; permission requests get the first option of the `allow` or `reject` policy, or `cancelled`. */
export function createV2Client(transcript: Transcript, permission: "allow" | "reject" | "cancel" = "allow"): V2Client {
  const waiting = new Map<string, (reason: StopReasonV2) => void>();
  return {
    handler: {
      requestPermission(params) {
        const wanted = permission === "allow" ? ["allow_once", "allow_always"] : permission === "reject" ? ["reject_once", "reject_always"] : [];
        const option = params.options.find((o) => wanted.includes(o.kind));
        transcript.note(`  ? permission for "${params.title}": ${params.options.map((o) => o.optionId).join(" | ")} -> ${option?.optionId ?? "cancelled"} (policy ${permission})`);
        return { outcome: option ? { outcome: "selected", optionId: option.optionId } : { outcome: "cancelled" } };
      },
      sessionUpdate(params) {
        show(transcript, params);
        const { update } = params;
        if (update.sessionUpdate === "state_update" && update.state === "idle") {
          const resolve = waiting.get(params.sessionId);
          waiting.delete(params.sessionId);
          resolve?.(typeof update.stopReason === "string" ? update.stopReason : "unknown");
        }
      },
    },
    nextIdle: (sessionId) => new Promise((resolve) => waiting.set(sessionId, resolve)),
  };
}

/** Writes one v2 update: text chunks stream, plans and stops get a line, the agent's echo of the prompt (already shown as `> text`) none, other kinds are named. */
function show(transcript: Transcript, params: UpdateSessionNotification): void {
  const update: SessionUpdate = params.update;
  if (update.sessionUpdate === "user_message" || update.sessionUpdate === "user_message_chunk") return;
  if (update.sessionUpdate === "agent_message_chunk") transcript.update({ sessionId: params.sessionId, update: { sessionUpdate: "agent_message_chunk", content: update.content } } as SessionNotification);
  else if (update.sessionUpdate === "plan_update") {
    const plan = (update as { plan?: { entries?: unknown } }).plan;
    if (Array.isArray(plan?.entries)) transcript.note(`  plan: ${planText(plan.entries as PlanEntry[])}`);
  } else if (update.sessionUpdate === "state_update") {
    if (update.state === "idle") transcript.stop((typeof update.stopReason === "string" ? update.stopReason : "unknown") as never);
  } else transcript.note(`  (${update.sessionUpdate})`);
}

/** Sends one prompt and waits for its turn to end; `cancelAfterMs` sends `session/cancel` that long after the acknowledgement. */
export async function promptV2(conn: ClientConnection, client: V2Client, sessionId: string, text: string, transcript: Transcript, cancelAfterMs?: number): Promise<StopReasonV2> {
  transcript.user(text);
  const idle = client.nextIdle(sessionId);
  const { messageId } = await conn.agent.prompt({ sessionId, prompt: [{ type: "text", text }] });
  transcript.note(`  (acknowledged: message ${messageId})`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (cancelAfterMs !== undefined) {
    timer = setTimeout(() => {
      transcript.note("  (sending session/cancel)");
      void conn.agent.cancel({ sessionId });
    }, cancelAfterMs);
  }
  try {
    return await idle;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The v2 tour: streaming, a plan, a slow prompt cancelled after
 * {@link TOUR_CANCEL_AFTER_MS}, listing the sessions and closing this one. A
 * step answered with an error is reported and the tour goes on.
 */
export async function runTourV2(conn: ClientConnection, client: V2Client, sessionId: string, cwd: string, transcript: Transcript): Promise<TourReport & { readonly stopReasons: readonly StopReasonV2[] }> {
  const stopReasons: StopReasonV2[] = [];
  const prompt = async (text: string, cancelAfterMs?: number) => void stopReasons.push(await promptV2(conn, client, sessionId, text, transcript, cancelAfterMs));
  const steps: [string, () => Promise<void>][] = [
    ["A first prompt: a greeting, its answer streamed until the session is idle", () => prompt("hello from the acp-router tour")],
    ["A prompt asking for a plan", () => prompt("plan a small change")],
    [`Cancellation: a long prompt, cancelled after ${TOUR_CANCEL_AFTER_MS / 1000} s with session/cancel`, () => prompt("slow count to a hundred", TOUR_CANCEL_AFTER_MS)],
    [
      "Listing the sessions in this directory (session/list)",
      async () => {
        transcript.user("/list");
        const { sessions } = await conn.agent.listSessions({ cwd });
        for (const s of sessions) transcript.note(`  ${s.sessionId}${s.sessionId === sessionId ? " (this one)" : ""}: ${s.title ?? "(untitled)"}`);
        transcript.note(`  ${sessions.length} session${sessions.length === 1 ? "" : "s"}`);
      },
    ],
    ["Closing the session (session/close)", () => (transcript.user("/close"), conn.agent.closeSession({ sessionId }).then(() => transcript.note("  closed")))],
  ];
  const ran: string[] = [];
  const skipped: { step: string; why: string }[] = [];
  for (const [i, [title, run]] of steps.entries()) {
    transcript.note(`\n== ${i + 1}. ${title}`);
    try {
      await run();
      ran.push(`${i + 1}. ${title}`);
    } catch (error) {
      if (!(error instanceof RpcError)) throw error;
      transcript.note(`  failed (${error.code} ${error.message}); going on`);
      skipped.push({ step: `${i + 1}. ${title}`, why: `failed (${error.code} ${error.message})` });
    }
  }
  transcript.note(`\nTour done (protocol 2): ${ran.length} steps ran${skipped.length > 0 ? `; failed: ${skipped.map((s) => s.step.split(".")[0]).join(", ")}` : ""}.`);
  return { ran, skipped, stopReasons };
}
