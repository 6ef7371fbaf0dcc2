/**
 * What the example agent does with a prompt. Each behaviour streams
 * `session/update`s through `turn.send` (which also records them for
 * `session/load`) and returns the turn's stop reason. All of them honour
 * `turn.signal`, aborted by `session/cancel`, `session/close` or the
 * connection closing.
 */
import { isAbsolute } from "node:path";
import type { ClientCapabilities, ClientPeer, PlanEntry, SessionUpdate, StopReason } from "../src/index.ts";
import type { Session } from "./agent-sessions.ts";

/** One prompt turn: its session, its cancellation signal and a way to talk to the client. */
export interface Turn {
  readonly session: Session;
  readonly signal: AbortSignal;
  readonly client: ClientPeer;
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** Sends an update and records it in the session's history. */
  send(update: SessionUpdate): Promise<void>;
}

/** Picks the behaviour for a prompt's text: `slow…`, `read <absolute path>`, `plan…`, else an echo. */
export function runTurn(turn: Turn, text: string): Promise<StopReason> {
  const trimmed = text.trim();
  if (trimmed.startsWith("slow")) return slow(turn);
  if (trimmed.startsWith("read ")) return readFile(turn, trimmed.slice(5).trim());
  if (trimmed.startsWith("plan")) return plan(turn);
  return echo(turn, text);
}

/** Most chunks one `say` streams: longer texts go out a few words per chunk. */
const MAX_CHUNKS = 12;

/** Streams `text` back as several `agent_message_chunk`s, a word or a few at a time; false if cancelled. */
export async function say(turn: Turn, text: string, delayMs = 20): Promise<boolean> {
  const words = text.split(/(?<=\s)/);
  const perChunk = Math.ceil(words.length / MAX_CHUNKS);
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += perChunk) pieces.push(words.slice(i, i + perChunk).join(""));
  for (const [i, piece] of pieces.entries()) {
    if (turn.signal.aborted) return false;
    if (i > 0 && !(await sleep(delayMs, turn.signal))) return false;
    await turn.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: piece } });
  }
  return !turn.signal.aborted;
}

async function echo(turn: Turn, text: string): Promise<StopReason> {
  const reply = text.trim() === "" ? "You sent no text. Try: hello, plan, slow, or read /absolute/path." : `You said (${turn.session.modeId} mode): ${text}\n`;
  return (await say(turn, reply)) ? "end_turn" : "cancelled";
}

/** Ten seconds of counting, one chunk every 100 ms, stopping at once when cancelled. */
async function slow(turn: Turn): Promise<StopReason> {
  await turn.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Counting slowly:" } });
  for (let i = 1; i <= 100; i++) {
    if (!(await sleep(100, turn.signal))) return "cancelled";
    await turn.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: ` ${i}` } });
  }
  return (await say(turn, "\nDone counting.\n")) ? "end_turn" : "cancelled";
}

/** How many lines of a file `read` shows. */
const READ_LINES = 5;
let toolCalls = 0;

/** Reads the first lines of a file through the client, after asking permission. */
async function readFile(turn: Turn, path: string): Promise<StopReason> {
  if (turn.clientCapabilities?.fs?.readTextFile !== true) {
    return (await say(turn, "I cannot read files here: this client did not advertise the fs.readTextFile capability.\n")) ? "end_turn" : "cancelled";
  }
  if (!isAbsolute(path)) return (await say(turn, `Please give an absolute path; "${path}" is relative.\n`)) ? "end_turn" : "cancelled";

  const { session, client, signal } = turn;
  const toolCallId = `read-${++toolCalls}`;
  const title = `Read ${path}`;
  await turn.send({ sessionUpdate: "tool_call", toolCallId, title, kind: "read", status: "pending", locations: [{ path }], rawInput: { path, limit: READ_LINES } });
  const permission = await client.requestPermission(
    {
      sessionId: session.id,
      toolCall: { toolCallId, title, kind: "read", status: "pending", locations: [{ path }] },
      options: [
        { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
        { optionId: "reject_once", name: "Reject", kind: "reject_once" },
      ],
    },
    { signal },
  );
  const outcome = permission.outcome;
  if (outcome.outcome === "cancelled" || signal.aborted) {
    await turn.send({ sessionUpdate: "tool_call_update", toolCallId, status: "failed" });
    await say(turn, "The permission request was cancelled, so I did not read the file.\n", 0);
    return "cancelled";
  }
  if (outcome.optionId !== "allow_once") {
    await turn.send({ sessionUpdate: "tool_call_update", toolCallId, status: "failed", content: [{ type: "content", content: { type: "text", text: "Rejected by the user" } }] });
    return (await say(turn, "You rejected the read, so I left the file alone.\n")) ? "end_turn" : "cancelled";
  }

  await turn.send({ sessionUpdate: "tool_call_update", toolCallId, status: "in_progress" });
  let content: string;
  try {
    ({ content } = await client.readTextFile({ sessionId: session.id, path, line: 1, limit: READ_LINES }, { signal }));
  } catch (error) {
    if (signal.aborted) return "cancelled";
    const reason = error instanceof Error ? error.message : String(error);
    await turn.send({ sessionUpdate: "tool_call_update", toolCallId, status: "failed", content: [{ type: "content", content: { type: "text", text: reason } }] });
    return (await say(turn, `The client could not read ${path}: ${reason}\n`)) ? "end_turn" : "cancelled";
  }
  if (!(await say(turn, `The first lines of ${path}:\n`))) return "cancelled";
  for (const line of content.split("\n").slice(0, READ_LINES)) {
    if (signal.aborted) return "cancelled";
    await turn.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${line}\n` } });
  }
  await turn.send({ sessionUpdate: "tool_call_update", toolCallId, status: "completed", content: [{ type: "content", content: { type: "text", text: content } }] });
  return "end_turn";
}

/** A three-step plan whose entries go pending → in_progress → completed as the agent "works". */
async function plan(turn: Turn): Promise<StopReason> {
  const entries: PlanEntry[] = [
    { content: "Understand the request", priority: "high", status: "pending" },
    { content: "Sketch the change", priority: "medium", status: "pending" },
    { content: "Report back", priority: "low", status: "pending" },
  ];
  const sendPlan = () => turn.send({ sessionUpdate: "plan", entries: entries.map((e) => ({ ...e })) });
  await sendPlan();
  for (const entry of entries) {
    entry.status = "in_progress";
    await sendPlan();
    if (!(await sleep(150, turn.signal))) return "cancelled";
    entry.status = "completed";
    await sendPlan();
  }
  return (await say(turn, "All three steps of the plan are done.\n")) ? "end_turn" : "cancelled";
}

/** Waits `ms`; resolves false at once if `signal` aborts (and leaves no timer or listener behind). */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
