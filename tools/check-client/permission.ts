/**
 * The permission and cancel turns of `check --client`: a permission request
 * that must get an outcome, then the fs and terminal requests the client
 * advertised (each answered, never -32601); and a running turn interrupted by
 * SIGINT to the client's process group, after which the client must send
 * session/cancel and answer a still-pending permission request `cancelled`.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { fail, na, notRun, pass } from "../check/score.ts";
import { describeError, errorCode, quoteText, seconds, show } from "../check/kit.ts";
import { ErrorCode } from "../../src/errors.ts";
import type { TurnStart } from "./agent.ts";
import { LIVENESS_MS, survived, update } from "./scenarios.ts";
import type { TurnContext } from "./turn-context.ts";

const PERMISSION_OPTIONS = [
  { optionId: "check-allow", name: "Allow", kind: "allow_once" },
  { optionId: "check-reject", name: "Reject", kind: "reject_once" },
];

/** The outcome of a permission answer, or why it is not one. */
function outcomeOf(answer: Record<string, unknown>): { ok: true; outcome: string } | { ok: false; why: string } {
  if (answer.error !== undefined) return { ok: false, why: `answered ${describeError(answer)}` };
  const outcome = (answer.result as { outcome?: { outcome?: unknown; optionId?: unknown } } | undefined)?.outcome;
  if (outcome?.outcome === "cancelled") return { ok: true, outcome: "cancelled" };
  if (outcome?.outcome === "selected" && PERMISSION_OPTIONS.some((o) => o.optionId === outcome.optionId)) return { ok: true, outcome: `selected ${String(outcome.optionId)}` };
  return { ok: false, why: `answered without an outcome naming an offered option: ${show(answer)}` };
}

/** session/request_permission params in the session's version (v2: a title instead of the tool call). */
const permissionParams = (start: TurnStart, toolCallId: string, title: string) => (start.version === 2 ? { sessionId: start.sessionId, title, options: PERMISSION_OPTIONS } : { sessionId: start.sessionId, toolCall: { toolCallId }, options: PERMISSION_OPTIONS });

/** A tool call shown running (v1: tool_call; v2 has only tool_call_update). */
const toolCall = (start: TurnStart, toolCallId: string, title: string, kind: string, status: string) => ({ sessionUpdate: start.version === 2 ? "tool_call_update" : "tool_call", toolCallId, title, kind, status });

export async function permissionTurn(ctx: TurnContext, start: TurnStart): Promise<"end_turn"> {
  const { peer, card, timeoutMs } = ctx;
  update(ctx, start.sessionId, toolCall(start, "check-perm-1", "Write check-client-probe.txt", "edit", "pending"));
  const answer = await peer.request("session/request_permission", permissionParams(start, "check-perm-1", "Write check-client-probe.txt"), timeoutMs);
  if (answer === undefined) card.score("ACP-PERM-103", ctx.gone() !== undefined ? notRun(`the client ${String(ctx.gone())}`) : fail(`session/request_permission got no answer within ${seconds(timeoutMs)}`));
  else {
    const o = outcomeOf(answer);
    card.score("ACP-PERM-103", o.ok ? pass : fail(`session/request_permission ${o.why}`));
    ctx.shared.permissionAnswered = o.ok;
  }
  update(ctx, start.sessionId, { sessionUpdate: "tool_call_update", toolCallId: "check-perm-1", status: "completed" });
  // v2 has no fs or terminal methods on the client.
  if (start.version === 1) await probeGated(ctx, start);
  return "end_turn";
}

/** fs/* and terminal/* requests the client advertised; each must be answered, and not with -32601. */
async function probeGated(ctx: TurnContext, start: TurnStart): Promise<void> {
  const { peer, card, timeoutMs, scratch } = ctx;
  const caps = start.capabilities;
  const fs = (caps.fs ?? {}) as { readTextFile?: unknown; writeTextFile?: unknown };
  const problems: string[] = [];
  let asked = 0;
  const ask = async (method: string, params: unknown) => {
    asked++;
    const a = await peer.request(method, { sessionId: start.sessionId, ...(params as object) }, timeoutMs);
    if (a === undefined) problems.push(`${method} got no answer within ${seconds(timeoutMs)}`);
    else if (errorCode(a) === ErrorCode.MethodNotFound) problems.push(`${method} was answered -32601 although the capability was advertised`);
    return a;
  };
  // The probe file lives in the session's cwd (a client may confine fs/* to it), under a name no project uses, and is
  // removed afterwards; in check's scratch folder when the session's cwd is not an absolute path.
  const home = typeof start.cwd === "string" && isAbsolute(start.cwd) && existsSync(start.cwd) ? start.cwd : scratch;
  const path = join(home, home === scratch ? "check-client-probe.txt" : `.acp-router-check-client-${process.pid}-${Date.now()}.txt`);
  const content = "written by acp-router check --client\n";
  try {
    if (fs.writeTextFile === true) {
      const existed = existsSync(path);
      const a = await ask("fs/write_text_file", { path, content });
      if (existed) card.score("ACP-FS-102", na(`the probe file ${path} existed before the probe`));
      else if (a?.result !== undefined) card.score("ACP-FS-102", existsSync(path) && readFileSync(path, "utf8") === content ? pass : fail(`fs/write_text_file of a new file ${path} succeeded but the file does not hold the content`));
      else if (a === undefined) card.score("ACP-FS-102", na("fs/write_text_file of a new file was answered nothing"));
      else {
        // The same write to a file that exists tells a client that cannot create files from one whose writes fail altogether.
        const existing = `${path}.existing`;
        writeFileSync(existing, "before\n");
        try {
          const b = await ask("fs/write_text_file", { path: existing, content });
          const wrote = b?.result !== undefined && readFileSync(existing, "utf8") === content;
          card.score(
            "ACP-FS-102",
            wrote
              ? fail(`check's agent sent fs/write_text_file {"path":${JSON.stringify(path)},…} for a file that did not exist and the client answered ${describeError(a)}; the same request for a file that existed was served (${show(b)}), so the client does not create a missing file`)
              : na(
                  `fs/write_text_file of a new file was answered ${describeError(a)}, and of an existing file ${b === undefined ? "nothing" : b.error !== undefined ? describeError(b) : "with a result that left the file unchanged"}: the client's writes fail altogether, so file creation cannot be judged`,
                ),
          );
        } finally {
          rmSync(existing, { force: true });
        }
      }
    } else card.score("ACP-FS-102", na("the client did not advertise fs.writeTextFile"));
    if (fs.readTextFile === true) await ask("fs/read_text_file", { path });
  } finally {
    if (home !== scratch) rmSync(path, { force: true });
  }
  if (caps.terminal === true) {
    const created = await ask("terminal/create", { command: "echo", args: ["acp-router check --client"], cwd: home });
    const terminalId = (created?.result as { terminalId?: unknown } | undefined)?.terminalId;
    if (typeof terminalId === "string") {
      for (const method of ["terminal/wait_for_exit", "terminal/output", "terminal/release"]) await ask(method, { terminalId });
    }
  }
  if (asked === 0) card.score("ACP-CLIENTCAP-103", na("the client advertised no fs or terminal capability"));
  else if (problems.length > 0 && ctx.gone() !== undefined) card.score("ACP-CLIENTCAP-103", notRun(`the client ${String(ctx.gone())}`));
  else card.score("ACP-CLIENTCAP-103", problems.length === 0 ? pass : fail(problems.join("; ")));
}

/**
 * The command check's agent runs in the client's terminal for ACP-CANCEL-109:
 * this Node, holding on until the process that started it is gone (the client,
 * which ends its terminals as it shuts down, or forgets them), and at most
 * `boundMs` (longer than a run's bound), so it never outlives a check. It
 * ignores SIGINT: the user's Ctrl-C reaches the client's whole process group,
 * its terminal commands too, and this one must outlast the cancel.
 */
export const holdCommand = (boundMs: number): { command: string; args: string[] } => ({
  command: process.execPath,
  args: ["-e", `process.on("SIGINT",()=>{});const p=process.ppid;setInterval(()=>{try{process.kill(p,0)}catch{process.exit(0)}},250);setTimeout(()=>process.exit(0),${Math.round(boundMs)})`],
});

/**
 * ACP-CANCEL-109 on the client ("a request cancelled internally (timeout,
 * shutdown, resource limits) should also be answered -32800"): for a v1 client
 * that advertised terminal, check's agent starts a command that runs until
 * the client ends it and sends terminal/wait_for_exit for it before the
 * SIGINT, then never kills the terminal and ends the turn `cancelled` with
 * that request still pending; the client then shuts down as usual. The
 * request is the client's to end, and judgeInternalCancel (judge.ts) reads
 * what became of it. Decision, from the row's own list of causes (shutdown is
 * one): a client that closes the connection or exits with the request never
 * answered has cancelled it by shutdown without the -32800, so the SHOULD
 * fails; -32800 passes; another error fails; an exit status (the client killed
 * the command and reported it) is a completed request, n/a; a client still
 * holding the request when check ends the run at its bound cancelled nothing
 * itself, n/a.
 */
async function holdTerminal(ctx: TurnContext, start: TurnStart): Promise<void> {
  const { peer, card, timeoutMs } = ctx;
  if (start.version !== 1) return;
  if (start.capabilities.terminal !== true) return void card.score("ACP-CANCEL-109", na("the client did not advertise terminal: check's agent has no request of its own that stays pending until the client ends it"));
  const created = await peer.request("terminal/create", { sessionId: start.sessionId, ...holdCommand(timeoutMs * 6 + 20_000), outputByteLimit: 1024 }, timeoutMs);
  const terminalId = (created?.result as { terminalId?: unknown } | undefined)?.terminalId;
  if (typeof terminalId !== "string") return void card.score("ACP-CANCEL-109", na(`terminal/create of a command that waits was answered ${created === undefined ? "nothing" : show(created)}: no request was left pending`));
  // Left pending on purpose: its answer (or none) is judged after the run.
  void peer.request("terminal/wait_for_exit", { sessionId: start.sessionId, terminalId }, timeoutMs * 6 + 20_000);
}

export async function cancelTurn(ctx: TurnContext, start: TurnStart): Promise<"end_turn" | "cancelled"> {
  const { peer, card, timeoutMs } = ctx;
  update(ctx, start.sessionId, toolCall(start, "check-cancel-1", "A long task", "execute", "in_progress"));
  await holdTerminal(ctx, start);
  let permission: Promise<Record<string, unknown> | undefined> | undefined;
  let answeredFirst: Record<string, unknown> | undefined;
  let interrupted = false;
  if (ctx.shared.permissionAnswered === true) {
    permission = peer.request("session/request_permission", permissionParams(start, "check-cancel-1", "A long task"), timeoutMs * 2);
    void permission.then((a) => (answeredFirst ??= a && !interrupted ? a : undefined));
  }
  await peer.pause(500);
  const from = peer.lines.length;
  interrupted = true;
  ctx.interrupt();
  const cancel = await peer.waitFor((l) => l.body?.method === "session/cancel", timeoutMs, from);
  const perms = ["ACP-PERM-101", "ACP-PERM-102"];
  if (cancel === undefined) {
    const why = ctx.gone();
    card.score("ACP-CANCEL-110", fail(why !== undefined ? `the client ${why} after SIGINT without sending session/cancel` : `no session/cancel within ${seconds(timeoutMs)} of SIGINT during a running turn`));
    card.all([...perms, "ACP-CANCEL-103"], na("the client sent no session/cancel"));
    return "end_turn";
  }
  const params = cancel.body?.params as { sessionId?: unknown } | undefined;
  card.score("ACP-CANCEL-110", params?.sessionId === start.sessionId ? pass : fail(`session/cancel named session ${JSON.stringify(params?.sessionId)}, not the running ${start.sessionId}`));
  card.score("ACP-CANCEL-205", cancel.body !== undefined && "id" in cancel.body ? fail(`session/cancel carried an id: ${quoteText(cancel.text)}`) : pass);
  if (permission === undefined) card.all(perms, na("no permission request was left pending: the client did not answer one in the permission run (ACP-PERM-103)"));
  else if (answeredFirst !== undefined) card.all(perms, na(`the client answered the permission request before the cancel: ${show(answeredFirst.result ?? answeredFirst.error)}`));
  else {
    const a = await permission;
    if (a === undefined) card.score("ACP-PERM-101", ctx.gone() !== undefined ? notRun(`the client ${String(ctx.gone())}`) : fail(`the pending session/request_permission was still unanswered ${seconds(timeoutMs * 2)} after it was sent (session/cancel came meanwhile)`));
    else {
      card.score("ACP-PERM-101", pass);
      const o = outcomeOf(a);
      card.score("ACP-PERM-102", o.ok && o.outcome === "cancelled" ? pass : fail(`after session/cancel the permission request was ${o.ok ? `answered ${o.outcome}` : o.why}`));
    }
  }
  update(ctx, start.sessionId, { sessionUpdate: "tool_call_update", toolCallId: "check-cancel-1", status: "failed" });
  const why = await survived(ctx);
  card.score("ACP-CANCEL-103", why === undefined ? pass : fail(`the client ${why} within ${LIVENESS_MS} ms of a tool_call_update sent after its session/cancel`));
  return "cancelled";
}
