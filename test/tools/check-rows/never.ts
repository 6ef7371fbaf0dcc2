/**
 * The rows of `npm run test:check-rows` that check's probes name but that have no pass and fail pair, each
 * with why: rows check can pass but never fail (NEVER_FAILABLE), and rows it never marks pass, only n/a, not
 * observable or fail (NEVER_PASSABLE). Rows of tier MAY or none are never failed by the scorecard itself
 * (table.ts `neverWhy`). The test fails when a row listed here passes in some run and is not failable-only.
 */

const OPEN_ENUM = "an unknown value without _ may be a variant of an ACP schema later than the one check knows, which the traffic cannot tell from a custom value named wrongly: noted (n/a), never failed (judge-v2-traffic.ts, v2-rows.ts)";
const SHOWN_OR_NOT = "pass when the agent reported one, n/a when it did not: check cannot tell an agent that had nothing to report from one that did not report it";
const STDIO = "check speaks stdio only: a peer it scores at all supports stdio (one that never answers fails ACP-INIT-001 instead)";
const NO_ELICITATION_V2 = "check's v2 client advertises no elicitation mode, so an agent sends it no elicitation: n/a on every v2 card (ACP-ELICIT-305 fails one that elicits anyway)";
const CLIENT_NOT_OBSERVABLE = "nothing on the wire shows it (its display or its internal state): not observable on every card";
const CLIENT_ELICITATION = "check's agent sends no elicitation, so these rows are n/a or not observable on every client card";
const AGENT_ROLE = "the client sends none of these: the row binds an agent, and is n/a on a client's card";
const CHECKED_BEFORE = "passes when the client never made the gated call; a call made without checking is charged once, to its MUST NOT pair (the call itself), and this row is n/a (one fact, one count)";

/** Rows check can pass but never fail, by side. */
export const NEVER_FAILABLE: { readonly agent: Readonly<Record<string, string>>; readonly client: Readonly<Record<string, string>> } = {
  agent: {
    "ACP-TOOL-101": SHOWN_OR_NOT, "ACP-PLAN-101": SHOWN_OR_NOT, "ACP-PLAN-102": SHOWN_OR_NOT, "ACP-TOOL-301": SHOWN_OR_NOT, "ACP-PLAN-301": SHOWN_OR_NOT, "ACP-PLAN-306": SHOWN_OR_NOT,
    "ACP-EXT-306": OPEN_ENUM, "ACP-TOOL-304": OPEN_ENUM, "ACP-TOOL-305": OPEN_ENUM, "ACP-PLAN-302": OPEN_ENUM, "ACP-PLAN-304": OPEN_ENUM, "ACP-PLAN-305": OPEN_ENUM,
    "ACP-PERM-305": OPEN_ENUM, "ACP-AUTH-306": OPEN_ENUM, "ACP-CONFIG-310": OPEN_ENUM, "ACP-EXT-310": OPEN_ENUM, "ACP-PROMPT-322": OPEN_ENUM, "ACP-PROMPT-323": OPEN_ENUM,
    "ACP-TRANSPORT-103": STDIO, "ACP-TRANSPORT-382": STDIO,
    "ACP-MCP-103": "a SHOULD for new agents: check cannot tell a new agent from an old one, so an agent without HTTP MCP servers is n/a",
    "ACP-CANCEL-002": "passes when the cancelled turn is answered; an update after that answer is inspect's update-after-turn finding, charged to ACP-PROMPT-001 (one fact, one count)",
    "ACP-CANCEL-101": "passes when the cancelled turn is answered at all; how soon the agent stopped is no verdict, and an unanswered turn fails ACP-CANCEL-001",
  },
  client: {
    "ACP-TRANSPORT-103": STDIO, "ACP-TRANSPORT-382": STDIO,
    "ACP-PROMPT-323": OPEN_ENUM, "ACP-EXT-306": OPEN_ENUM,
    "ACP-LIST-101": "passes on a client's session/list; a list before initialize is the monitor's init-order finding, charged to ACP-INIT-101 (one fact, one count)",
    "ACP-INIT-107": CHECKED_BEFORE, "ACP-AGENTCAP-102": CHECKED_BEFORE, "ACP-AGENTCAP-104": CHECKED_BEFORE, "ACP-AGENTCAP-106": CHECKED_BEFORE, "ACP-AGENTCAP-110": CHECKED_BEFORE, "ACP-AGENTCAP-112": CHECKED_BEFORE,
    "ACP-AGENTCAP-113": "passes when a session was set up and the client never called session/delete; check's v1 agent never advertises it, and the scripted clients have no call to make it fail here beyond ACP-AGENTCAP-103's (the same monitor rule)",
    "ACP-INIT-381": "on the v2 card the client offered an integer version of 2 or more, which passes; a client offering anything else is answered 1 and scored on the v1 card, where the same fact fails ACP-INIT-104 (check-client/agent.ts answerVersion)",
    "ACP-AGENTCAP-114": "passes when a session was set up and the client never called logout; the monitor's gate rule fails it as it fails ACP-AGENTCAP-103",
  },
};

/** Rows check's probes name but never mark pass (n/a, not observable, not run, or fail only), by side. */
export const NEVER_PASSABLE: { readonly agent: Readonly<Record<string, string>>; readonly client: Readonly<Record<string, string>> } = {
  agent: {
    "ACP-ELICIT-316": NO_ELICITATION_V2, "ACP-ELICIT-318": NO_ELICITATION_V2, "ACP-ELICIT-320": NO_ELICITATION_V2, "ACP-ELICIT-321": NO_ELICITATION_V2, "ACP-ELICIT-322": NO_ELICITATION_V2, "ACP-CANCEL-313": NO_ELICITATION_V2,
    "ACP-SESSION-318": "only a client sends MCP server objects: n/a on an agent's card", "ACP-SESSION-321": "only a client sends MCP server objects: n/a on an agent's card",
    "ACP-INIT-383": "check's v2 client advertises no capability: one combination only is exercised (n/a)",
    "ACP-SESSION-503": "the archive of an active v2 session is not probed yet (its turn ends with an idle state_update this probe does not judge): not run when archive is advertised, n/a otherwise",
    "ACP-MCP-401": "check offers no ACP-transport MCP server and the agent lists none: n/a",
    "ACP-MCP-406": "fails when the agent sends mcp/message to a server check never declared; with none declared, there is nothing to pass (n/a)",
  },
  client: {
    "ACP-PROMPT-104": CLIENT_NOT_OBSERVABLE, "ACP-CANCEL-104": CLIENT_NOT_OBSERVABLE, "ACP-PLAN-104": CLIENT_NOT_OBSERVABLE, "ACP-TERM-106": CLIENT_NOT_OBSERVABLE, "ACP-META-101": CLIENT_NOT_OBSERVABLE,
    "ACP-LIST-104": CLIENT_NOT_OBSERVABLE, "ACP-CONFIG-105": CLIENT_NOT_OBSERVABLE, "ACP-CONFIG-106": CLIENT_NOT_OBSERVABLE, "ACP-CONFIG-107": CLIENT_NOT_OBSERVABLE, "ACP-CONFIG-108": CLIENT_NOT_OBSERVABLE,
    "ACP-CONFIG-110": CLIENT_NOT_OBSERVABLE, "ACP-CONFIG-112": CLIENT_NOT_OBSERVABLE, "ACP-CONFIG-113": CLIENT_NOT_OBSERVABLE, "ACP-TRANSPORT-105": CLIENT_NOT_OBSERVABLE, "ACP-INIT-106": CLIENT_NOT_OBSERVABLE,
    "ACP-INIT-383": CLIENT_NOT_OBSERVABLE, "ACP-CANCEL-381": CLIENT_NOT_OBSERVABLE,
    "ACP-ELICIT-103": CLIENT_ELICITATION, "ACP-ELICIT-104": CLIENT_ELICITATION, "ACP-ELICIT-105": CLIENT_ELICITATION, "ACP-ELICIT-106": CLIENT_ELICITATION, "ACP-ELICIT-108": CLIENT_ELICITATION,
    "ACP-ELICIT-110": CLIENT_ELICITATION, "ACP-ELICIT-115": CLIENT_ELICITATION, "ACP-ELICIT-118": CLIENT_ELICITATION, "ACP-ELICIT-120": CLIENT_ELICITATION, "ACP-ELICIT-124": CLIENT_ELICITATION,
    "ACP-ELICIT-125": CLIENT_ELICITATION, "ACP-ELICIT-126": CLIENT_ELICITATION, "ACP-ELICIT-127": CLIENT_ELICITATION, "ACP-ELICIT-128": CLIENT_ELICITATION, "ACP-ENUM-101": CLIENT_ELICITATION,
    "ACP-ENUM-103": CLIENT_ELICITATION, "ACP-ELICIT-314": CLIENT_ELICITATION,
    "ACP-LOAD-101": "check's agent does not advertise loadSession: the client has no session/load to send (n/a)",
    "ACP-RESUME-101": "check's agent does not advertise resume: n/a", "ACP-CLOSE-101": "check's agent does not advertise close: n/a", "ACP-DELETE-101": "check's agent does not advertise delete: n/a",
    "ACP-AUTH-106": "check's agent does not advertise logout: n/a",
    "ACP-CANCEL-105": "check's agent sends no $/cancel_request: n/a", "ACP-CANCEL-303": "check's agent sends no $/cancel_request: n/a",
    "ACP-TRANSPORT-104": "the client runs the agent over stdio, not a custom transport: n/a", "ACP-TRANSPORT-304": "the client runs the agent over stdio, not a custom transport: n/a",
    "ACP-PATH-102": "a v1 client sends no line numbers of its own: n/a",
    "ACP-TERM-103": "check's agent has no terminal output to check the client's handling of: n/a or no probe",
    "ACP-EXT-103": "n/a when the client sends no _ request; check has no judge yet for how a client that does advertises it (the row stays not run then)",
    "ACP-EXT-202": "n/a when the client sends no _ request; check has no judge yet for how a client that does advertises it (the row stays not run then)",
    "ACP-AUTH-305": "check's v2 agent lists no auth methods: n/a", "ACP-AUTH-307": "check's v2 agent lists no auth methods: n/a",
    "ACP-LIST-304": "check's v2 agent hands out no session/list cursor: n/a", "ACP-LIST-305": "check's v2 agent hands out no session/list cursor: n/a",
    "ACP-SESSION-325": "check's agent never answers session/close with -32002: n/a",
    "ACP-AUTH-306": AGENT_ROLE, "ACP-PROMPT-322": AGENT_ROLE, "ACP-PERM-305": AGENT_ROLE, "ACP-TOOL-304": AGENT_ROLE, "ACP-TOOL-305": AGENT_ROLE, "ACP-PLAN-302": AGENT_ROLE, "ACP-PLAN-304": AGENT_ROLE,
    "ACP-PLAN-305": AGENT_ROLE, "ACP-CONFIG-310": AGENT_ROLE, "ACP-CONFIG-313": AGENT_ROLE, "ACP-EXT-310": AGENT_ROLE, "ACP-EXT-312": AGENT_ROLE,
  },
};
