/**
 * The mock agent's step engine: runs parsed steps against a client through a
 * small context (send an update, call a client method), so the mock agent
 * and `check --client` drive the same behaviour, one over a connection of
 * our library, the other over its own driver. Each step reports what the
 * client did as an `agent_message_chunk` starting with `[mock]`.
 */
import { isAbsolute, resolve } from "node:path";
import { call, elicitation, permission, report, say, terminal } from "./client-steps.ts";
import { die, ignoreTerm, linger, silence, stubbornGrandchild } from "./lifetime.ts";
import { preflight, samplesFor, advertised } from "./needs.ts";
import type { Step, StepContext, TurnEnd } from "./steps.ts";

export type { StepContext, TurnEnd };
import { metaLadenUpdate, unknownUpdate, type JsonObject, type SampleVersion } from "./updates.ts";

export { say } from "./client-steps.ts";

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
    case "die":
      return die(step.code);
    case "silent":
      ctx.log("#silent: this turn gets nothing more");
      return silence();
    case "ignore-term":
      ignoreTerm();
      await report(ctx, "ignoring SIGTERM from now on");
      return undefined;
    case "linger":
      linger();
      await report(ctx, "lingering after stdin closes from now on");
      return undefined;
    case "grandchild":
      await report(ctx, `started a grandchild (pid ${stubbornGrandchild() ?? "?"}) that ignores SIGTERM and SIGHUP`);
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

function absolute(ctx: StepContext, path: string): string {
  return isAbsolute(path) ? path : resolve(ctx.cwd, path);
}

/** `bytes` bytes of ASCII text, in numbered lines, so a client's truncation shows where it cut. */
export function bigText(bytes: number): string {
  const line = "0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ mock-agent big message\n";
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
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
