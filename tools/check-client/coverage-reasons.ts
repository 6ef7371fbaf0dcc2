/**
 * Why a client-side row of `check --client` is still open after the runs (coverage.ts gives each open row one of
 * these): rows no traffic can decide, elicitation rows, rows about methods check's agent never advertises, the
 * "check before calling" gate rows, and rows a scenario judges that no run reached.
 */

/** Rows a black box cannot decide, with why. */
export const NOT_OBSERVABLE: Readonly<Record<string, string>> = {
  "ACP-PROMPT-104": "how the client renders text (Markdown or not) never reaches the agent",
  "ACP-CANCEL-104": "how the client marks its unfinished tool calls after session/cancel is its own display state; nothing goes on the wire",
  "ACP-PLAN-104": "how the client keeps its plan is display state; nothing goes on the wire",
  "ACP-TERM-106": "what the client shows for a released terminal is display state",
  "ACP-META-101": "whether the client keeps trace-context keys of _meta for its own tracing is internal",
  "ACP-LIST-104": "whether the client merges listed directories is internal",
  "ACP-CONFIG-105": "whether the client uses config options instead of modes is its interface",
  "ACP-CONFIG-106": "the order the client displays options in is its interface",
  "ACP-CONFIG-107": "where the client renders model options is its interface",
  "ACP-CONFIG-108": "how the client breaks category ties is its interface",
  "ACP-CONFIG-110": "the order the client displays options in is its interface",
  "ACP-CONFIG-112": "whether the client ignores modes is its interface",
  "ACP-CONFIG-113": "whether the client falls back to modes is its interface",
  "ACP-TRANSPORT-105": "documentation of a custom transport is not traffic",
  "ACP-ERROR-102": "a definition of the predefined codes, not a behaviour",
  "ACP-INIT-106": "one combination of capabilities (none advertised) is exercised; every combination cannot be",
};

/** Elicitation rows about what the user sees and does: not observable, whatever the client advertised. */
export const ELICITATION_UI: Readonly<Record<string, string>> = {
  "ACP-ELICIT-103": "how the client identifies the agent and offers decline and cancel is its interface",
  "ACP-ELICIT-104": "whether the user can review and edit a form is the client's interface",
  "ACP-ELICIT-105": "what the client shows before navigating is its interface",
  "ACP-ELICIT-106": "whether the client shows the request's message is its interface",
  "ACP-ELICIT-110": "whether form fields are pre-filled is the client's interface",
  "ACP-ELICIT-124": "whether the client opens a URL before consent happens outside the protocol",
  "ACP-ELICIT-125": "what the client shows before asking for consent is its interface",
  "ACP-ELICIT-126": "where the client opens a URL happens outside the protocol",
  "ACP-ELICIT-127": "whether the client highlights a URL's domain is its interface",
  "ACP-ELICIT-128": "how the client renders URLs is its interface",
  "ACP-ENUM-103": "which input control the client renders is its interface",
};

/** Elicitation rows: judged only for a client that advertised elicitation (check's agent has no elicitation probe yet). */
export const ELICITATION = ["ACP-ELICIT-101", "ACP-ELICIT-103", "ACP-ELICIT-104", "ACP-ELICIT-105", "ACP-ELICIT-106", "ACP-ELICIT-108", "ACP-ELICIT-110", "ACP-ELICIT-115", "ACP-ELICIT-118", "ACP-ELICIT-120", "ACP-ELICIT-124", "ACP-ELICIT-125", "ACP-ELICIT-126", "ACP-ELICIT-127", "ACP-ELICIT-128", "ACP-ENUM-101", "ACP-ENUM-103"];

/** Rows about methods check's agent never advertises, so a conforming client never calls them. */
export const UNADVERTISED: Readonly<Record<string, string>> = {
  "ACP-LOAD-101": "check's agent does not advertise loadSession, so the client has no session/load to send",
  "ACP-RESUME-101": "check's agent does not advertise sessionCapabilities.resume, so the client has no session/resume to send",
  "ACP-CLOSE-101": "check's agent does not advertise sessionCapabilities.close, so the client has no session/close to send",
  "ACP-DELETE-101": "check's agent does not advertise sessionCapabilities.delete, so the client has no session/delete to send",
  "ACP-AUTH-106": "check's agent does not advertise logout",
  "ACP-CANCEL-105": "check's agent sends no $/cancel_request",
  "ACP-TRANSPORT-104": "the client runs the agent over stdio, not a custom transport",
  "ACP-PATH-102": "the client sent no line numbers (v1 clients send none on their own)",
};

/** Gate rows that say "check before calling": decided with the MUST NOT rows of the same gate (every gate is closed, but session/list in the offers run). */
export const CHECK_BEFORE = ["ACP-AGENTCAP-102", "ACP-AGENTCAP-104", "ACP-AGENTCAP-106", "ACP-AGENTCAP-110", "ACP-AGENTCAP-112", "ACP-INIT-107"];

/** Why a row a scenario judges is still open, when no run reached its judging point. */
export const NOT_REACHED: Readonly<Record<string, string>> = {
  "ACP-AGENTCAP-101": "the client sent no session/prompt",
  "ACP-PROMPT-103": "the client sent no session/prompt",
  "ACP-PROMPT-102": "the client sent no session/prompt",
  "ACP-SESSION-102": "the client sent no session/new",
  "ACP-INIT-101": "the client sent no request",
  "ACP-INIT-102": "the client sent no initialize",
  "ACP-INIT-104": "the client sent no initialize",
  "ACP-INIT-108": "the client sent no initialize",
  "ACP-INIT-110": "the client sent no initialize",
  "ACP-INIT-103": "no run got as far as a session",
  "ACP-INIT-105": "the version run: the client sent no initialize",
  "ACP-SHUTDOWN-101": "the handshake run's turn did not finish",
  "ACP-JSONRPC-001": "the client answered no request of check's agent",
  "ACP-JSONRPC-002": "the client answered no request of check's agent",
  "ACP-JSONRPC-104": "the client answered no request of check's agent",
  "ACP-ERROR-101": "the client answered no request of check's agent with an error, so no error code was seen",
  "ACP-ERROR-001": "the client answered no request of check's agent with an error, so no error message was seen",
  "ACP-JSONRPC-003": "check's agent sent no notification the client could have answered",
  "ACP-TRANSPORT-101": "the client wrote no line",
  "ACP-TRANSPORT-002": "the client wrote no line",
  "ACP-TRANSPORT-203": "the client wrote no line",
  "ACP-TRANSPORT-103": "the client never started the agent",
  "ACP-JSONRPC-101": "the client wrote no message",
  "ACP-JSONRPC-102": "the client sent no request",
  "ACP-JSONRPC-103": "the client sent no request",
  "ACP-SESSION-103": "the client sent no session/new",
  "ACP-PATH-101": "the client sent no session/new",
  "ACP-ADDDIRS-101": "the client sent no session/new",
  "ACP-AGENTCAP-108": "the client sent no session/new",
  "ACP-AGENTCAP-109": "the client sent no session/new",
  "ACP-SCHEMA-002": "the client wrote no message",
  "ACP-META-001": "the updates run did not reach its turn",
  "ACP-PROMPT-105": "the updates run did not reach its turn",
  "ACP-EXT-104": "the updates run did not reach its turn",
  "ACP-META-102": "the updates run did not reach its turn",
  "ACP-SESSION-108": "the updates run did not reach its turn",
  "ACP-TRANSPORT-106": "the updates run did not reach its turn",
  "ACP-EXT-101": "the updates run did not reach its turn",
  "ACP-CONFIG-103": "the updates run did not reach its turn",
  "ACP-CONFIG-104": "the updates run did not reach its turn",
  "ACP-EXT-201": "the updates run did not reach its turn",
  "ACP-EXT-001": "the updates run did not reach its wire probes",
  "ACP-JSONRPC-004": "the updates run did not reach its wire probes",
  "ACP-INFO-PARSE-001": "the updates run did not reach its wire probes",
  "ACP-INFO-INVALIDREQ-001": "the updates run did not reach its wire probes",
  "ACP-JSONRPC-005": "the updates run did not reach its wire probes",
  "ACP-PERM-103": "the permission run did not reach its turn",
  "ACP-CLIENTCAP-103": "the permission run did not reach its turn",
  "ACP-FS-102": "the permission run did not reach its turn",
  "ACP-PERM-101": "the cancel run did not reach its turn",
  "ACP-PERM-102": "the cancel run did not reach its turn",
  "ACP-CANCEL-103": "the cancel run did not reach its turn",
  "ACP-CANCEL-110": "the cancel run did not reach its turn",
  "ACP-CANCEL-205": "the cancel run did not reach its turn",
  "ACP-CANCEL-109": "the cancel run did not reach its turn",
  "ACP-AUTH-101": "the offers run did not get past initialize",
  "ACP-AUTH-102": "the offers run did not get past initialize",
  "ACP-AUTH-103": "the offers run did not get past initialize",
  "ACP-LIST-101": "the offers run did not get past initialize",
  "ACP-LIST-102": "the offers run did not get past initialize",
  "ACP-LIST-105": "the offers run did not get past initialize",
  "ACP-LIST-106": "the offers run did not get past initialize",
  "ACP-EXT-103": "the client sent no _ request or notification",
  "ACP-EXT-202": "the client sent no _ request or notification",
  "ACP-AGENTCAP-102": "no run got as far as a session",
  "ACP-AGENTCAP-104": "no run got as far as a session",
  "ACP-AGENTCAP-106": "no run got as far as a session",
  "ACP-AGENTCAP-110": "no run got as far as a session",
  "ACP-AGENTCAP-112": "no run got as far as a session",
  "ACP-INIT-107": "no run got as far as a session",
};
