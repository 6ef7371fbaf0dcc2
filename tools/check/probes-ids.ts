/**
 * The request-id probes of `check` (tools/inspect/ids.ts holds the policy).
 * Each sends one unknown `_` request with a chosen id token and reads the
 * first answer that comes back:
 *
 * - ids every JSON implementation holds exactly ({@link HOLDABLE_IDS}:
 *   2^53−1, −(2^53−1), 0 and a string) judge the MUST that a response
 *   repeats its request's id (ACP-JSONRPC-001, v2 ACP-JSONRPC-302): the same
 *   id passes; another id, or id null, fails with both lines quoted;
 * - ids beyond ±(2^53−1) ({@link BEYOND_SAFE_IDS}) are interoperability
 *   findings, in a section of their own (sections.ts), never a verdict;
 *   `--strict-ids` also judges them on the row: the same digits pass,
 *   anything else fails.
 *
 * The answer lines are marked judged, so inspect's monitor does not charge
 * them again.
 */
import type { AgentLine } from "./driver.ts";
import { exchange, quote, silent, withSentinel, type Run } from "./kit.ts";
import { fail, pass } from "./score.ts";
import type { Finding, ReportSection } from "./sections.ts";
import { BEYOND_SAFE_IDS, HOLDABLE_IDS, INTEROPERABLE_IDS_ABOUT, judgeIdToken, type IdEcho } from "../inspect/ids.ts";

/** The method of the id probes: an unknown `_` request, which every receiver answers (-32601). */
export const ID_PROBE_METHOD = "_acp-router.check/id";

/** The key of the interoperability section. */
export const INTEROPERABILITY = "interoperability";

/** The interoperability section for `findings` (ids beyond ±(2^53−1)), in the words of the id policy. */
export function interoperabilitySection(findings: readonly Finding[]): ReportSection {
  return { id: INTEROPERABILITY, title: "Interoperability findings", about: INTEROPERABLE_IDS_ABOUT, findings };
}

/** How an answer to an id beyond the safe range reads, for the finding. */
export function describeEcho(echo: IdEcho | undefined): string {
  if (echo === undefined) return "no answer";
  if (echo.kind === "exact") return "answered with the same digits";
  if (echo.kind === "refused") return "refused with an error and id null (acp-router's own policy for an id it cannot hold; the spec names none)";
  return `answered with id ${echo.answered}`;
}

/**
 * Sends one request with the id `token`, then a sentinel request; resolves with the line written and the first answer
 * that is not to a request of check's own counter (the probe's is the only other one pending). An agent that answers
 * in order has answered the probe by the time it answers the sentinel; the quiet window covers one that does not.
 */
async function sendWithId(run: Run, token: string): Promise<{ sent: { text: string; index: number }; answer: AgentLine | undefined; sentinel: boolean }> {
  const { d } = run;
  const at = d.written.length;
  const sentAt = d.now();
  const { found, sentinel } = await withSentinel(
    run,
    () => d.write(`{"jsonrpc":"2.0","id":${token},"method":${JSON.stringify(ID_PROBE_METHOD)},"params":{}}\n`),
    (l) => l.body !== undefined && l.body.method === undefined && !(typeof l.body.id === "number" && d.sent.has(l.body.id)),
  );
  const sent = d.written[at] ?? { text: "", index: -1 };
  const answer = found[0];
  // Unanswered within the wait: looked up again at the end of the run, where a late answer withdraws the silence's fail.
  if (answer === undefined) d.unanswered.push({ id: JSON.parse(token) as number | string, method: ID_PROBE_METHOD, sent: sentAt, waited: d.now() - sentAt });
  return { sent, answer, sentinel: sentinel !== undefined };
}

/** Runs the id probes, scoring `row` (the protocol's id-echo requirement); `strict` is `--strict-ids`. */
export async function idProbes(run: Run, row: string, strict: boolean): Promise<void> {
  const { d, card } = run;
  for (const token of HOLDABLE_IDS) {
    const { sent, answer, sentinel } = await sendWithId(run, token);
    if (answer === undefined) {
      const id = JSON.parse(token) as number | string;
      if (!sentinel) card.score(row, silent(run, row, id, `check sent ${quote(d, sent)}; no answer to it nor to the request sent after it`));
      else {
        // Answered out of order later: the end of the run looks again, and a late answer withdraws this fail.
        const evidence = `check sent ${quote(d, sent)}; no answer came, while the request check sent after it was answered`;
        run.watched.push({ row, id, evidence });
        card.score(row, fail(evidence));
      }
      continue;
    }
    const echo = judgeIdToken(token, answer.text, answer.body ?? {});
    card.score(row, echo.kind === "exact" ? pass : fail(`${exchange(d, sent, answer)}: the answer's id is ${echo.kind === "refused" ? "null" : echo.answered}, not ${token}, an id every JSON implementation holds exactly`));
  }
  const findings: Finding[] = [];
  for (const token of BEYOND_SAFE_IDS) {
    // A silence is a finding too, not a fail (unless --strict-ids).
    const { sent, answer } = await sendWithId(run, token);
    const echo = answer === undefined ? undefined : judgeIdToken(token, answer.text, answer.body ?? {});
    const evidence = exchange(d, sent, answer);
    findings.push({ id: `id ${token}`, outcome: describeEcho(echo), evidence });
    if (strict) card.score(row, echo?.kind === "exact" ? pass : fail(`--strict-ids (the schema's int64 annotation read as part of the MUST): ${evidence}: ${describeEcho(echo)}, not the same digits`));
  }
  card.sections.push(interoperabilitySection(findings));
}
