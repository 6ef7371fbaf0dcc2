/**
 * The cancel run's request left pending through the client's shutdown (`check --client`, ACP-CANCEL-109): how the
 * client answered a terminal/wait_for_exit still running when it shut down.
 */
import { ErrorCode } from "../../src/errors.ts";
import { quoteText } from "../check/kit.ts";
import { fail, na, pass, type Scorecard } from "../check/score.ts";
import type { RunResult } from "./run.ts";

const ms = (n: number) => `${Math.round(n)} ms`;

/**
 * Scores ACP-CANCEL-109 on the cancel run, where check's agent left a
 * terminal/wait_for_exit pending through the cancel and the client's
 * shutdown (permission.ts, holdTerminal, has the decision): -32800 passes;
 * another error fails; an exit status is a completed request (n/a); no
 * answer before the client closed the connection or exited fails (a request
 * cancelled by shutdown); no answer and no shutdown before the run's bound is
 * n/a (check ended the client).
 */
export function judgeInternalCancel(card: Scorecard, run: RunResult): void {
  const wait = run.peer.sent.find((r) => r.method === "terminal/wait_for_exit");
  if (wait === undefined) return;
  const { peer } = run;
  const answer = peer.lines.find((l) => l.body !== undefined && l.body.method === undefined && l.body.id === wait.id && ("result" in l.body || "error" in l.body));
  const cancelled = run.handshake.cancels.length > 0 ? ", the user cancelled the turn (SIGINT, then the client's session/cancel)" : "";
  const lead = `check's agent sent ${quoteText(wait.line)} for a command that runs until the client ends it${cancelled}, and ended the turn with it pending`;
  if (answer?.body !== undefined) {
    const code = (answer.body.error as { code?: unknown } | undefined)?.code;
    if ("result" in answer.body) card.score("ACP-CANCEL-109", na(`${lead}; the client answered it with an exit status, ${quoteText(answer.text)}: it completed the request rather than cancelling it`));
    else card.score("ACP-CANCEL-109", code === ErrorCode.RequestCancelled ? pass : fail(`${lead}; the client answered it ${quoteText(answer.text)}, not -32800 (a request cancelled internally should be answered -32800)`));
    return;
  }
  if (peer.eofAt === undefined && run.ended) return void card.score("ACP-CANCEL-109", na(`${lead}; the client neither answered it nor shut down before the run's bound, where check ended it`));
  const how = peer.eofAt !== undefined ? `closed the agent's stdin ${ms(peer.eofAt - wait.t)} after it was sent` : peer.droppedAt !== undefined ? "dropped the agent's connection" : "exited";
  card.score("ACP-CANCEL-109", fail(`${lead}; the client then ${how} without ever answering it: a request cancelled by shutdown should be answered -32800`));
}
