/**
 * The mock agent's step engine: runs parsed steps against a client through a
 * small context (send an update, call a client method), so the mock agent
 * and `check --client` drive the same behaviour, one over a connection of
 * our library, the other over its own driver. Each step reports what the
 * client did as an `agent_message_chunk` starting with `[mock]`.
 */
import { isAbsolute, resolve } from "node:path";
import { preflight, samplesFor, advertised } from "./needs.ts";
import type { Step } from "./steps.ts";
import { metaLadenUpdate, unknownUpdate, type JsonObject, type SampleVersion } from "./updates.ts";

/** What the engine needs from the agent it runs in. */
export interface StepContext {
  /** The protocol version of the connection. */
  readonly version: SampleVersion;
  /** The session of the running turn. */
  readonly sessionId: string;
  /** The session's working directory: relative `#read`/`#write` paths resolve against it. */
  readonly cwd: string;
  /** Aborted on `session/cancel` (or close); the turn then ends `cancelled`. */
  readonly signal: AbortSignal;
  /** The capabilities the client advertised in `initialize`. */
  readonly clientCapabilities: unknown;
  /** The `messageId` of the agent's reply in this turn (v2 requires one on every chunk; v1 omits it). */
  readonly messageId: string;
  /** Sends `session/update` with `update`, for `sessionId` (default: the turn's session). */
  sendUpdate(update: JsonObject, sessionId?: string): Promise<void>;
  /** Sends a request to the client by wire name; settles with its result or rejects with its error. */
  request(wire: string, params: JsonObject): Promise<unknown>;
  /** A diagnostic for the agent's stderr. */
  log(message: string): void;
}

/** How a turn ended: a stop reason, or a JSON-RPC error to answer the prompt with. */
export type TurnEnd =
  | { readonly stopReason: "end_turn" | "cancelled" }
  | { readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } };

/** The session id `#foreign-session` sends to: one no client opened. */
export const FOREIGN_SESSION_ID = "mock-foreign-session";

/** The JSON-RPC code of a prompt refused by the pre-flight check: -32602 Invalid params (the prompt asks for what this connection cannot do). */
export const REFUSED_CODE = -32602;

/**
 * Runs `steps` in order. First checks the whole turn (`preflight`): a step
 * the version or the client's capabilities cannot serve answers the prompt
 * with a clear error before anything is sent, and is logged. A client
 * request that fails is reported and the turn goes on; a cancel ends it.
 */
export async function runSteps(ctx: StepContext, steps: readonly Step[]): Promise<TurnEnd> {
  const refused = preflight(steps, ctx.version, ctx.clientCapabilities);
  if (refused !== undefined) {
    ctx.log(`prompt refused: ${refused}`);
    return { error: { code: REFUSED_CODE, message: refused, data: { reason: refused } } };
  }
  for (const step of steps) {
    if (ctx.signal.aborted) return { stopReason: "cancelled" };
    const end = await runStep(ctx, step);
    if (end !== undefined) return end;
  }
  return { stopReason: ctx.signal.aborted ? "cancelled" : "end_turn" };
}

/**
 * How long a plain-text turn thinks before its echo. Default 200 ms: a turn
 * a client sees running (its thought chunk) can be cancelled by a user, or
 * by `check`'s cancel probe, before it ends; short enough for tests.
 */
export const ECHO_THINK_MS = 200;

/** A thought chunk, `ECHO_THINK_MS` of (cancellable) thinking, then `text` as the reply. */
async function echo(ctx: StepContext, text: string): Promise<TurnEnd | undefined> {
  await ctx.sendUpdate({ sessionUpdate: "agent_thought_chunk", ...(ctx.version === 2 ? { messageId: `${ctx.messageId}-thought` } : {}), content: { type: "text", text: "[mock] echoing" } });
  if (!(await sleep(ECHO_THINK_MS, ctx.signal))) return { stopReason: "cancelled" };
  await say(ctx, `${text}\n`);
  return undefined;
}

/** Sends `text` as one agent message chunk of the turn. */
export function say(ctx: StepContext, text: string): Promise<void> {
  return ctx.sendUpdate({ sessionUpdate: "agent_message_chunk", ...(ctx.version === 2 ? { messageId: ctx.messageId } : {}), content: { type: "text", text } });
}

const report = (ctx: StepContext, text: string) => say(ctx, `[mock] ${text}\n`);

async function runStep(ctx: StepContext, step: Step): Promise<TurnEnd | undefined> {
  switch (step.op) {
    case "echo":
      return echo(ctx, step.text);
    case "updates":
      return updates(ctx, step.kind, step.count);
    case "permission":
      return permission(ctx);
    case "read":
      return call(ctx, "fs/read_text_file", { sessionId: ctx.sessionId, path: absolute(ctx, step.path) }, (r) => `read ${absolute(ctx, step.path)}: ${JSON.stringify((r as { content?: unknown }).content)}`);
    case "write":
      return call(ctx, "fs/write_text_file", { sessionId: ctx.sessionId, path: absolute(ctx, step.path), content: step.text }, () => `wrote ${Buffer.byteLength(step.text)} bytes to ${absolute(ctx, step.path)}`);
    case "terminal":
      return terminal(ctx, step.command, step.kill);
    case "elicit":
      return call(ctx, "elicitation/create", elicitation(ctx), (r) => `elicitation: ${JSON.stringify(r)}`);
    case "big":
      await say(ctx, bigText(step.bytes));
      await report(ctx, `sent a message of ${step.bytes} bytes`);
      return undefined;
    case "sleep":
      return (await sleep(step.ms, ctx.signal)) ? undefined : { stopReason: "cancelled" };
    case "hang":
      await report(ctx, "hanging until session/cancel");
      await sleep(Infinity, ctx.signal);
      return { stopReason: "cancelled" };
    case "error":
      return { error: { code: step.code, message: step.message } };
    case "unknown-update":
      await ctx.sendUpdate(unknownUpdate());
      return undefined;
    case "meta":
      await ctx.sendUpdate(metaLadenUpdate(ctx.version));
      return undefined;
    case "foreign-session":
      await ctx.sendUpdate({ sessionUpdate: "agent_message_chunk", ...(ctx.version === 2 ? { messageId: "mock-foreign-1" } : {}), content: { type: "text", text: "An update for a session you never opened." } }, FOREIGN_SESSION_ID);
      return undefined;
  }
}

async function updates(ctx: StepContext, kind: string, count: number): Promise<TurnEnd | undefined> {
  const samples = samplesFor(ctx.version, kind) ?? [];
  const skipped = new Set<string>();
  for (let i = 0; i < count; i++) {
    for (const s of samples) {
      if (ctx.signal.aborted) return { stopReason: "cancelled" };
      if (s.requires !== undefined && !advertised(ctx.clientCapabilities, s.requires)) {
        skipped.add(`${s.kind} (needs ${s.requires.join(".")})`);
        continue;
      }
      await ctx.sendUpdate(s.update);
    }
  }
  if (skipped.size > 0) await report(ctx, `skipped ${[...skipped].join(", ")}: not advertised`);
  return undefined;
}

/** Announces a tool call, asks permission for it, then moves it to completed or failed by the outcome. */
async function permission(ctx: StepContext): Promise<TurnEnd | undefined> {
  const toolCallId = `mock-permission-${ctx.messageId}`;
  const toolCall = { toolCallId, title: "Mock edit needing permission", kind: "edit", status: "pending" };
  await ctx.sendUpdate(ctx.version === 1 ? { sessionUpdate: "tool_call", ...toolCall } : { sessionUpdate: "tool_call_update", ...toolCall });
  const options = [
    { optionId: "allow", name: "Allow", kind: "allow_once" },
    { optionId: "reject", name: "Reject", kind: "reject_once" },
  ];
  const params = ctx.version === 1
    ? { sessionId: ctx.sessionId, toolCall: { toolCallId, title: toolCall.title, kind: "edit", status: "pending" }, options }
    : { sessionId: ctx.sessionId, title: toolCall.title, subject: { type: "tool_call", toolCall: { toolCallId } }, options };
  let outcome: { outcome?: string; optionId?: string } | undefined;
  try {
    outcome = ((await ctx.request("session/request_permission", params)) as { outcome?: { outcome?: string; optionId?: string } }).outcome;
  } catch (error) {
    await report(ctx, `permission request failed: ${describe(error)}`);
    return ctx.signal.aborted ? { stopReason: "cancelled" } : undefined;
  }
  const text = outcome?.outcome === "selected" ? `selected ${outcome.optionId ?? "?"}` : String(outcome?.outcome);
  const status = outcome?.outcome === "selected" && outcome.optionId === "allow" ? "completed" : "failed";
  await ctx.sendUpdate({ sessionUpdate: "tool_call_update", toolCallId, status });
  await report(ctx, `permission: ${text}`);
  return outcome?.outcome === "cancelled" || ctx.signal.aborted ? { stopReason: "cancelled" } : undefined;
}

/** create → (kill) → wait_for_exit → output → release, the terminal shown in a tool call meanwhile. */
async function terminal(ctx: StepContext, commandLine: string, kill: boolean): Promise<TurnEnd | undefined> {
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

function elicitation(ctx: StepContext): JsonObject {
  return {
    sessionId: ctx.sessionId,
    mode: "form",
    message: "The mock agent asks for a name.",
    requestedSchema: { type: "object", properties: { name: { type: "string", title: "Name" } }, required: ["name"] },
  };
}

async function call(ctx: StepContext, wire: string, params: JsonObject, ok: (result: unknown) => string): Promise<undefined> {
  try {
    await report(ctx, ok(await ctx.request(wire, params)));
  } catch (error) {
    await report(ctx, `${wire} failed: ${describe(error)}`);
  }
  return undefined;
}

function absolute(ctx: StepContext, path: string): string {
  return isAbsolute(path) ? path : resolve(ctx.cwd, path);
}

/** `bytes` bytes of ASCII text, in numbered lines, so a client's truncation shows where it cut. */
export function bigText(bytes: number): string {
  const line = "0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ mock-agent big message\n";
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "number" ? `${code} ${error.message}` : error.message;
  }
  return String(error);
}

/** Waits `ms` (Infinity: until aborted); false when `signal` aborted first. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((done) => {
    const onAbort = () => {
      if (timer !== undefined) clearTimeout(timer);
      done(false);
    };
    const timer = Number.isFinite(ms)
      ? setTimeout(() => {
        signal.removeEventListener("abort", onAbort);
        done(true);
      }, ms)
      : undefined;
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
