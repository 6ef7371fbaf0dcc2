/**
 * The probes of `check` for the unstable methods: v1's
 * (docs/conformance-catalogue-unstable.json: fork, archive, status, titles,
 * auth status, providers, ACP-transport MCP servers) and v2's
 * (docs/conformance-catalogue-v2-unstable.json: the same methods under v2's
 * capability paths), each driven by the capability the agent advertises: an
 * advertised method must be answered (not -32601) with its result;
 * session/status changes nothing (no update); auth/status is never refused
 * -32000. On v1 also: archiving a session with a running turn ends that turn
 * `cancelled`; an unknown archive filter is refused -32602; providers/set
 * with an unknown API type gets an answer. On v2 also: the unknown archive
 * filter is refused -32602 and listed sessions carry archived; a system
 * prompt with an unknown mode or content block is refused and a text one in
 * append mode accepted; no message bears a child session id before the
 * subagent_update announcing it (on the traffic so far); an unknown API type
 * gets an answer. A feature not advertised makes its rows n/a naming the
 * capability.
 */
import { describeError, errorCode, show, silent, step, updateFor, type Run } from "./kit.ts";
import { fail, na, pass, passNoted, type Verdict } from "./score.ts";
import { ErrorCode } from "../../src/errors.ts";
import { SUBAGENT_ORDER, V1_SURFACE, V2_SURFACE, type Surface } from "./unstable-surfaces.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The v1 unstable probes, and the ACP-transport MCP rows. */
export async function unstableProbes(run: Run, init: Obj): Promise<void> {
  await surfaceProbes(run, init, V1_SURFACE);
  const { d, card } = run;
  const caps = isObj(init.agentCapabilities) ? init.agentCapabilities : {};
  const mcp = isObj(caps.mcpCapabilities) ? caps.mcpCapabilities : {};
  card.score("ACP-MCP-401", na("check offers no ACP-transport MCP server and the agent listed none"));
  // check declares no ACP-transport MCP server, so any mcp/message request from the agent names an undeclared one.
  const mcpCalls = d.requests.filter((l) => l.body?.method === "mcp/message");
  card.score("ACP-MCP-406", mcpCalls.length > 0 ? fail(`check's client declared no ACP-transport MCP server, yet the agent sent ${mcpCalls[0]!.text.slice(0, 160)}`) : na("the agent sent no mcp/message (check declares no ACP-transport MCP server)"));
  card.score("ACP-MCP-402", mcp.acp === true ? na("mcpCapabilities.acp is advertised, but check offers no ACP-transport MCP server to exercise it") : na("mcpCapabilities.acp is not advertised"));
}

/** The v2 unstable probes (docs/conformance-catalogue-v2-unstable.json), on a v2 connection. */
export async function v2UnstableProbes(run: Run, init: Obj): Promise<void> {
  await surfaceProbes(run, init, V2_SURFACE);
  subagentOrder(run);
}

/** v2: the first subagent_update for a child comes before any other message the agent sent bearing the child's session id (on the traffic so far). */
function subagentOrder(run: Run): void {
  const { d, card } = run;
  const paramsOf = (body: unknown): Obj | undefined => (isObj(body) && isObj(body.params) ? body.params : undefined);
  const announced = new Map<string, number>();
  d.lines.forEach((l, i) => {
    const update = paramsOf(l.body)?.update;
    if ((l.body as Obj | undefined)?.method === "session/update" && isObj(update) && update.sessionUpdate === "subagent_update" && typeof update.sessionId === "string" && !announced.has(update.sessionId)) announced.set(update.sessionId, i);
  });
  if (announced.size === 0) return card.score(SUBAGENT_ORDER, na("the agent sent no subagent_update"));
  const early = d.lines.find((l, i) => {
    const sid = paramsOf(l.body)?.sessionId;
    return typeof sid === "string" && announced.has(sid) && i < announced.get(sid)!;
  });
  card.score(SUBAGENT_ORDER, early === undefined ? pass : fail(`a message bore a child session id before the subagent_update announcing it: ${early.text.slice(0, 160)}`));
}

/** Scores `row` on a session/list with an archive filter no version defines: -32602 passes. */
async function unknownFilter(run: Run, row: string): Promise<void> {
  const list = await run.d.request("session/list", { archived: "acp-router-check-future-filter" });
  if (list !== undefined && errorCode(list) === ErrorCode.MethodNotFound) return run.card.score(row, na(`session/list was answered ${describeError(list)}: the agent does not serve it`));
  run.card.score(row, list === undefined ? silent(run, row) : errorCode(list) === ErrorCode.InvalidParams ? pass : fail(`session/list with an archive filter no version defines was answered ${show(list)}, not -32602`));
}

async function surfaceProbes(run: Run, init: Obj, s: Surface): Promise<void> {
  const { d, card } = run;
  const advertised = s.capabilities(init);
  const caps = isObj(advertised) ? advertised : {};
  const sc = isObj(caps[s.session]) ? (caps[s.session] as Obj) : {};
  const auth = isObj(caps.auth) ? caps.auth : {};
  const cwd = run.options.cwd;
  const newSession = async (): Promise<string | undefined> => {
    const created = await d.request("session/new", { cwd, mcpServers: [] });
    const id = (created?.result as { sessionId?: unknown } | undefined)?.sessionId;
    return typeof id === "string" ? id : undefined;
  };
  /** Scores `row` on the answer to an advertised method: a result passes, -32601 fails, another error is n/a. */
  const answered = (row: string, method: string, answer: Obj | undefined, ok: (r: Obj) => boolean = () => true) => {
    if (answer === undefined) return card.score(row, silent(run, row));
    if (errorCode(answer) === ErrorCode.MethodNotFound) return card.score(row, fail(`${method} is advertised but was answered ${describeError(answer)}`));
    if (answer.error !== undefined) return card.score(row, na(`${method} was answered ${describeError(answer)}`));
    card.score(row, isObj(answer.result) && ok(answer.result) ? pass : fail(`${method} answered ${show(answer)}`));
  };

  const sessionRows = [s.fork, s.archive, s.archiveCancels, s.status, s.statusQuiet, s.title, s.listFilter].filter((r): r is string => r !== undefined);
  await step(run, "unstable sessions", sessionRows, async () => {
    const sid = isObj(sc.fork) || isObj(sc.archive) || isObj(sc.status) || isObj(sc.title) ? await newSession() : undefined;
    const none = (cap: string) => na(`${s.session}.${cap} is not advertised`);
    if (!isObj(sc.fork)) card.score(s.fork, none("fork"));
    else if (sid === undefined) card.score(s.fork, na("session/new gave no session to fork"));
    else answered(s.fork, "session/fork", await d.request("session/fork", { sessionId: sid, cwd, mcpServers: [] }), (r) => typeof r.sessionId === "string");
    if (!isObj(sc.status)) card.all([s.status, s.statusQuiet], none("status"));
    else if (sid === undefined) card.all([s.status, s.statusQuiet], na("session/new gave no session"));
    else {
      const at = d.lines.length;
      answered(s.status, "session/status", await d.request("session/status", { sessionId: sid }));
      await d.waitFor(() => false, d.quiet, d.lines.length);
      const changed = d.lines.slice(at).filter(updateFor(sid));
      card.score(s.statusQuiet, changed.length === 0 ? pass : fail(`session/status was followed by a session/update: ${changed[0]!.text.slice(0, 160)}`));
    }
    if (!isObj(sc.title)) card.score(s.title, none("title"));
    else if (sid === undefined) card.score(s.title, na("session/new gave no session"));
    else answered(s.title, "session/set_title", await d.request("session/set_title", { sessionId: sid, title: "acp-router check" }));
    const archiveRows = [s.archive, s.archiveCancels, s.archiveCancelsUnprobed, s.listFilter, s.listArchived].filter((r): r is string => r !== undefined);
    if (!isObj(sc.archive)) card.all(archiveRows, none("archive"));
    else if (s.archiveCancels === undefined || s.listFilter === undefined) {
      // v2: the archive is answered; a running turn's end is an idle state_update, which this probe does not judge yet (s.archiveCancelsUnprobed stays not run).
      if (s.listFilter !== undefined) await unknownFilter(run, s.listFilter);
      const id = await newSession();
      if (id === undefined) card.score(s.archive, na("session/new gave no session to archive"));
      else answered(s.archive, "session/archive", await d.request("session/archive", { sessionId: id }));
      if (s.listArchived !== undefined) {
        const list = await d.request("session/list", { archived: "include" });
        const sessions = (list?.result as { sessions?: unknown } | undefined)?.sessions;
        const bare = Array.isArray(sessions) ? sessions.find((x) => !isObj(x) || typeof x.archived !== "boolean") : undefined;
        if (list === undefined) card.score(s.listArchived, silent(run, s.listArchived));
        else if (!Array.isArray(sessions)) card.score(s.listArchived, na(`session/list was answered ${list.error !== undefined ? describeError(list) : show(list)}`));
        else card.score(s.listArchived, bare === undefined ? pass : fail(`session.archive is advertised, yet session/list listed a session without archived: ${JSON.stringify(bare).slice(0, 160)}`));
      }
    } else await archiveRunning(run, s.archive, s.archiveCancels, s.listFilter, newSession, answered);
    await systemPrompts(run, sc, s, cwd);
  });

  await step(run, "auth/status", [s.authNoReject, s.authStatus], async () => {
    if (!isObj(auth.status)) return card.all([s.authNoReject, s.authStatus], na("auth.status is not advertised"));
    const status = await d.request("auth/status", {});
    card.score(s.authNoReject, status === undefined ? silent(run, s.authNoReject) : errorCode(status) === ErrorCode.AuthRequired ? fail(`auth/status was refused ${describeError(status)}`) : pass);
    answered(s.authStatus, "auth/status", status);
  });

  const providerRows = [s.providers, s.providersOpen].filter((r): r is string => r !== undefined);
  await step(run, "providers", providerRows, async () => {
    if (!isObj(caps.providers)) return card.all(providerRows, na("providers is not advertised"));
    answered(s.providers, "providers/list", await d.request("providers/list", {}));
    if (s.providersOpen === undefined) return;
    // An API type no version defines must be handled gracefully: an answer (result or error), and the agent still serving.
    const set = await d.request("providers/set", { providerId: "acp-router-check", apiType: "acp-router-check-future-protocol", baseUrl: "http://127.0.0.1:9" });
    const still = set === undefined ? undefined : await d.request("providers/list", {});
    card.score(s.providersOpen, set === undefined ? silent(run, s.providersOpen) : still !== undefined ? pass : fail("after providers/set with an unknown API type, the agent stopped answering"));
  });
}

/** v2: with session.systemPrompt advertised, a text system prompt in append mode is accepted, an unknown mode and an unknown content block are refused. */
async function systemPrompts(run: Run, sc: Obj, s: Surface, cwd: string): Promise<void> {
  const rows = [s.systemPromptRejects, s.systemPromptMode, s.systemPromptText].filter((r): r is string => r !== undefined);
  if (rows.length === 0) return;
  const { d, card } = run;
  if (!isObj(sc.systemPrompt)) return card.all(rows, na(`${s.session}.systemPrompt is not advertised`));
  const create = (systemPrompt: Obj) => d.request("session/new", { cwd, mcpServers: [], systemPrompt });
  const text = [{ type: "text", text: "acp-router check" }];
  const refused = (row: string, what: string, answer: Obj | undefined): Verdict => (answer === undefined ? silent(run, row) : answer.error !== undefined ? pass : fail(`session/new with ${what} created a session: ${show(answer)}`));
  const mode = await create({ mode: "acp-router-check-future-mode", content: text });
  if (s.systemPromptMode !== undefined) card.score(s.systemPromptMode, refused(s.systemPromptMode, "a system prompt mode no version defines", mode));
  const block = await create({ mode: "append", content: [{ type: "acp-router-check-future-block" }] });
  if (s.systemPromptRejects !== undefined) card.score(s.systemPromptRejects, refused(s.systemPromptRejects, "a system prompt content block no version defines", block));
  const plain = await create({ mode: "append", content: text });
  if (s.systemPromptText !== undefined) card.score(s.systemPromptText, plain === undefined ? silent(run, s.systemPromptText) : isObj(plain.result) ? pass : fail(`session/new with a text system prompt in append mode was answered ${show(plain)}`));
}

type Answered = (row: string, method: string, answer: Obj | undefined, ok?: (r: Obj) => boolean) => void;

/** v1: an unknown archive filter is refused -32602, and archiving a session with a running turn ends that turn `cancelled`. */
async function archiveRunning(run: Run, archive: string, cancels: string, listFilter: string, newSession: () => Promise<string | undefined>, answered: Answered): Promise<void> {
  const { d, card } = run;
  await unknownFilter(run, listFilter);
  const id = await newSession();
  if (id === undefined) return card.all([archive, cancels], na("session/new gave no session to archive"));
  const at = d.lines.length;
  const turn = d.request("session/prompt", { sessionId: id, prompt: [{ type: "text", text: "slow" }] });
  const promptId = d.lastRequestId;
  const running = await d.waitFor(updateFor(id), d.timeout, at);
  const archived = await d.request("session/archive", { sessionId: id });
  answered(archive, "session/archive", archived);
  const answer = await turn;
  const ended = d.answerTo(promptId);
  const judge = (a: Obj, note = ""): Verdict =>
    (a.result as { stopReason?: unknown } | undefined)?.stopReason === "cancelled" ? (note === "" ? pass : passNoted(note)) : fail(`a running turn whose session was archived was answered ${show(a)}, not stopReason "cancelled"${note === "" ? "" : ` (${note})`}`);
  if (running === undefined || (ended !== undefined && ended.index < running.index)) card.score(cancels, na("the turn was not shown running before it ended"));
  else card.score(cancels, answer === undefined ? silent(run, cancels, promptId, "after session/archive, the running turn got no answer", judge) : judge(answer));
}
