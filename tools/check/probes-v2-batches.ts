/**
 * The v2 batch probes of `check` (transports.mdx's batch rules): an empty batch gets one -32600 with id null
 * (ACP-JSONRPC-305), a batch of two requests one array of both responses (306), a batch of notifications only no
 * empty array (308) and no Response object for a notification (312), and a batch with an invalid entry an array
 * with a -32600 for it and the request's response (309). A refusal of the whole batch (one error with id null, the
 * official SDK's "JSON-RPC batches are not supported") is seen as the batch's answer.
 */
import type { AgentLine } from "./driver.ts";
import { answerOf, errorCode, exchange, type Run, silent, step, withSentinel } from "./kit.ts";
import { fail, pass } from "./score.ts";
import { ErrorCode } from "../../src/errors.ts";

/** The rows the batch probes score. */
export const BATCH_ROWS = ["ACP-JSONRPC-305", "ACP-JSONRPC-306", "ACP-JSONRPC-308", "ACP-JSONRPC-309", "ACP-JSONRPC-312"];

/** The agent's line as a JSON array, or undefined. */
const array = (l: AgentLine): unknown[] | undefined => {
  try {
    const v = JSON.parse(l.text) as unknown;
    return Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
};

/** Sends the batches and scores the batch rows. */
export async function batchProbes(run: Run): Promise<void> {
  const { d, card } = run;
  await step(run, "batches", BATCH_ROWS, async () => {
    // A refusal of the whole batch is one error with id null (the official SDK's "JSON-RPC batches are not supported").
    const refusal = (l: AgentLine) => l.body?.id === null && l.body.method === undefined;
    const batch = async (text: string, ids: readonly number[], wait: (l: AgentLine) => boolean) => {
      const from = d.lines.length;
      const at = d.written.length;
      d.write(`${text}\n`);
      const answer = await d.waitFor((l) => array(l) !== undefined || refusal(l) || ids.some((id) => answerOf(id)(l)) || wait(l), d.timeout, from);
      return { answer, sent: d.written[at] };
    };
    const empty = await withSentinel(
      run,
      () => d.write("[]\n"),
      (l) => array(l) !== undefined || refusal(l),
    );
    const e = empty.found[0];
    const sentEmpty = d.written.find((w) => w.text === "[]");
    card.score(
      "ACP-JSONRPC-305",
      e === undefined
        ? fail(`${exchange(d, sentEmpty, undefined)}${empty.sentinel !== undefined ? ", while the request check sent after it was answered" : ""}; an empty array gets one -32600 with id null`)
        : array(e) !== undefined
          ? fail(`${exchange(d, sentEmpty, e)}: an array, not one -32600 with id null`)
          : errorCode(e.body) === ErrorCode.InvalidRequest
            ? pass
            : fail(`${exchange(d, sentEmpty, e)}: not -32600`),
    );
    const two = `[{"jsonrpc":"2.0","id":5001,"method":"_acp-router.check/a","params":{}},{"jsonrpc":"2.0","id":5002,"method":"_acp-router.check/b","params":{}}]`;
    const both = await batch(two, [5001, 5002], () => false);
    const items = both.answer === undefined ? undefined : array(both.answer);
    card.score("ACP-JSONRPC-306", both.answer === undefined ? silent(run, "ACP-JSONRPC-306", 5001, `${exchange(d, both.sent, undefined)} (a batch of two requests)`) : items?.length === 2 ? pass : fail(`${exchange(d, both.sent, both.answer)}: not one array of the two responses`));
    const notes = '[{"jsonrpc":"2.0","method":"_acp-router.check/note","params":{}}]';
    const quiet = await withSentinel(
      run,
      () => d.write(`${notes}\n`),
      (l) => array(l) !== undefined || (l.body?.method === undefined && (l.body?.id === null || l.body?.id === undefined)),
    );
    // The row forbids the empty array; another answer to the whole batch (a refusal of batches) is not that, and is noted.
    const got = quiet.found[0];
    const sentNotes = d.written.find((w) => w.text === notes);
    if (got !== undefined && array(got)?.length !== 0) card.notes.push(`ACP-JSONRPC-308: ${exchange(d, sentNotes, got)}: not the empty array the row forbids, so noted`);
    card.score("ACP-JSONRPC-308", got === undefined || array(got)?.length !== 0 ? pass : fail(`${exchange(d, sentNotes, got)}: an empty array for a batch of notifications only`));
    const mixed = await batch(`[1,{"jsonrpc":"2.0","id":5003,"method":"_acp-router.check/c","params":{}}]`, [5003], () => false);
    const entries = mixed.answer === undefined ? undefined : array(mixed.answer);
    const invalid = entries?.some((x) => (x as { id?: unknown; error?: { code?: unknown } }).id === null && (x as { error?: { code?: unknown } }).error?.code === ErrorCode.InvalidRequest);
    card.score(
      "ACP-JSONRPC-309",
      mixed.answer === undefined
        ? silent(run, "ACP-JSONRPC-309", 5003, `${exchange(d, mixed.sent, undefined)} (a batch with an invalid entry)`)
        : invalid === true && entries!.length === 2
          ? pass
          : fail(`${exchange(d, mixed.sent, mixed.answer)}${refusal(mixed.answer) ? ": a refusal of the whole batch" : ""}, not an array with a -32600 for the invalid entry and the request's response`),
    );
    // A batch answer holds no Response object for a notification (transports.mdx:65): the notifications-only batch above.
    const entries308 = got === undefined ? undefined : array(got);
    card.score("ACP-JSONRPC-312", got === undefined || entries308 === undefined || entries308.length === 0 ? pass : fail(`${exchange(d, sentNotes, got)}: an answer array holding a Response object for a notification`));
    // An agent whose initialize answer is not v2's speaks another version: its batch rows follow from that one fact.
    if (run.notV2 !== undefined) for (const id of ["ACP-JSONRPC-305", "ACP-JSONRPC-306"]) card.link(id, "ACP-INIT-382", "the agent answered protocol 2 with a v1 InitializeResponse, and v1 has no batches");
  });
}
