/**
 * Runs a replay plan against an agent: sends the client's lines in recorded
 * order (requests with their recorded ids; answers to the agent's requests
 * matched by method and ordinal, with the agent's new id), each once what
 * preceded it in the recording has come back, and compares every answer and
 * agent request with the recorded one by shape (shape.ts). Inspect's monitor
 * watches the replayed traffic (through check's driver) and the recording
 * alike; rules that fire a different number of times are differences too.
 */
import { isRequestId } from "../../src/jsonrpc/classify.ts";
import { startDriver } from "../check/driver.ts";
import { idKey } from "./calls.ts";
import type { Difference, Plan, RecordedAnswer, Step } from "./replay-plan.ts";

export type { Difference };
import { compareRules } from "./replay-rules.ts";
import { compareShape, substituteIds, type IdMap } from "./shape.ts";
import { ErrorCode } from "../../src/errors.ts";

export interface ReplayOutcome {
  readonly sent: { requests: number; notifications: number; answers: number; other: number };
  readonly compared: { answers: number; agentRequests: number };
  readonly differences: readonly Difference[];
  /** The agent's exit code; undefined when it was still running after the timeout (then killed). */
  readonly exit: number | null | undefined;
}

export interface ReplayOptions {
  /** How long to wait at least for each answer or agent request the recording had, in ms; an answer the recording shows slower is waited for twice its recorded latency. */
  readonly timeoutMs: number;
  /** How long to wait for the agent's first line (its start-up), in ms. */
  readonly startMs: number;
  /** How long the agent may stay silent before the replay stops waiting for notifications the recording had before a line. */
  readonly quietMs: number;
}

/** Replays `plan` against `command` and returns what differed; throws when the command cannot be started. */
export async function runReplay(plan: Plan, command: readonly string[], options: ReplayOptions): Promise<ReplayOutcome> {
  const started = performance.now();
  const driver = startDriver(command, { graceMs: options.timeoutMs });
  // The replay answers the agent's requests from the recording (below); the driver's own answers stay out.
  driver.answerer = () => undefined;
  if (driver.process.child.pid === undefined) {
    const exit = await driver.process.exited;
    throw new Error(`cannot start ${command.join(" ")}: ${exit.error?.message ?? "spawn failed"}`);
  }
  const ids: IdMap = new Map();
  const differences: Difference[] = [];
  const sent = { requests: 0, notifications: 0, answers: 0, other: 0 };
  const compared = { answers: 0, agentRequests: 0 };
  const sentRequests = new Set<string>();
  /** Answer keys of the requests sent and not yet answered, by idKey, oldest first (ids may be reused). */
  const pendingById = new Map<string, string[]>();
  const answered = new Set<string>();
  const agentRequests = new Map<string, Record<string, unknown>[]>();
  const recordedAgent = new Map(plan.agentRequests.map((r) => [`${r.method}#${r.ordinal}`, r]));
  let notifications = 0;
  let seen = 0;

  const onAnswer = (recorded: RecordedAnswer, body: Record<string, unknown>) => {
    compared.answers++;
    const at = label(recorded);
    const [was, now] = [outcomeOf(recorded.body), outcomeOf(body)];
    if (was !== now) differences.push({ kind: "answer", at, recorded: was, replayed: now });
    else if (recorded.body.error !== undefined) {
      const data = (v: Record<string, unknown>) => (v.error as { data?: unknown }).data;
      for (const d of compareShape(data(recorded.body), data(body), "error.data", ids)) differences.push({ kind: "answer", at, ...d });
    } else for (const d of compareShape(recorded.body.result, body.result, "result", ids)) differences.push({ kind: "answer", at, ...d });
  };

  const onAgentRequest = (method: string, body: Record<string, unknown>) => {
    const list = agentRequests.get(method) ?? [];
    agentRequests.set(method, list);
    const ordinal = list.push(body) - 1;
    const at = `${method} (agent request ${ordinal + 1})`;
    const recorded = recordedAgent.get(`${method}#${ordinal}`);
    if (recorded === undefined) {
      differences.push({ kind: "extra", at, recorded: "not sent", replayed: "sent" });
      driver.write(`${JSON.stringify({ jsonrpc: "2.0", id: body.id, error: { code: ErrorCode.InternalError, message: "inspect replay: the recording has no answer to this request" } })}\n`);
      return;
    }
    compared.agentRequests++;
    for (const d of compareShape(recorded.body.params, body.params, "params", ids)) differences.push({ kind: "agent-request", at, ...d });
  };

  /** Takes in the agent lines that arrived since the last call. */
  const sync = () => {
    for (; seen < driver.lines.length; seen++) {
      const body = driver.lines[seen]?.body;
      if (body === undefined) continue;
      const method = typeof body.method === "string" ? body.method : undefined;
      if (method !== undefined && body.id !== undefined) onAgentRequest(method, body);
      else if (method !== undefined) notifications++;
      else if (isRequestId(body.id)) {
        const key = pendingById.get(idKey(body.id))?.shift();
        if (key === undefined) continue;
        answered.add(key);
        const recorded = plan.answers.get(key);
        if (recorded !== undefined) onAnswer(recorded, body);
      }
    }
  };

  /** Waits until `cond` holds, the agent exits, `ms` pass (`startMs` before its first line), or (with `quietMs`) the agent is silent that long. */
  const until = async (cond: () => boolean, ms: number, quietMs?: number): Promise<boolean> => {
    const deadline = performance.now() + (driver.lines.length === 0 ? Math.max(ms, options.startMs) : ms);
    for (;;) {
      sync();
      if (cond()) return true;
      const left = deadline - performance.now();
      if (left <= 0 || driver.death !== undefined) return false;
      const next = await driver.waitFor(() => true, Math.min(left, quietMs ?? left), driver.lines.length);
      if (next === undefined && quietMs !== undefined) {
        sync();
        return cond();
      }
    }
  };

  const send = (step: Step) => {
    let body = step.body;
    if (step.kind === "answer") {
      const ref = step.answers;
      const target = ref === undefined ? undefined : agentRequests.get(ref.method)?.[ref.ordinal];
      if (target === undefined) return; // reported below as a missing agent request
      body = { ...(substituteIds(body, ids).value as Record<string, unknown>), id: target.id };
      driver.write(`${JSON.stringify(body)}\n`);
      sent.answers++;
      return;
    }
    const swapped = body === undefined ? undefined : substituteIds(body, ids);
    driver.write(`${swapped?.changed ? JSON.stringify(swapped.value) : step.line}\n`);
    if (step.kind === "request") {
      sent.requests++;
      if (step.key !== undefined && isRequestId(step.body?.id)) {
        sentRequests.add(step.key);
        const queue = pendingById.get(idKey(step.body.id)) ?? [];
        pendingById.set(idKey(step.body.id), queue);
        queue.push(step.key);
      }
    } else if (step.kind === "notification") sent.notifications++;
    else sent.other++;
  };

  const expectedAnswered = (keys: readonly string[]) => () => keys.every((k) => answered.has(k) || !sentRequests.has(k));
  /** The wait for these answers: the timeout, or twice the slowest recorded latency if longer. */
  const waitFor = (keys: readonly string[]) => Math.max(options.timeoutMs, ...keys.map((k) => 2 * (plan.answers.get(k)?.ms ?? 0)));
  /** Waits for the answers the recording had before a line; an expired wait is a difference that says so. */
  const awaitAnswers = async (keys: readonly string[]) => {
    const ms = waitFor(keys);
    if (await until(expectedAnswered(keys), ms)) return;
    for (const k of keys) {
      const recorded = plan.answers.get(k);
      if (recorded !== undefined && sentRequests.has(k) && !answered.has(k) && driver.death === undefined)
        differences.push({ kind: "timeout", at: label(recorded), recorded: `${outcomeOf(recorded.body)} after ${Math.round(recorded.ms)} ms`, replayed: `no answer within ${Math.round(ms)} ms; the replay went on` });
    }
  };
  for (const step of plan.steps) {
    await awaitAnswers(step.afterAnswers);
    await until(() => step.afterAgentRequests.every((r) => (agentRequests.get(r.method)?.length ?? 0) > r.ordinal), options.timeoutMs);
    await until(() => notifications >= step.afterNotifications, options.timeoutMs, options.quietMs);
    send(step);
  }
  await until(expectedAnswered([...plan.answers.keys()]), waitFor([...plan.answers.keys()]));
  await until(() => notifications >= plan.notifications, options.timeoutMs, options.quietMs);
  const end = await driver.close();
  const exit = end.exited ? end.code : undefined;
  sync();

  for (const [key, recorded] of plan.answers) {
    if (sentRequests.has(key) && !answered.has(key))
      differences.push({ kind: "missing", at: label(recorded), recorded: `${outcomeOf(recorded.body)} after ${Math.round(recorded.ms)} ms`, replayed: driver.death !== undefined ? "no answer: the agent exited" : `no answer within ${Math.round(waitFor([key]))} ms` });
  }
  for (const r of plan.agentRequests) {
    if ((agentRequests.get(r.method)?.length ?? 0) <= r.ordinal) differences.push({ kind: "missing", at: `${r.method} (agent request ${r.ordinal + 1})`, recorded: "sent", replayed: "not sent" });
  }
  driver.monitor.end(performance.now() - started);
  differences.push(...compareRules(plan, driver.monitor.violations));
  if (plan.exit !== undefined && exit !== plan.exit) differences.push({ kind: "exit", at: "agent exit", recorded: `exit ${plan.exit}`, replayed: exit === undefined ? `still running ${options.timeoutMs} ms after end of input` : `exit ${exit}` });
  return { sent, compared, differences, exit };
}

/** `session/prompt #2`, and which use of the id when the client reused it (`initialize #0 (2nd use of the id)`). */
function label(recorded: RecordedAnswer): string {
  return `${recorded.method} #${JSON.stringify(recorded.id)}${recorded.use > 0 ? ` (use ${recorded.use + 1} of the id)` : ""}`;
}

/** `a result` or `error <code>`. */
function outcomeOf(body: Record<string, unknown>): string {
  if (body.error === undefined) return "a result";
  const code = (body.error as { code?: unknown } | null)?.code;
  return `error ${JSON.stringify(code)}`;
}
