/**
 * What inspect's monitor saw during a `check` run, turned into rows: each
 * violation by the agent fails its requirement (with the monitor's
 * message); check's own hostile lines are the client's and never count.
 * Rows only the traffic can judge pass when the traffic exercised them and
 * the monitor found nothing: the agent's stdout (every line is a message),
 * answers (result or error, never both) and error objects. ACP-AUTH-005 is
 * scored by the session/new probe itself, so the monitor's copy is left out,
 * and so are its findings on the answers to check's hostile lines, which the
 * probes judged (an id-only message answered -32600 with its id is right).
 * For a v2 run the monitor must have used a v2 table; a finding under a v1
 * id with no v2 counterpart is kept as a note.
 */
import type { Run } from "./kit.ts";
import { fail, pass } from "./score.ts";

/** v1 ids the monitor may report on a v2 run, and their v2 counterparts. */
const V2_OF: ReadonlyMap<string, string> = new Map([
  ["ACP-TRANSPORT-001", "ACP-TRANSPORT-303"], ["ACP-TRANSPORT-203", "ACP-TRANSPORT-302"], ["ACP-JSONRPC-001", "ACP-JSONRPC-302"],
  ["ACP-JSONRPC-003", "ACP-JSONRPC-307"], ["ACP-EXT-001", "ACP-EXT-302"], ["ACP-EXT-201", "ACP-EXT-303"], ["ACP-CANCEL-105", "ACP-CANCEL-303"],
]);

export function fromMonitor(run: Run): void {
  const { d, card } = run;
  const v2 = card.checklist.version === 2;
  const table = d.monitor.state.table;
  if (v2 && table.version !== 2) {
    card.notes.push(`inspect's rules validated this v2 traffic with the ${table.name} table (no v2 table here): their findings are left out`);
  } else {
    const listed = new Set(card.checklist.entries.map((e) => e.id));
    for (const v of d.monitor.violations) {
      // ACP-AUTH-005 and a cancelled prompt's stop reason are judged by check's own probes (session/new, cancel), with their evidence.
      if (v.by !== "agent" || v.requirement === "ACP-AUTH-005" || v.rule === "cancelled-prompt-stop-reason" || run.judged.has(v.index)) continue;
      // An update for a session no answer introduced breaks no sentence of ACP-SESSION-001 ("session/new answers with a session id"), nor any
      // other requirement with a keyword: a note (the agent may share state across processes, or report on a session it just dropped).
      if (v.rule === "unknown-session") {
        card.notes.push(`an update for a session check never saw introduced (no requirement with a keyword forbids it; noted): ${v.message}`);
        continue;
      }
      const id = v2 && !listed.has(v.requirement) ? V2_OF.get(v.requirement) : v.requirement;
      if (id === undefined || !listed.has(id)) card.notes.push(`inspect rule ${v.rule} (${v.requirement}): ${v.message}`);
      else {
        // The agent's line the finding is about, as the traffic evidence (when the message does not quote it already).
        const line = d.lines.find((l) => l.index === v.index)?.text;
        card.score(id, fail(line !== undefined && !v.message.includes(line.slice(0, 40)) ? `${v.message}: ${line.slice(0, 200)}` : v.message));
      }
    }
    if (!v2) card.notes.push(`inspect's rules used the ${table.name} table`);
  }
  const answers = d.lines.filter((l) => l.body !== undefined && l.body.method === undefined);
  const rows = v2 ? { stdout: "ACP-TRANSPORT-303" } : { stdout: "ACP-TRANSPORT-001", answers: "ACP-JSONRPC-002", errors: "ACP-ERROR-101" };
  if (d.lines.length > 0) card.score(rows.stdout, pass);
  if ("answers" in rows && answers.length > 0) card.score(rows.answers, pass);
  if ("errors" in rows && answers.some((l) => l.body?.error !== undefined)) card.score(rows.errors, pass);
}
