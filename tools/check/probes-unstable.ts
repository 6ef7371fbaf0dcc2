/**
 * The v1 probes of `check` for docs/conformance-catalogue-unstable.json
 * (unstable v1 features: fork, archive, status, titles, auth status,
 * providers, ACP-transport MCP servers), each driven by the capability the
 * agent advertises: an advertised method must be answered (not -32601) with
 * its result; archiving a session with a running turn ends that turn
 * `cancelled`; session/status changes nothing (no update); an unknown
 * archive filter is refused -32602; auth/status is never refused -32000;
 * providers/set with an unknown API type gets an answer. A feature not
 * advertised makes its rows n/a naming the capability.
 */
import { describeError, errorCode, show, silent, step, updateFor, type Run } from "./kit.ts";
import { fail, na, pass, passNoted, type Verdict } from "./score.ts";
import { ErrorCode } from "../../src/errors.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every row this file scores. */
export const V1_UNSTABLE_ROWS = ["ACP-SESSION-401", "ACP-SESSION-402", "ACP-SESSION-403", "ACP-SESSION-404", "ACP-SESSION-405", "ACP-SESSION-406", "ACP-SESSION-408", "ACP-AUTH-401", "ACP-AUTH-402", "ACP-PROVIDERS-401", "ACP-PROVIDERS-402", "ACP-MCP-401", "ACP-MCP-402", "ACP-MCP-406"];

export async function unstableProbes(run: Run, init: Obj): Promise<void> {
  const { d, card } = run;
  const caps = isObj(init.agentCapabilities) ? init.agentCapabilities : {};
  const sc = isObj(caps.sessionCapabilities) ? caps.sessionCapabilities : {};
  const auth = isObj(caps.auth) ? caps.auth : {};
  const mcp = isObj(caps.mcpCapabilities) ? caps.mcpCapabilities : {};
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

  await step(run, "unstable sessions", ["ACP-SESSION-401", "ACP-SESSION-402", "ACP-SESSION-403", "ACP-SESSION-404", "ACP-SESSION-405", "ACP-SESSION-406", "ACP-SESSION-408"], async () => {
    const sid = isObj(sc.fork) || isObj(sc.archive) || isObj(sc.status) || isObj(sc.title) ? await newSession() : undefined;
    const none = (cap: string) => na(`sessionCapabilities.${cap} is not advertised`);
    if (!isObj(sc.fork)) card.score("ACP-SESSION-401", none("fork"));
    else if (sid === undefined) card.score("ACP-SESSION-401", na("session/new gave no session to fork"));
    else answered("ACP-SESSION-401", "session/fork", await d.request("session/fork", { sessionId: sid, cwd, mcpServers: [] }), (r) => typeof r.sessionId === "string");
    if (!isObj(sc.status)) card.all(["ACP-SESSION-404", "ACP-SESSION-405"], none("status"));
    else if (sid === undefined) card.all(["ACP-SESSION-404", "ACP-SESSION-405"], na("session/new gave no session"));
    else {
      const at = d.lines.length;
      answered("ACP-SESSION-404", "session/status", await d.request("session/status", { sessionId: sid }));
      await d.waitFor(() => false, 300, d.lines.length);
      const changed = d.lines.slice(at).filter(updateFor(sid));
      card.score("ACP-SESSION-405", changed.length === 0 ? pass : fail(`session/status was followed by a session/update: ${changed[0]!.text.slice(0, 160)}`));
    }
    if (!isObj(sc.title)) card.score("ACP-SESSION-406", none("title"));
    else if (sid === undefined) card.score("ACP-SESSION-406", na("session/new gave no session"));
    else answered("ACP-SESSION-406", "session/set_title", await d.request("session/set_title", { sessionId: sid, title: "acp-router check" }));
    if (!isObj(sc.archive)) card.all(["ACP-SESSION-402", "ACP-SESSION-403", "ACP-SESSION-408"], none("archive"));
    else {
      const list = await d.request("session/list", { archived: "acp-router-check-future-filter" });
      card.score("ACP-SESSION-408", list === undefined ? silent(run, "ACP-SESSION-408") : errorCode(list) === ErrorCode.InvalidParams ? pass : fail(`session/list with an archive filter no version defines was answered ${show(list)}, not -32602`));
      const id = await newSession();
      if (id === undefined) return card.all(["ACP-SESSION-402", "ACP-SESSION-403"], na("session/new gave no session to archive"));
      const at = d.lines.length;
      const turn = d.request("session/prompt", { sessionId: id, prompt: [{ type: "text", text: "slow" }] });
      const promptId = d.lastRequestId;
      const running = await d.waitFor(updateFor(id), d.timeout, at);
      const archived = await d.request("session/archive", { sessionId: id });
      answered("ACP-SESSION-402", "session/archive", archived);
      const answer = await turn;
      const ended = d.answerTo(promptId);
      const judge = (a: Obj, note = ""): Verdict => ((a.result as { stopReason?: unknown } | undefined)?.stopReason === "cancelled" ? (note === "" ? pass : passNoted(note)) : fail(`a running turn whose session was archived was answered ${show(a)}, not stopReason "cancelled"${note === "" ? "" : ` (${note})`}`));
      if (running === undefined || (ended !== undefined && ended.index < running.index)) card.score("ACP-SESSION-403", na("the turn was not shown running before it ended"));
      else card.score("ACP-SESSION-403", answer === undefined ? silent(run, "ACP-SESSION-403", promptId, "after session/archive, the running turn got no answer", judge) : judge(answer));
    }
  });

  await step(run, "auth/status", ["ACP-AUTH-401", "ACP-AUTH-402"], async () => {
    if (!isObj(auth.status)) return card.all(["ACP-AUTH-401", "ACP-AUTH-402"], na("auth.status is not advertised"));
    const status = await d.request("auth/status", {});
    card.score("ACP-AUTH-401", status === undefined ? silent(run, "ACP-AUTH-401") : errorCode(status) === ErrorCode.AuthRequired ? fail(`auth/status was refused ${describeError(status)}`) : pass);
    answered("ACP-AUTH-402", "auth/status", status);
  });

  await step(run, "providers", ["ACP-PROVIDERS-401", "ACP-PROVIDERS-402"], async () => {
    if (!isObj(caps.providers)) return card.all(["ACP-PROVIDERS-401", "ACP-PROVIDERS-402"], na("providers is not advertised"));
    answered("ACP-PROVIDERS-401", "providers/list", await d.request("providers/list", {}));
    // An API type no version defines must be handled gracefully: an answer (result or error), and the agent still serving.
    const set = await d.request("providers/set", { providerId: "acp-router-check", apiType: "acp-router-check-future-protocol", baseUrl: "http://127.0.0.1:9" });
    const still = set === undefined ? undefined : await d.request("providers/list", {});
    card.score("ACP-PROVIDERS-402", set === undefined ? silent(run, "ACP-PROVIDERS-402") : still !== undefined ? pass : fail("after providers/set with an unknown API type, the agent stopped answering"));
  });

  card.score("ACP-MCP-401", na("check offers no ACP-transport MCP server and the agent listed none"));
  // check declares no ACP-transport MCP server, so any mcp/message request from the agent names an undeclared one.
  const mcpCalls = d.requests.filter((l) => l.body?.method === "mcp/message");
  card.score("ACP-MCP-406", mcpCalls.length > 0 ? fail(`check's client declared no ACP-transport MCP server, yet the agent sent ${mcpCalls[0]!.text.slice(0, 160)}`) : na("the agent sent no mcp/message (check declares no ACP-transport MCP server)"));
  card.score("ACP-MCP-402", mcp.acp === true ? na("mcpCapabilities.acp is advertised, but check offers no ACP-transport MCP server to exercise it") : na("mcpCapabilities.acp is not advertised"));
}
