/**
 * The plan of `inspect replay`, read from a recording: the client's lines in
 * order, each with what the agent had written before it in the recording
 * (answers to the client's requests, its own requests, its notifications),
 * so the replay keeps causal order; and the recorded answers and agent
 * requests the replayed ones are compared with.
 */
import { isRequestId } from "../../src/jsonrpc/classify.ts";
import { idKey } from "./calls.ts";
import type { RecordEntry } from "./recording.ts";
import type { Sender } from "./rules.ts";

/** An agent request named by method and ordinal (`session/request_permission` #0 is its first), since replayed ids may differ. */
export interface AgentCallRef {
  readonly method: string;
  readonly ordinal: number;
}

/** One line the client wrote. */
export interface Step {
  /** Index among all recorded messages, both directions (as the monitor counts). */
  readonly position: number;
  readonly kind: "request" | "notification" | "answer" | "other";
  /** The line as recorded. */
  readonly line: string;
  readonly body: Record<string, unknown> | undefined;
  readonly method: string | undefined;
  /** For an answer: the agent request it answers. */
  readonly answers: AgentCallRef | undefined;
  /** For a request with an id: its answer key (`answerKey`), unique even when the client reused the id. */
  readonly key: string | undefined;
  /** Client request ids (idKey) newly answered in the recording before this line. */
  readonly afterAnswers: readonly string[];
  /** Agent requests newly seen in the recording before this line. */
  readonly afterAgentRequests: readonly AgentCallRef[];
  /** Agent notifications before this line in the recording, in all. */
  readonly afterNotifications: number;
}

/** A recorded answer to a client request. */
export interface RecordedAnswer {
  readonly method: string;
  readonly id: unknown;
  readonly body: Record<string, unknown>;
  /** Milliseconds between the request and this answer in the recording. */
  readonly ms: number;
  /** 0 for the first request with this id, 1 for the next one that reused it, … */
  readonly use: number;
}

/**
 * The key of a client request's answer: its idKey, then `@n` for the n-th
 * reuse of that id (a negotiating client sends two `initialize` with id 0),
 * so answers are told apart by request and position.
 */
export function answerKey(key: string, use: number): string {
  return use === 0 ? key : `${key}@${use}`;
}

/** A recorded request from the agent. */
export interface RecordedAgentRequest extends AgentCallRef {
  readonly body: Record<string, unknown>;
}

export interface Plan {
  readonly command: readonly string[];
  readonly steps: readonly Step[];
  /** Recorded answers by answer key (the idKey of the client request, `@n` for a reused id). */
  readonly answers: ReadonlyMap<string, RecordedAnswer>;
  readonly agentRequests: readonly RecordedAgentRequest[];
  readonly notifications: number;
  /** Every recorded line in order, for re-running the monitor on the recording. */
  readonly lines: readonly { readonly from: Sender; readonly line: string; readonly t: number }[];
  readonly exit: number | undefined;
}

/** Builds the plan from a recording's entries. */
export function buildPlan(entries: readonly RecordEntry[]): Plan {
  const steps: Step[] = [];
  const answers = new Map<string, RecordedAnswer>();
  const agentRequests: RecordedAgentRequest[] = [];
  const lines: { from: Sender; line: string; t: number }[] = [];
  const clientPending = new Map<string, { method: string; key: string; use: number; t: number }[]>();
  const uses = new Map<string, number>();
  const agentPending = new Map<string, AgentCallRef>();
  const ordinals = new Map<string, number>();
  let newAnswers: string[] = [];
  let newRequests: AgentCallRef[] = [];
  let notifications = 0;
  let command: readonly string[] = [];
  let exit: number | undefined;
  for (const e of entries) {
    if (e.type === "start") command = e.command;
    else if (e.type === "end") exit = e.exit;
    if (e.type !== "message" && e.type !== "raw") continue;
    const position = lines.length;
    lines.push({ from: e.from, line: e.line, t: e.t });
    const body = e.type === "message" && isObject(e.msg) ? e.msg : undefined;
    const method = typeof body?.method === "string" ? body.method : undefined;
    const id = body?.id;
    if (e.from === "agent") {
      if (body === undefined) continue;
      const waiting = method === undefined && isRequestId(id) ? clientPending.get(idKey(id))?.shift() : undefined;
      if (waiting !== undefined) {
        answers.set(waiting.key, { method: waiting.method, id, body, ms: e.t - waiting.t, use: waiting.use });
        newAnswers.push(waiting.key);
      } else if (method !== undefined && isRequestId(id)) {
        const ordinal = ordinals.get(method) ?? 0;
        ordinals.set(method, ordinal + 1);
        const ref = { method, ordinal };
        agentRequests.push({ ...ref, body });
        agentPending.set(idKey(id), ref);
        newRequests.push(ref);
      } else if (method !== undefined) notifications++;
      continue;
    }
    let kind: Step["kind"] = "other";
    let answersRef: AgentCallRef | undefined;
    let key: string | undefined;
    if (body !== undefined && method !== undefined) {
      kind = id === undefined ? "notification" : "request";
      if (isRequestId(id)) {
        const use = uses.get(idKey(id)) ?? 0;
        uses.set(idKey(id), use + 1);
        key = answerKey(idKey(id), use);
        const queue = clientPending.get(idKey(id)) ?? [];
        clientPending.set(idKey(id), queue);
        queue.push({ method, key, use, t: e.t });
      }
    } else if (body !== undefined && isRequestId(id) && agentPending.has(idKey(id))) {
      kind = "answer";
      answersRef = agentPending.get(idKey(id));
      agentPending.delete(idKey(id));
    }
    steps.push({ position, kind, line: e.line, body, method, answers: answersRef, key, afterAnswers: newAnswers, afterAgentRequests: newRequests, afterNotifications: notifications });
    newAnswers = [];
    newRequests = [];
  }
  return { command, steps, answers, agentRequests, notifications, lines, exit };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** One way the replay differs from the recording. */
export interface Difference {
  /** `answer`: an answer's shape; `missing`/`extra`: an answer or agent request absent on one side; `timeout`: a wait expired and the replay went on; `rule`: a rule fired a different number of times; `exit`: the exit code. */
  readonly kind: "answer" | "agent-request" | "missing" | "extra" | "timeout" | "rule" | "exit";
  /** The message (`session/prompt #2`, `session/request_permission (agent request 1)`) or the rule. */
  readonly at: string;
  /** Where inside the message, when the difference is inside one. */
  readonly path?: string;
  readonly recorded: string;
  readonly replayed: string;
}
