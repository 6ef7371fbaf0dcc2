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
 * id with no v2 counterpart is kept as a note, except a schema finding: a
 * message that the v2 schema refuses breaks ACP-INIT-382, "agree on a
 * protocol version and act according to its specification", with the line
 * quoted. On either version a schema finding that the schema's own leniency
 * (`x-deserialize-*`) repairs is a note: the schema itself tells receivers
 * to accept it.
 */
import type { AgentLine } from "./driver.ts";
import { exchange, quote, type Run } from "./kit.ts";
import { fail, pass } from "./score.ts";
import { describeErrors, paramsShape, resultShape } from "./schema-shape.ts";

/**
 * The agent's line quoted, after what check sent that it answers: the request with its id, or for an answer without a
 * usable id the last line check wrote before it.
 */
export function provoked(run: Run, line: AgentLine): string {
  const { d } = run;
  const body = line.body;
  if (body === undefined || body.method !== undefined) return `the agent sent ${quote(d, line)}`;
  const id = body.id;
  if (typeof id === "number" || typeof id === "string") return exchange(d, d.sentLine(id), line);
  // No usable id: what it answers is known only when the answer names the line (some agents put it in error.data.line);
  // otherwise the last line check wrote before it is named as that, not as what it answers.
  const data = (body.error as { data?: { line?: unknown } } | undefined)?.data;
  const named = typeof data?.line === "string" ? [...d.written].reverse().find((w) => w.index < line.index && w.text === data.line) : undefined;
  if (named !== undefined) return exchange(d, named, line);
  const before = [...d.written].reverse().find((w) => w.index < line.index);
  return `the agent sent ${quote(d, line)}, an answer with no usable id${before === undefined ? "" : ` (the last line check had written before it: ${quote(d, before)})`}`;
}

/** A schema finding on `line`: the evidence when the schema of `version` refuses it beyond its leniency, "note" when the leniency repairs it. */
function schemaVerdict(run: Run, line: AgentLine, version: 1 | 2): string | "note" | undefined {
  const body = line.body;
  if (body === undefined) return undefined;
  const method = typeof body.method === "string" ? body.method : typeof body.id === "number" ? run.d.sent.get(body.id) : undefined;
  if (method === undefined) return undefined;
  const shape = typeof body.method === "string" ? paramsShape(version, method, body.id === undefined ? "notification" : "request", body.params) : resultShape(version, method, body.result);
  if (shape === undefined || shape.errors.length === 0) return undefined;
  if (shape.repairable) return "note";
  return `${provoked(run, line)}: not a v${version} ${shape.type} (${describeErrors(shape.errors)})`;
}

/** v1 ids the monitor may report on a v2 run, and their v2 counterparts. */
const V2_OF: ReadonlyMap<string, string> = new Map([
  ["ACP-TRANSPORT-001", "ACP-TRANSPORT-303"],
  ["ACP-TRANSPORT-203", "ACP-TRANSPORT-302"],
  ["ACP-JSONRPC-001", "ACP-JSONRPC-302"],
  ["ACP-JSONRPC-003", "ACP-JSONRPC-307"],
  ["ACP-EXT-001", "ACP-EXT-302"],
  ["ACP-EXT-201", "ACP-EXT-303"],
  ["ACP-CANCEL-105", "ACP-CANCEL-303"],
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
      const line = d.lines.find((l) => l.index === v.index);
      const mapped = v2 && !listed.has(v.requirement) ? V2_OF.get(v.requirement) : v.requirement;
      const schema = v.rule === "schema" && line !== undefined ? schemaVerdict(run, line, v2 ? 2 : 1) : undefined;
      // A v2 schema finding with no v2 row of its own breaks ACP-INIT-382 (the version's specification, of which the schema is part).
      const id = schema === "note" ? undefined : v2 && v.rule === "schema" && mapped === undefined && schema !== undefined ? "ACP-INIT-382" : mapped;
      if (id !== undefined && listed.has(id) && schema !== undefined) card.score(id, fail(schema));
      else if (id === undefined || !listed.has(id)) card.notes.push(`inspect rule ${v.rule} (${v.requirement}): ${v.message}${schema === "note" ? " (the schema's own leniency repairs it: a receiver accepts it, so it is noted)" : ""}`);
      else {
        // The agent's line the finding is about, as the traffic evidence, after what check sent that it answers.
        card.score(id, fail(line === undefined ? v.message : v.message.includes(line.text) ? v.message : `${v.message}: ${provoked(run, line)}`));
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
