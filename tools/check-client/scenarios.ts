/**
 * The turns of `check --client`, one client run each: `handshake` (one
 * message chunk), `updates` (every update kind of the v1 schema, then an
 * unknown kind, a `_meta`-laden update, an update for an unknown session and
 * a 1 MiB chunk, each followed by a liveness wait), `permission` (a
 * permission request, then fs and terminal requests when advertised) and
 * `cancel` (a running tool call and a pending permission request, then
 * SIGINT to the client's process group, as Ctrl-C in a terminal sends it);
 * the last two are in permission.ts. Each turn scores its rows on the
 * scorecard as it goes. `version` answers initialize with a version no
 * client speaks (agent.ts) and is judged afterwards (judge.ts).
 */
import { metaLadenUpdate, unknownKind, unknownUpdate, updateSamples } from "../mock-agent/updates.ts";
import { fail, notRun, pass, type Scorecard } from "../check/score.ts";
import { ErrorCode } from "../../src/errors.ts";
import type { TurnStart } from "./agent.ts";
import type { Peer } from "./peer.ts";

/** How long the client must stay connected after a probe update to count as having tolerated it, in ms. Default 300: a receiver that chokes on a message does so as it parses it. */
export const LIVENESS_MS = 300;
/** The size of the large message's text, in bytes: 1 MiB, far beyond any chunk a model streams, well under the framer's 32 MiB limit. */
export const LARGE_BYTES = 1024 * 1024;

export type ScenarioName = "handshake" | "updates" | "permission" | "cancel" | "version";
export const SCENARIOS: readonly ScenarioName[] = ["handshake", "updates", "permission", "cancel", "version"];

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
    { id: "ACP-EXT-101", what: "an agent_message_chunk with an unknown field beside the known ones", send: () => update(ctx, start.sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "A field from the future rides along." }, checkFutureField: 1 }) },
    { id: "ACP-CONFIG-103", what: "a config_option_update whose option has an unknown category", send: () => update(ctx, start.sessionId, { sessionUpdate: "config_option_update", configOptions: [{ id: "check-effort", name: "Effort", category: "check_future_category", type: "select", currentValue: "low", options: [{ value: "low", name: "Low" }, { value: "high", name: "High" }] }] }) },
    { id: "ACP-CONFIG-104", what: "a config_option_update with an option of an unknown type", send: () => update(ctx, start.sessionId, { sessionUpdate: "config_option_update", configOptions: [{ id: "check-future", name: "Future", type: "check_future_type", currentValue: "x" }] }) },
    { id: "ACP-EXT-201", what: "an unknown _ notification and an unknown notification without _", send: () => { ctx.peer.notify("_acp-router.check/note", { text: "ignore me" }); ctx.peer.notify("check/future_notification", {}); } },
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
  if (goneAfter !== undefined) ctx.card.all(WIRE_ROWS, notRun(goneAfter));
  else await wireProbes(ctx);
  return "end_turn";
}

/** The rows {@link wireProbes} judges. */
export const WIRE_ROWS = ["ACP-EXT-001", "ACP-JSONRPC-004", "ACP-INFO-PARSE-001", "ACP-INFO-INVALIDREQ-001", "ACP-JSONRPC-005"] as const;

const errorCodeOf = (a: Record<string, unknown> | undefined): unknown => (a?.error as { code?: unknown } | undefined)?.code;

/**
 * JSON-RPC as a receiver: an unknown `_` request (answered, with its id;
 * -32601 as JSON-RPC asks), a line that is not JSON (-32700, id null), a JSON
 * body that is no message (-32600, id null), and then a request every client
 * answers, to see the connection is still usable.
 */
async function wireProbes(ctx: TurnContext): Promise<void> {
  const { peer, card, timeoutMs } = ctx;
  const s = `${Math.round(timeoutMs / 1000)} s`;
  const ext = await peer.request("_acp-router.check/ping", { probe: true }, timeoutMs);
  if (ext === undefined) {
    const why = ctx.gone();
    card.all(["ACP-EXT-001", "ACP-JSONRPC-004"], why !== undefined ? notRun(`the client ${why}`) : fail(`the unknown request _acp-router.check/ping got no answer within ${s}`));
    if (why !== undefined) return void card.all(WIRE_ROWS.slice(2), notRun(`the client ${why}`));
  } else {
    card.score("ACP-EXT-001", pass);
    card.score("ACP-JSONRPC-004", errorCodeOf(ext) === ErrorCode.MethodNotFound ? pass : fail(`the unknown request _acp-router.check/ping was answered ${JSON.stringify(ext.result !== undefined ? { result: ext.result } : ext.error).slice(0, 160)}, not -32601`));
  }
  const nullAnswer = (code: number) => (l: { body: Record<string, unknown> | undefined }) => l.body !== undefined && l.body.method === undefined && l.body.id === null && errorCodeOf(l.body) === code;
  const anyNullAnswer = (l: { body: Record<string, unknown> | undefined }) => l.body !== undefined && l.body.method === undefined && l.body.id === null;
  for (const [id, line, code, what] of [["ACP-INFO-PARSE-001", "{this is not json", ErrorCode.ParseError, "a line that is not JSON"], ["ACP-INFO-INVALIDREQ-001", '{"check":"not a JSON-RPC message"}', ErrorCode.InvalidRequest, "a JSON object that is not a JSON-RPC message"]] as const) {
    const from = peer.lines.length;
    peer.sendLine(line);
    const answer = await peer.waitFor(anyNullAnswer, Math.min(timeoutMs, 2000), from);
    const why = ctx.gone();
    if (why !== undefined) return void card.all([id, "ACP-JSONRPC-005"], fail(`the client ${why} after ${what}`));
    card.score(id, answer !== undefined && nullAnswer(code)(answer) ? pass : fail(answer === undefined ? `${what} got no error answer with id null (expected ${code})` : `${what} was answered ${answer.text.slice(0, 160)}, not ${code} with id null`));
  }
  const again = await peer.request("_acp-router.check/ping", { probe: "again" }, timeoutMs);
  card.score("ACP-JSONRPC-005", again !== undefined ? pass : ctx.gone() !== undefined ? fail(`the client ${String(ctx.gone())} after the erroneous lines`) : fail(`after the erroneous lines a request got no answer within ${s}`));
}
