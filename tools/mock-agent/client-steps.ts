/**
 * The steps of the mock agent that call the client: permission, terminals,
 * elicitation and single fs requests, each reporting the client's answer
 * (or its error) as a `[mock]` chunk. Used by `run-steps.ts`.
 */
import type { StepContext, TurnEnd } from "./steps.ts";
import type { JsonObject } from "./updates.ts";

/** Sends `text` as one agent message chunk of the turn. */
export function say(ctx: StepContext, text: string): Promise<void> {
  return ctx.sendUpdate({ sessionUpdate: "agent_message_chunk", ...(ctx.version === 2 ? { messageId: ctx.messageId } : {}), content: { type: "text", text } });
}

/** Sends `[mock] text` as a report line. */
export const report = (ctx: StepContext, text: string): Promise<void> => say(ctx, `[mock] ${text}\n`);

/** Permission requests made so far, for a fresh tool call id each. */
let permissions = 0;

/** Announces a tool call, asks permission for it, then moves it to completed or failed by the outcome. */
export async function permission(ctx: StepContext): Promise<TurnEnd | undefined> {
  const toolCallId = `mock-permission-${ctx.messageId}-${++permissions}`;
  const toolCall = { toolCallId, title: "Mock edit needing permission", kind: "edit", status: "pending" };
  await ctx.sendUpdate(ctx.version === 1 ? { sessionUpdate: "tool_call", ...toolCall } : { sessionUpdate: "tool_call_update", ...toolCall });
  const options = [
    { optionId: "allow", name: "Allow", kind: "allow_once" },
    { optionId: "reject", name: "Reject", kind: "reject_once" },
  ];
  const params = ctx.version === 1 ? { sessionId: ctx.sessionId, toolCall: { toolCallId, title: toolCall.title, kind: "edit", status: "pending" }, options } : { sessionId: ctx.sessionId, title: toolCall.title, subject: { type: "tool_call", toolCall: { toolCallId } }, options };
  let outcome: { outcome?: string; optionId?: string } | undefined;
  // v2: the foreground work is blocked on the user while the request is pending, and running again once it is answered.
  if (ctx.version === 2) await ctx.sendUpdate({ sessionUpdate: "state_update", state: "requires_action" });
  try {
    outcome = ((await ctx.request("session/request_permission", params)) as { outcome?: { outcome?: string; optionId?: string } }).outcome;
    if (ctx.version === 2 && !ctx.signal.aborted) await ctx.sendUpdate({ sessionUpdate: "state_update", state: "running" });
  } catch (error) {
    await report(ctx, `permission request failed: ${describe(error)}`);
    return ctx.signal.aborted ? { stopReason: "cancelled" } : undefined;
  }
  const text = outcome?.outcome === "selected" ? `selected ${outcome.optionId ?? "?"}` : String(outcome?.outcome);
  const allowed = outcome?.outcome === "selected" && outcome.optionId === "allow";
  // Once permitted, the tool runs: reported in_progress before it completes (v1 tool-calls: agents SHOULD).
  if (allowed) await ctx.sendUpdate({ sessionUpdate: "tool_call_update", toolCallId, status: "in_progress" });
  await ctx.sendUpdate({ sessionUpdate: "tool_call_update", toolCallId, status: allowed ? "completed" : "failed" });
  await report(ctx, `permission: ${text}`);
  return outcome?.outcome === "cancelled" || ctx.signal.aborted ? { stopReason: "cancelled" } : undefined;
}

/** create → (kill) → wait_for_exit → output → release, the terminal shown in a tool call meanwhile. */
export async function terminal(ctx: StepContext, commandLine: string, kill: boolean): Promise<TurnEnd | undefined> {
  const [command = "", ...args] = commandLine.split(/\s+/);
  const sessionId = ctx.sessionId;
  let terminalId: string | undefined;
  try {
    terminalId = ((await ctx.request("terminal/create", { sessionId, command, args, cwd: ctx.cwd })) as { terminalId: string }).terminalId;
    const toolCallId = `mock-terminal-${terminalId}`;
    await ctx.sendUpdate({ sessionUpdate: "tool_call", toolCallId, title: commandLine, kind: "execute", status: "in_progress", content: [{ type: "terminal", terminalId }] });
    if (kill) await ctx.request("terminal/kill", { sessionId, terminalId });
    const exit = (await ctx.request("terminal/wait_for_exit", { sessionId, terminalId })) as { exitCode?: number | null; signal?: string | null };
    const output = (await ctx.request("terminal/output", { sessionId, terminalId })) as { output?: string; truncated?: boolean };
    await ctx.sendUpdate({ sessionUpdate: "tool_call_update", toolCallId, status: exit.exitCode === 0 ? "completed" : "failed" });
    await report(ctx, `terminal${kill ? " (killed)" : ""}: exit ${JSON.stringify({ exitCode: exit.exitCode ?? null, signal: exit.signal ?? null })}, output ${JSON.stringify(output.output ?? "")}`);
  } catch (error) {
    await report(ctx, `terminal failed: ${describe(error)}`);
  } finally {
    if (terminalId !== undefined) await ctx.request("terminal/release", { sessionId, terminalId }).catch((error: unknown) => ctx.log(`terminal/release failed: ${describe(error)}`));
  }
  return undefined;
}

export function elicitation(ctx: StepContext): JsonObject {
  return {
    sessionId: ctx.sessionId,
    mode: "form",
    message: "The mock agent asks for a name.",
    requestedSchema: { type: "object", properties: { name: { type: "string", title: "Name" } }, required: ["name"] },
  };
}

export async function call(ctx: StepContext, wire: string, params: JsonObject, ok: (result: unknown) => string): Promise<undefined> {
  try {
    await report(ctx, ok(await ctx.request(wire, params)));
  } catch (error) {
    await report(ctx, `${wire} failed: ${describe(error)}`);
  }
  return undefined;
}

/** An error as `code message` (or its message). */
export function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "number" ? `${code} ${error.message}` : error.message;
  }
  return String(error);
}
