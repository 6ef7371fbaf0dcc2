/**
 * The request-id probes of `check --client` (tools/inspect/ids.ts holds the
 * policy), run from the updates turn: check's agent sends the client one
 * unknown `_` request per id token and reads the answer. Ids every JSON
 * implementation holds (2^53−1, −(2^53−1), 0, a string) judge the MUST that
 * a response repeats its request's id (ACP-JSONRPC-001; v2 ACP-JSONRPC-302):
 * the same id passes, another id or id null fails. Ids beyond ±(2^53−1) are
 * interoperability findings in their own section, never a verdict, unless
 * `--strict-ids`. No answer at all is left to the unknown-request rows
 * (ACP-EXT-001, judged by the ping) and noted. Each answer's line is marked
 * judged, so judge.ts does not charge it again as "an answer naming no
 * request" (2^53+1 parses to 2^53).
 */
import { fail, notRun, pass } from "../check/score.ts";
import { quoteText } from "../check/kit.ts";
import { describeEcho, interoperabilitySection } from "../check/probes-ids.ts";
import type { Finding } from "../check/sections.ts";
import { BEYOND_SAFE_IDS, HOLDABLE_IDS, judgeIdToken } from "../inspect/ids.ts";
import type { TurnContext } from "./turn-context.ts";

/** The method of the id probes: an unknown `_` request, which every client answers (-32601). */
export const ID_METHOD = "_acp-router.check/id";

/** Sends one request with the id `token`; resolves with the line sent and the client's answer line, if any. */
async function ask(ctx: TurnContext, token: string, wait: number) {
  const answer = await ctx.peer.requestRaw(token, ID_METHOD, { probe: "id" }, wait);
  const sent = ctx.peer.raw.at(-1)?.line ?? "";
  return { sent, answer, evidence: `check's agent sent ${quoteText(sent)}; ${answer === undefined ? "no answer came" : `the client answered ${quoteText(answer.text)}`}` };
}

/** Runs the id probes; false when the client went away during them (the caller stops its probes). */
export async function idProbes(ctx: TurnContext): Promise<boolean> {
  const { card } = ctx;
  const wait = Math.min(ctx.timeoutMs, 2000);
  for (const token of HOLDABLE_IDS) {
    const { answer, evidence } = await ask(ctx, token, wait);
    if (answer?.body === undefined) {
      const why = ctx.gone();
      if (why !== undefined) {
        card.score("ACP-JSONRPC-001", notRun(`the client ${why} after the id probe: ${evidence}`));
        return false;
      }
      card.notes.push(`ACP-JSONRPC-001: ${evidence} within ${wait} ms (neither its id nor an error with id null)`);
      continue;
    }
    const echo = judgeIdToken(token, answer.text, answer.body);
    card.score("ACP-JSONRPC-001", echo.kind === "exact" ? pass : fail(`${evidence}: the answer's id is ${echo.kind === "refused" ? "null" : echo.answered}, not ${token}, an id every JSON implementation holds exactly`));
  }
  const findings: Finding[] = [];
  for (const token of BEYOND_SAFE_IDS) {
    const { answer, evidence } = await ask(ctx, token, wait);
    const echo = answer?.body === undefined ? undefined : judgeIdToken(token, answer.text, answer.body);
    findings.push({ id: `id ${token}`, outcome: describeEcho(echo), evidence });
    if (ctx.strictIds) card.score("ACP-JSONRPC-001", echo?.kind === "exact" ? pass : fail(`--strict-ids (the schema's int64 annotation read as part of the MUST): ${evidence}: ${describeEcho(echo)}, not the same digits`));
    if (ctx.gone() !== undefined) break;
  }
  card.sections.push(interoperabilitySection(findings));
  return ctx.gone() === undefined;
}
