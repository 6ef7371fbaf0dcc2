/**
 * The client side of check's v1 capability probes: every client capability
 * (as the capabilities run advertises them), the exercise prompts both runs
 * send, check's answers to the agent's requests (permissions allow, reject,
 * then cancel mid-permission; fs reads with fixed text; writes and terminals
 * faked; elicitations declined), and the capabilities run itself, a fresh
 * process of the agent (judge-capabilities.ts judges what it showed).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import type { AgentLine, ClientAnswer, Driver } from "./driver.ts";
import { answerOf, deathReason, exchange, quote, seconds, show, type Run } from "./kit.ts";
import { firstInitialize, SLOW_START_FACTOR } from "./first-initialize.ts";
import { fail, na, pass } from "./score.ts";
import { ErrorCode } from "../../src/errors.ts";
import { CLIENT_INFO, configLists, isObj } from "./depth-kit.ts";
import { judgeCapabilities } from "./judge-capabilities.ts";
import { ABSOLUTE_FILE, CAPS_ROWS, EXERCISES, newSeen, type Seen } from "./capabilities-exercises.ts";

/** Every client capability v1 defines, as the capabilities run advertises them. */
export const ALL_CLIENT_CAPABILITIES = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
  auth: { terminal: true },
  elicitation: { form: {}, url: {} },
  session: { configOptions: { boolean: {} }, notices: {}, compaction: {} },
};

/**
 * check's client: permissions allow, reject, then cancel mid-permission (the
 * rest allow); fs reads answer fixed text, writes succeed without writing,
 * terminals are faked, elicitations declined. Without a capability the
 * matching request gets -32601 (and the monitor charges the call).
 */
export function answerer(d: Driver, seen: Seen, advertised: boolean): Driver["answerer"] {
  let permissions = 0;
  let terminals = 0;
  return (method, params, line): ClientAnswer | Promise<ClientAnswer> => {
    const sessionId = typeof params.sessionId === "string" ? params.sessionId : "";
    if (method === "session/request_permission") {
      const n = ++permissions;
      const options = Array.isArray(params.options) ? params.options.filter(isObj) : [];
      const pick = (kind: string) => options.find((o) => typeof o.kind === "string" && o.kind.startsWith(kind))?.optionId ?? options[0]?.optionId;
      if (n === 3) {
        // Cancel mid-permission: session/cancel first, then the outcome a client owes a pending permission after it.
        d.notify("session/cancel", { sessionId });
        seen.cancelledMidPermission.push(sessionId);
        return new Promise((resolve) => setTimeout(() => resolve({ result: { outcome: { outcome: "cancelled" } } }), 50));
      }
      const toolCallId = isObj(params.toolCall) && typeof params.toolCall.toolCallId === "string" ? params.toolCall.toolCallId : undefined;
      const optionId = pick(n === 2 ? "reject" : "allow");
      if (n !== 2 && toolCallId !== undefined) seen.allowed.push({ toolCallId, at: line.t, sessionId });
      return optionId === undefined ? { result: { outcome: { outcome: "cancelled" } } } : { result: { outcome: { outcome: "selected", optionId } } };
    }
    if (!advertised) return { error: { code: ErrorCode.MethodNotFound, message: `Method not found: check's client did not advertise the capability for ${method}` } };
    switch (method) {
      case "fs/read_text_file":
        return { result: { content: "acp-router check: a line read through the client\nand a second one\n" } };
      case "fs/write_text_file":
        return { result: {} };
      case "terminal/create": {
        const terminalId = `check-terminal-${++terminals}`;
        seen.terminals.push(terminalId);
        return { result: { terminalId } };
      }
      case "terminal/output":
        return { result: { output: "checked\n", truncated: false, exitStatus: { exitCode: 0, signal: null } } };
      case "terminal/wait_for_exit":
        return { result: { exitCode: 0, signal: null } };
      case "terminal/kill":
      case "terminal/release":
        return { result: {} };
      case "elicitation/create":
        seen.declined.push(line.t);
        return { result: { action: "decline" } };
      default:
        return { error: { code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` } };
    }
  };
}

/** Sends every exercise prompt in `sessionId`, one turn after the other. */
export async function exercise(run: Run, d: Driver, sessionId: string, seen: Seen, cwd = run.options.cwd): Promise<void> {
  const file = join(cwd, ABSOLUTE_FILE);
  for (const text of EXERCISES) {
    if (d.death !== undefined) return;
    const cancels = seen.cancelledMidPermission.length;
    const answer = await d.request("session/prompt", { sessionId, prompt: [{ type: "text", text: text.replace("FILE", file) }] });
    if (seen.cancelledMidPermission.length > cancels && answer?.result !== undefined) {
      // check's client cancelled this turn during its permission request (session/cancel, then the "cancelled" outcome).
      const stop = (answer.result as { stopReason?: unknown }).stopReason;
      run.card.score("ACP-CANCEL-001", stop === "cancelled" ? pass : fail(`a turn cancelled during its permission request (session/cancel, then the outcome "cancelled") was answered stopReason ${JSON.stringify(stop)}`));
    }
    if (answer === undefined) {
      d.notify("session/cancel", { sessionId });
      await d.waitFor(answerOf(d.lastRequestId), d.timeout);
    } else if (answer.error !== undefined) seen.errors++;
    else seen.results++;
  }
}

/**
 * The second run: every client capability advertised, the exercise prompts
 * answered by check's client. It starts with a version no agent has
 * (9999: the answer must be the agent's latest, ACP-INIT-003); an agent that
 * answers another version than 1 gets a fresh process initialized with 1,
 * never a second initialize on the same connection (which an agent may
 * refuse: a repeated initialize is the client's option, not the agent's duty).
 */
export async function capabilitiesRun(run: Run, spawn: (label: string) => Driver): Promise<Seen | undefined> {
  const { card } = run;
  let d = spawn("capabilities run: initialize with protocolVersion 9999");
  const seen = newSeen();
  d.answerer = answerer(d, seen, true);
  const label = "the capabilities run (every client capability advertised)";
  // A fresh session cwd, not the folder the agent was started in: paths must follow the session's cwd (ACP-SESSION-104/105).
  const cwd = mkdtempSync(join(tmpdir(), "acp-router-check-"));
  try {
    // A slow start is waited for as in the main run (first-initialize.ts); its latency is not a violation.
    let first = (await firstInitialize(d, { protocolVersion: 9999, clientCapabilities: ALL_CLIENT_CAPABILITIES, clientInfo: CLIENT_INFO })).answer;
    const version = (first?.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    const asked = d.sentLine(d.lastRequestId);
    const answerLine = d.answerTo(d.lastRequestId);
    card.score(
      "ACP-INIT-003",
      first === undefined
        ? fail(`check sent ${asked === undefined ? "initialize with protocolVersion 9999" : quote(d, asked)}; no answer within ${seconds(d.timeout * (SLOW_START_FACTOR + 1))}`)
        : typeof version === "number" && Number.isInteger(version) && version >= 1 && version < 9999
          ? pass
          : fail(`${exchange(d, asked, answerLine)}: ${first.error !== undefined ? "an error, not" : `protocolVersion ${show(version)}, not`} the latest version the agent supports`),
    );
    if (version !== 1) {
      // A fresh process for protocol 1: the first one is initialized with another version already.
      await d.close();
      d = spawn("capabilities run: initialize with protocolVersion 1");
      d.answerer = answerer(d, seen, true);
      const again = (await firstInitialize(d, { protocolVersion: 1, clientCapabilities: ALL_CLIENT_CAPABILITIES, clientInfo: CLIENT_INFO })).answer;
      if ((again?.result as { protocolVersion?: unknown } | undefined)?.protocolVersion !== 1) {
        card.all(
          CAPS_ROWS.filter((id) => id !== "ACP-INIT-003"),
          na(`in ${label}, a fresh process asked for protocol 1 answered ${show(again)}`),
        );
        return undefined;
      }
    }
    const created = await d.request("session/new", { cwd, mcpServers: [] });
    const sid = (created?.result as { sessionId?: unknown } | undefined)?.sessionId;
    if (typeof sid !== "string") {
      card.all(
        CAPS_ROWS.filter((id) => id !== "ACP-INIT-003"),
        na(`in ${label}, session/new was answered ${show(created)}`),
      );
      return undefined;
    }
    const booleans = configLists(d.lines).filter((l) => l.options.some((o) => o.type === "boolean"));
    if (booleans.length > 0) card.notes.push("ACP-CONFIG-003: with session.configOptions.boolean advertised the agent offers a boolean option (it withholds it otherwise)");
    await exercise(run, d, sid, seen, cwd);
    seen.lines.push(...d.lines);
    // Coping is shown by answers; an agent that exits fails. A prompt still unanswered at the timeout is no evidence (late is not never: an
    // agent without credentials may wait minutes on its model), so it leaves the row n/a with the count.
    const answered = seen.results + seen.errors;
    card.score(
      "ACP-INIT-106",
      d.death !== undefined ? fail(`in ${label} the agent exited (${deathReason(d)})`) : answered === EXERCISES.length ? pass : na(`in ${label}, ${EXERCISES.length - answered} of ${EXERCISES.length} exercise prompts got no answer within ${seconds(d.timeout)}: not shown either way`),
    );
    judgeCapabilities(run, seen, cwd);
    return seen;
  } finally {
    await d.close();
    rmSync(cwd, { recursive: true, force: true });
  }
}
