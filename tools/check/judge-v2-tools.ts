/**
 * The v2 rows tool calls decide, read from the whole traffic: titles, kinds
 * and statuses, the cancel capability of finished calls, commands asked
 * permission for, terminals (cwd, ids kept, commands), git patches and
 * absolute paths.
 */
import { isAbsolute } from "node:path";
import type { AgentLine } from "./driver.ts";
import { quote, type Run } from "./kit.ts";
import { fail, na, pass } from "./score.ts";
import { isObj, type Obj } from "./depth-kit.ts";
import { arr, each, known, ofKind, openEnum, type EnumTally } from "./judge-v2-kit.ts";

/** Judges the tool-call, terminal, diff and path rows of the v2 traffic. */
export function judgeV2Tools(run: Run, lines: readonly AgentLine[], tally: EnumTally): void {
  // Tool calls, terminals, diffs.
  const tools = ofKind(lines, "tool_call_update").map((x) => ({ ...x, line: x.l }));
  const firstReport = tools.filter((t, i) => tools.findIndex((o) => o.u.toolCallId === t.u.toolCallId) === i);
  each(run, "ACP-TOOL-302", firstReport, "the agent reported no tool call", (t) => (typeof t.u.title === "string" && t.u.title !== "" ? undefined : `the first report of tool call ${JSON.stringify(t.u.toolCallId)} has no title`));
  openEnum(
    run,
    "ACP-TOOL-304",
    "tool kind",
    tools.map((t) => ({ value: t.u.kind, line: t.l })),
    known("ToolKind"),
    tally,
  );
  openEnum(
    run,
    "ACP-TOOL-305",
    "tool call status",
    tools.map((t) => ({ value: t.u.status, line: t.l })),
    known("ToolCallStatus"),
    tally,
  );
  const finals = new Set(["completed", "failed", "cancelled"]);
  each(
    run,
    "ACP-CANCEL-317",
    tools.filter((t) => finals.has(String(t.u.status))),
    "no tool call reached a final status",
    (t) => (isObj(t.u.capabilities) && t.u.capabilities.cancel !== undefined && t.u.capabilities.cancel !== null ? "a tool call in a final status still advertises capabilities.cancel" : undefined),
  );
  const locations = tools.flatMap((t) => arr(t.u.locations).map((loc) => ({ loc, line: t.l })));
  const terminals = ofKind(lines, "terminal_update").map((x) => ({ ...x, line: x.l }));
  const subjects = lines
    .filter((l) => l.body?.method === "session/request_permission")
    .flatMap((l) => {
      const subject = isObj(l.body?.params) ? (l.body.params as Obj).subject : undefined;
      return isObj(subject) && subject.type === "command" ? [{ subject, line: l }] : [];
    });
  each(run, "ACP-TOOL-306", subjects, "the agent asked no permission for a command", (x) => (typeof x.subject.cwd === "string" && isAbsolute(x.subject.cwd) ? undefined : `a command permission subject's cwd ${JSON.stringify(x.subject.cwd)} is not absolute`));
  each(
    run,
    "ACP-TERM-303",
    terminals.filter((t) => t.u.cwd !== undefined && t.u.cwd !== null),
    "no terminal update gave a cwd",
    (t) => (typeof t.u.cwd === "string" && isAbsolute(t.u.cwd) ? undefined : `a terminal cwd ${JSON.stringify(t.u.cwd)} is not absolute`),
  );
  // A terminal id stays one terminal's: after its exit, an update naming another command under the same id reuses it.
  const exited = new Map<unknown, unknown>();
  const reused = terminals.find((t) => {
    const was = exited.get(t.u.terminalId);
    if (t.u.exitStatus !== undefined && t.u.exitStatus !== null) exited.set(t.u.terminalId, JSON.stringify(t.u.command ?? null));
    return was !== undefined && t.u.command !== undefined && t.u.command !== null && JSON.stringify(t.u.command) !== was;
  });
  run.card.score("ACP-TERM-301", terminals.length === 0 ? na("the agent reported no terminal") : reused === undefined ? pass : fail(`terminal ${JSON.stringify(reused.u.terminalId)} exited and its id came back for another command: ${quote(run.d, reused.l)}`));
  const firstTerminal = terminals.filter((t, i) => terminals.findIndex((o) => o.u.terminalId === t.u.terminalId) === i);
  each(run, "ACP-TERM-302", firstTerminal, "the agent reported no terminal", (t) => (typeof t.u.command === "string" || (isObj(t.u.command) && Object.keys(t.u.command).length > 0) ? undefined : `the first update of terminal ${JSON.stringify(t.u.terminalId)} gives no command`));
  const patches = tools.flatMap((t) =>
    arr(t.u.content)
      .filter((c) => c.type === "diff")
      .flatMap((c) => (isObj(c.patch) && typeof c.patch.text === "string" ? [{ text: c.patch.text, line: t.l }] : [])),
  );
  each(run, "ACP-DIFF-304", patches, "the agent sent no git patch", (p) => (/^(?:diff --git (?!\/)|--- a\/|\+\+\+ b\/|rename (?:from|to) (?!\/)|copy (?:from|to) (?!\/))/m.test(p.text) ? "a git patch path is not absolute or carries a/ or b/" : undefined));
  each(run, "ACP-DIFF-305", patches, "the agent sent no git patch", (p) => (/^(?:From [0-9a-f]{7,} |Subject: |Date: )/m.test(p.text) ? "a git patch carries commit metadata or an email envelope" : undefined));
  const paths = [...locations.filter((x) => typeof x.loc.path === "string").map((x) => ({ path: x.loc.path, line: x.line })), ...patches.flatMap((p) => [...p.text.matchAll(/^diff --git (\S+)/gm)].map((m) => ({ path: m[1], line: p.line })))];
  each(run, "ACP-PATH-301", paths, "the agent sent no file path (tool call locations, patches)", (x) => (typeof x.path === "string" && isAbsolute(x.path) ? undefined : `the path ${JSON.stringify(x.path)} is not absolute`));
}
