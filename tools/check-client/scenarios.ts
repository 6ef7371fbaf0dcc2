/**
 * The turns of `check --client`, one client run each: `handshake` (one
 * message chunk), `updates` (every update kind of the v1 schema, then an
 * unknown kind, a `_meta`-laden update, an update for an unknown session and
 * a 1 MiB chunk, each followed by a liveness wait), `permission` (a
 * permission request, then fs and terminal requests when advertised) and
 * `cancel` (a running tool call and a pending permission request, then
 * SIGINT to the client's process group, as Ctrl-C in a terminal sends it);
 * the last two are in permission.ts; `offers` (session/list and auth methods
 * offered, judged afterwards: judge.ts). Each turn scores its rows on the
 * scorecard as it goes. `version` answers initialize with a version no
 * client speaks (agent.ts) and is judged afterwards (judge.ts).
 */
import { metaLadenUpdate, unknownKind, unknownUpdate, updateSamples } from "../mock-agent/updates.ts";
import { fail, notRun, pass } from "../check/score.ts";
import { ErrorCode } from "../../src/errors.ts";
import type { TurnStart } from "./agent.ts";
import type { TurnContext } from "./turn-context.ts";
import { idProbes } from "./ids.ts";
import { quoteText } from "../check/kit.ts";

/** How long the client must stay connected after a probe update to count as having tolerated it, in ms. Default 300: a receiver that chokes on a message does so as it parses it. */
export const LIVENESS_MS = 300;
/** The size of the large message's text, in bytes: 1 MiB, far beyond any chunk a model streams, well under the framer's 32 MiB limit. */
export const LARGE_BYTES = 1024 * 1024;

/**
 * The runs; `offers` (session/list and auth methods offered, agent.ts) runs only for a client that negotiated v1,
 * `version-down` only for one that negotiated v2 (v2.ts).
 */
export type ScenarioName = "handshake" | "updates" | "permission" | "cancel" | "offers" | "version" | "version-down";
export const SCENARIOS: readonly ScenarioName[] = ["handshake", "updates", "permission", "cancel", "offers", "version"];

export const update = (ctx: TurnContext, sessionId: string, u: unknown) => ctx.peer.notify("session/update", { sessionId, update: u });
const truthyAt = (root: unknown, path: readonly string[]) => path.reduce<unknown>((v, k) => (typeof v === "object" && v !== null ? (v as Record<string, unknown>)[k] : undefined), root) === true;

/** Waits {@link LIVENESS_MS}; undefined when the client is still there, else why it is gone. */
export async function survived(ctx: TurnContext): Promise<string | undefined> {
  await ctx.peer.pause(LIVENESS_MS);
  return ctx.gone();
}

/** An agent_message_chunk of `text` in the session's version (v2 chunks carry a messageId). */
export const chunk = (start: TurnStart, text: string, messageId = "check-agent-1"): Record<string, unknown> => ({ sessionUpdate: "agent_message_chunk", ...(start.version === 2 ? { messageId } : {}), content: { type: "text", text } });

export async function handshakeTurn(ctx: TurnContext, start: TurnStart): Promise<"end_turn"> {
  update(ctx, start.sessionId, chunk(start, "Hello from acp-router check --client."));
  return "end_turn";
}

export async function updatesTurn(ctx: TurnContext, start: TurnStart): Promise<"end_turn"> {
  const samples = updateSamples(start.version).filter((s) => s.requires === undefined || truthyAt(start.capabilities, s.requires));
  const steps: { id: string; what: string; send: () => void }[] = [
    { id: "ACP-PROMPT-105", what: `the ${samples.length} sample updates of every v1 kind`, send: () => samples.forEach((s) => update(ctx, start.sessionId, s.update)) },
    { id: "ACP-EXT-104", what: `an update of unknown kind "${unknownKind}"`, send: () => update(ctx, start.sessionId, unknownUpdate()) },
    { id: "ACP-META-102", what: "an agent_message_chunk carrying _meta", send: () => update(ctx, start.sessionId, metaLadenUpdate(start.version)) },
    { id: "ACP-SESSION-108", what: "an update for an unknown session", send: () => update(ctx, "check-unknown-session", chunk(start, "For a session you never opened.", "check-agent-unknown")) },
    { id: "ACP-TRANSPORT-106", what: `a ${LARGE_BYTES}-byte agent_message_chunk`, send: () => update(ctx, start.sessionId, chunk(start, "x".repeat(LARGE_BYTES), "check-agent-large")) },
    { id: "ACP-EXT-101", what: "an agent_message_chunk with an unknown field beside the known ones", send: () => update(ctx, start.sessionId, { ...chunk(start, "A field from the future rides along.", "check-agent-field"), checkFutureField: 1 }) },
    {
      id: "ACP-CONFIG-103",
      what: "a config_option_update whose option has an unknown category",
      send: () =>
        update(ctx, start.sessionId, {
          sessionUpdate: "config_option_update",
          configOptions: [
            {
              id: "check-effort",
              name: "Effort",
              category: "check_future_category",
              type: "select",
              currentValue: "low",
              options: [
                { value: "low", name: "Low" },
                { value: "high", name: "High" },
              ],
            },
          ],
        }),
    },
    { id: "ACP-CONFIG-104", what: "a config_option_update with an option of an unknown type", send: () => update(ctx, start.sessionId, { sessionUpdate: "config_option_update", configOptions: [{ id: "check-future", name: "Future", type: "check_future_type", currentValue: "x" }] }) },
    {
      id: "ACP-EXT-201",
      what: "an unknown _ notification and an unknown notification without _",
      send: () => {
        ctx.peer.notify("_acp-router.check/note", { text: "ignore me" });
        ctx.peer.notify("check/future_notification", {});
      },
    },
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

/** The rows {@link wireProbes} judges (ACP-JSONRPC-001 with the others: the id probes of ids.ts, besides every answer's id in judge.ts). */
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
    card.score("ACP-JSONRPC-004", errorCodeOf(ext) === ErrorCode.MethodNotFound ? pass : fail(`the unknown request _acp-router.check/ping was answered ${quoteText(JSON.stringify(ext.result !== undefined ? { result: ext.result } : ext.error))}, not -32601`));
  }
  if (!(await idProbes(ctx))) return void card.all(WIRE_ROWS.slice(2), notRun(`the client ${String(ctx.gone())} after the request-id probes`));
  const nullAnswer = (code: number) => (l: { body: Record<string, unknown> | undefined }) => l.body !== undefined && l.body.method === undefined && l.body.id === null && errorCodeOf(l.body) === code;
  const anyNullAnswer = (l: { body: Record<string, unknown> | undefined }) => l.body !== undefined && l.body.method === undefined && l.body.id === null;
  for (const [id, line, code, what] of [
    ["ACP-INFO-PARSE-001", "{this is not json", ErrorCode.ParseError, "a line that is not JSON"],
    ["ACP-INFO-INVALIDREQ-001", '{"check":"not a JSON-RPC message"}', ErrorCode.InvalidRequest, "a JSON object that is not a JSON-RPC message"],
  ] as const) {
    const from = peer.lines.length;
    peer.sendLine(line);
    const answer = await peer.waitFor(anyNullAnswer, Math.min(timeoutMs, 2000), from);
    const why = ctx.gone();
    if (why !== undefined) return void card.all([id, "ACP-JSONRPC-005"], fail(`the client ${why} after ${what}`));
    card.score(
      id,
      answer !== undefined && nullAnswer(code)(answer)
        ? pass
        : fail(answer === undefined ? `check's agent sent ${what} (${line}) and got no error answer with id null (expected ${code})` : `check's agent sent ${what} (${line}) and the client answered ${quoteText(answer.text)}, not ${code} with id null`),
    );
  }
  const again = await peer.request("_acp-router.check/ping", { probe: "again" }, timeoutMs);
  card.score("ACP-JSONRPC-005", again !== undefined ? pass : ctx.gone() !== undefined ? fail(`the client ${String(ctx.gone())} after the erroneous lines`) : fail(`after the erroneous lines a request got no answer within ${s}`));
  if (ctx.version === 2 && ctx.gone() === undefined) await batchProbes(ctx);
}

/** The rows {@link batchProbes} judges (v2: a receiver accepts JSON-RPC batches). */
export const BATCH_ROWS = ["ACP-JSONRPC-305", "ACP-JSONRPC-306", "ACP-JSONRPC-307", "ACP-JSONRPC-308", "ACP-JSONRPC-309", "ACP-JSONRPC-312"] as const;

const jsonArray = (text: string): unknown[] | undefined => {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
};
const isNullInvalid = (m: unknown) => typeof m === "object" && m !== null && (m as { id?: unknown }).id === null && errorCodeOf(m as Record<string, unknown>) === ErrorCode.InvalidRequest;

/**
 * v2 batches, as the v2 transports page has a receiver treat them: an empty
 * array gets one -32600 with id null (not an array); a batch of
 * notifications gets nothing; a request and a notification get one array
 * holding the request's response only; an invalid entry gets its own -32600
 * with id null inside the array, and does not spoil the valid request.
 */
async function batchProbes(ctx: TurnContext): Promise<void> {
  const { peer, card } = ctx;
  const wait = Math.min(ctx.timeoutMs, 2000);
  const answerLine = (l: { body: Record<string, unknown> | undefined; text: string }) => jsonArray(l.text) !== undefined || (l.body !== undefined && l.body.method === undefined);
  const note = { jsonrpc: "2.0", method: "_acp-router.check/note", params: { batch: true } };
  const ping = (id: string) => ({ jsonrpc: "2.0", id, method: "_acp-router.check/ping", params: { batch: true } });
  const send = async (batch: string, ms = wait) => {
    const from = peer.lines.length;
    peer.sendLine(batch);
    return peer.waitFor(answerLine, ms, from);
  };
  const gone = () => {
    const why = ctx.gone();
    if (why !== undefined)
      card.all(
        BATCH_ROWS.filter((id) => !card.has(id)),
        fail(`the client ${why} after a JSON-RPC batch`),
      );
    return why !== undefined;
  };
  const empty = await send("[]");
  if (gone()) return;
  card.score(
    "ACP-JSONRPC-305",
    empty !== undefined && empty.body !== undefined && isNullInvalid(empty.body) ? pass : fail(empty === undefined ? "an empty batch [] got no answer (one -32600 with id null is due)" : `an empty batch [] was answered ${quoteText(empty.text)}, not one -32600 with id null`),
  );
  const notes = await send(JSON.stringify([note, note]), 500);
  if (gone()) return;
  // The row forbids returning an empty array for an all-notification batch; another answer (a refusal of the whole batch) is noted.
  const notesArray = notes !== undefined ? jsonArray(notes.text) : undefined;
  if (notes !== undefined && notesArray?.length !== 0) card.notes.push(`ACP-JSONRPC-308: a batch of two notifications was answered ${quoteText(notes.text)}: not the empty array the row forbids, so noted`);
  card.score(
    "ACP-JSONRPC-312",
    notesArray !== undefined && notesArray.length > 0 ? fail(`check's agent sent a batch of two notifications (${quoteText(JSON.stringify([note, note]))}); the client answered with an array holding a Response object for a notification: ${quoteText(notes?.text ?? "")}`) : pass,
  );
  card.score("ACP-JSONRPC-308", notesArray?.length === 0 ? fail(`check's agent sent a batch of two notifications (${quoteText(JSON.stringify([note, note]))}); the client answered with an empty array`) : pass);
  const mixed = await send(JSON.stringify([ping("check-batch-1"), note]));
  if (gone()) return;
  const items = mixed !== undefined ? jsonArray(mixed.text) : undefined;
  if (mixed === undefined) card.all(["ACP-JSONRPC-306", "ACP-JSONRPC-307"], fail("a batch of a request and a notification got no answer"));
  else {
    card.score("ACP-JSONRPC-306", items !== undefined && items.some((m) => (m as { id?: unknown } | null)?.id === "check-batch-1") ? pass : fail(`a batch of a request and a notification was answered ${quoteText(mixed.text)}, not one array holding the request's response`));
    // A reply to the notification is an extra entry of the answer array; one error with id null refuses the whole batch (ACP-JSONRPC-306), it answers no notification.
    const extra = (items ?? []).filter((m) => (m as { id?: unknown } | null)?.id !== "check-batch-1");
    card.score("ACP-JSONRPC-307", extra.length === 0 ? pass : fail(`the notification within a batch was answered: ${quoteText(JSON.stringify(extra[0]))}`));
  }
  const invalid = await send(JSON.stringify([ping("check-batch-2"), 42]));
  if (gone()) return;
  const got = invalid !== undefined ? jsonArray(invalid.text) : undefined;
  const ok = got !== undefined && got.some((m) => (m as { id?: unknown } | null)?.id === "check-batch-2") && got.some(isNullInvalid);
  card.score("ACP-JSONRPC-309", ok ? pass : fail(invalid === undefined ? "a batch of a request and the number 42 got no answer" : `a batch of a request and the number 42 was answered ${quoteText(invalid.text)}, not an array with the request's response and a -32600 with id null`));
}
