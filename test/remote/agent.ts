/** The remote tests' agent, without test-runner imports (backend processes load it too). */
import type { AgentHandler } from "../../src/index.ts";

/**
 * The tests' agent. Prompt texts: `ask` announces a tool call and asks
 * permission, then reports the outcome as a chunk; `wait` runs until
 * cancelled (counted in `probe.cancelled`); `gate` ends once `probe.gate`
 * settles; `flood` sends 400 chunks of 32 KiB; anything else is echoed back
 * as three chunks.
 */
export function remoteAgent(probe: AgentProbe = { cancelled: 0 }): AgentHandler {
  let sessions = 0;
  return {
    initialize: () => ({ protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] }),
    authenticate: () => ({}),
    newSession: () => ({ sessionId: `${probe.sessionPrefix ?? ""}sess-${++sessions}` }),
    setSessionMode: () => ({}),
    setSessionConfigOption: () => ({ configOptions: [] }),
    async prompt(params, ctx) {
      const first = params.prompt[0];
      const text = first?.type === "text" ? first.text : "";
      const say = (t: string) => ctx.peer.sessionUpdate({ sessionId: params.sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } } });
      if (text === "ask") {
        await ctx.peer.sessionUpdate({ sessionId: params.sessionId, update: { sessionUpdate: "tool_call", toolCallId: "call-1", title: "write a file", status: "pending" } });
        const answer = await ctx.peer.requestPermission(
          {
            sessionId: params.sessionId,
            toolCall: { toolCallId: "call-1" },
            options: [
              { optionId: "allow", name: "Allow", kind: "allow_once" },
              { optionId: "deny", name: "Deny", kind: "reject_once" },
            ],
          },
          { signal: ctx.signal },
        );
        await say(answer.outcome.outcome === "selected" ? `chose ${answer.outcome.optionId}` : "permission cancelled");
        return { stopReason: ctx.signal.aborted ? "cancelled" : "end_turn" };
      }
      if (text === "wait") {
        await say("waiting");
        await new Promise<void>((resolve) => (ctx.signal.aborted ? resolve() : ctx.signal.addEventListener("abort", () => resolve(), { once: true })));
        probe.cancelled++;
        return { stopReason: "cancelled" };
      }
      if (text === "gate") {
        await say("gated");
        await probe.gate;
        return { stopReason: "end_turn" };
      }
      if (text === "flood") {
        const big = "x".repeat(32 * 1024);
        for (let i = 0; i < 400 && !ctx.signal.aborted; i++) await say(big);
        return { stopReason: ctx.signal.aborted ? "cancelled" : "end_turn" };
      }
      for (const part of [text, " ", text]) await say(part);
      return { stopReason: "end_turn" };
    },
  };
}

/** What a test can see of and do to `remoteAgent`'s turns. */
export interface AgentProbe {
  /** Turns that ended because they were cancelled (or their connection closed). */
  cancelled: number;
  /** Prepended to session ids (which backend made a session). Default none. */
  sessionPrefix?: string;
  /** `gate` turns end once this settles. */
  gate?: Promise<void>;
}
