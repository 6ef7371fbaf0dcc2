/**
 * The conformance-catalogue entries (docs/conformance-catalogue.json) that
 * inspect's rules and check's probes report, copied so the tools need no docs at run time;
 * test/tools/rules.test.ts fails when they drift from the catalogue. The v2
 * entries are in requirements-v2.ts.
 */
import { V2_ENTRIES, type Requirement } from "./requirements-v2.ts";
import { MCP_ENTRIES } from "./mcp.ts";

export type { Requirement };

/** Entries by id. Look up with `requirement(id)`. */
const V1_ENTRIES: Readonly<Record<string, Requirement>> = {
  "ACP-AGENTCAP-103": { tier: "MUST NOT", citation: "docs/protocol/v1/session-setup.mdx:104", statement: "If loadSession is false or absent, the client does not call session/load." },
  "ACP-AGENTCAP-105": { tier: "MUST NOT", citation: "docs/protocol/v1/session-setup.mdx:213", statement: "If sessionCapabilities.resume is absent, the client does not call session/resume." },
  "ACP-AGENTCAP-107": { tier: "MUST NOT", citation: "docs/protocol/v1/session-setup.mdx:278", statement: "If sessionCapabilities.close is absent, the client does not call session/close." },
  "ACP-AGENTCAP-111": { tier: "MUST NOT", citation: "docs/protocol/v1/session-list.mdx:54", statement: "If sessionCapabilities.list is absent, the client does not call session/list." },
  "ACP-AGENTCAP-113": { tier: "MUST NOT", citation: "docs/protocol/v1/session-delete.mdx:52", statement: "If sessionCapabilities.delete is omitted or null, the client does not call session/delete." },
  "ACP-AGENTCAP-114": { tier: "MUST NOT", citation: "docs/protocol/v1/authentication.mdx:75", statement: "If agentCapabilities.auth.logout is omitted or null, the client does not call logout." },
  "ACP-AUTH-005": { tier: "none", citation: "docs/protocol/v1/authentication.mdx:46", statement: "(Inferred, acp-tck ADVISORY.) If authMethods is empty or absent, session/new does not fail with -32000." },
  "ACP-AUTH-101": { tier: "MUST NOT", citation: "docs/protocol/v1/authentication.mdx:153; schema.json#/$defs/AuthMethodTerminal", statement: "Clients never pass a terminal-type method to authenticate." },
  "ACP-AUTH-104": { tier: "MAY", citation: "docs/protocol/v1/authentication.mdx:167; schema.json#/$defs/ErrorCode", statement: "An agent may require authenticate first, failing gated requests with -32000 auth_required until it succeeds." },
  "ACP-CANCEL-001": { tier: "MUST", citation: "docs/protocol/v1/prompt-turn.mdx:332", statement: "After cancellation the agent answers the pending session/prompt with stopReason cancelled." },
  "ACP-CANCEL-002": { tier: "MUST", citation: "docs/protocol/v1/prompt-turn.mdx:343", statement: "session/update notifications sent after session/cancel come before the session/prompt response; none follow it." },
  "ACP-CANCEL-102": { tier: "MUST", citation: "docs/protocol/v1/prompt-turn.mdx:339; schema.json#/$defs/StopReason", statement: "Agents catch abort exceptions and still return stopReason cancelled, never a JSON-RPC error." },
  "ACP-CANCEL-105": { tier: "MUST", citation: "docs/protocol/v1/cancellation.mdx:20", statement: "A receiver of $/cancel_request still answers the original request: a valid result or an error -32800." },
  "ACP-CLIENTCAP-001": { tier: "MUST NOT", citation: "docs/protocol/v1/file-system.mdx:28", statement: "If readTextFile/writeTextFile is false or absent, the agent does not call the matching fs method." },
  "ACP-CLIENTCAP-002": { tier: "MUST NOT", citation: "docs/protocol/v1/terminals.mdx:25", statement: "If terminal is false or absent, the agent calls no terminal/* method." },
  "ACP-CLIENTCAP-003": { tier: "MUST NOT", citation: "docs/protocol/v1/elicitation.mdx:54", statement: "Agents do not request an elicitation mode the client has not advertised." },
  "ACP-CLOSE-101": { tier: "MUST", citation: "docs/protocol/v1/session-setup.mdx:282", statement: "session/close carries the sessionId." },
  "ACP-DELETE-101": { tier: "MUST", citation: "docs/protocol/v1/session-delete.mdx:8", statement: "The client completes initialization and checks the delete capability before calling session/delete." },
  "ACP-ERROR-101": { tier: "MUST", citation: "schema.json#/$defs/Error", statement: "An error object's code is an integer." },
  "ACP-EXT-001": { tier: "MUST", citation: "docs/protocol/v1/extensibility.mdx:65", statement: "A custom request always gets a response carrying its id." },
  "ACP-EXT-102": { tier: "MAY", citation: "docs/protocol/v1/extensibility.mdx:52", statement: "Custom requests and notifications are allowed when the method name starts with _." },
  "ACP-EXT-201": { tier: "SHOULD", citation: "docs/protocol/v1/extensibility.mdx:109", statement: "Unrecognised notifications (custom or otherwise) are ignored." },
  "ACP-INFO-INVALIDREQ-001": { tier: "SHOULD", citation: "docs/protocol/v1/overview.mdx:219; schema.json#/$defs/ErrorCode", statement: "(ACP docs silent; JSON-RPC 2.0 rule.) Valid JSON that is not a JSON-RPC message is answered with -32600 Invalid Request (id null if none usable)." },
  "ACP-INFO-PARSE-001": { tier: "SHOULD", citation: "docs/protocol/v1/overview.mdx:219; schema.json#/$defs/ErrorCode", statement: "(ACP docs silent; JSON-RPC 2.0 rule.) A line that is not valid JSON is answered with -32700 Parse error and id null." },
  "ACP-INIT-001": { tier: "MUST", citation: "docs/protocol/v1/initialization.mdx:54", statement: "The agent answers initialize with the chosen protocolVersion and the capabilities it supports." },
  "ACP-INIT-101": { tier: "MUST", citation: "docs/protocol/v1/initialization.mdx:24", statement: "The client must call initialize before a session can be created." },
  "ACP-JSONRPC-001": { tier: "MUST", citation: "schema.json#/$defs/RequestId", statement: "A response repeats the request's id exactly (same type and value)." },
  "ACP-JSONRPC-002": { tier: "MUST", citation: "docs/protocol/v1/overview.mdx:221; docs/protocol/v1/overview.mdx:222", statement: "A response carries either result (success) or an error object with code and message, never both." },
  "ACP-JSONRPC-003": { tier: "MUST NOT", citation: "docs/protocol/v1/overview.mdx:223", statement: "Notifications never receive a response, neither a result nor an error." },
  "ACP-JSONRPC-004": { tier: "SHOULD", citation: "docs/protocol/v1/extensibility.mdx:80", statement: "A request for a method the receiver does not recognise (including unknown _ methods) gets -32601 Method not found." },
  "ACP-JSONRPC-005": { tier: "none", citation: "docs/protocol/v1/overview.mdx:219", statement: "(Inferred, as in acp-tck.) After an erroneous message or a failed request the connection stays usable." },
  "ACP-JSONRPC-101": { tier: "MUST", citation: "docs/protocol/v1/overview.mdx:227", statement: 'Messages follow JSON-RPC 2.0: jsonrpc is "2.0" and the envelope fields id/method/params/result/error keep their JSON-RPC meaning.' },
  "ACP-JSONRPC-102": { tier: "MUST", citation: "schema.json#/$defs/RequestId", statement: "A request id, when present, is a string, a number or null; a message without an id is a notification." },
  "ACP-JSONRPC-103": { tier: "SHOULD NOT", citation: "schema.json#/$defs/RequestId", statement: "Outgoing request ids should not be null, and numeric ids should not have fractional parts." },
  "ACP-LIST-101": { tier: "MUST", citation: "docs/protocol/v1/session-list.mdx:10", statement: "The client completes initialization before calling session/list." },
  "ACP-LIST-103": { tier: "MUST", citation: "docs/protocol/v1/session-list.mdx:94", statement: "The agent answers session/list with a sessions list and optional pagination data." },
  "ACP-LOAD-101": { tier: "MUST", citation: "docs/protocol/v1/session-setup.mdx:108", statement: "session/load carries sessionId, mcpServers and cwd." },
  "ACP-PERM-101": { tier: "MUST", citation: "docs/protocol/v1/prompt-turn.mdx:328; schema.json#/$defs/RequestPermissionOutcome", statement: "When cancelling a turn, the client answers every pending session/request_permission with the cancelled outcome." },
  "ACP-PERM-102": { tier: "MUST", citation: "docs/protocol/v1/tool-calls.mdx:168; schema.json#/$defs/AgentRequest", statement: 'If the turn is cancelled, the client answers the permission request with outcome "cancelled".' },
  "ACP-PROMPT-001": { tier: "MUST", citation: "docs/protocol/v1/prompt-turn.mdx:217", statement: "When the turn ends, the agent answers session/prompt with a StopReason." },
  "ACP-PROMPT-003": { tier: "MUST", citation: "docs/protocol/v1/initialization.mdx:204; schema.json#/$defs/PromptRequest", statement: "Every agent accepts text and resource_link content blocks in session/prompt. (acp-tck keeps this ADVISORY because content.mdx only names text.)" },
  "ACP-PROMPT-101": { tier: "MUST", citation: "docs/protocol/v1/content.mdx:31; schema.json#/$defs/ContentBlock", statement: "Every agent accepts text content blocks in prompts." },
  "ACP-RESUME-101": { tier: "MUST", citation: "docs/protocol/v1/session-setup.mdx:217", statement: "session/resume carries the sessionId and cwd (the doc also lists mcpServers; the schema makes it optional)." },
  "ACP-SESSION-001": { tier: "MUST", citation: "docs/protocol/v1/session-setup.mdx:71", statement: "session/new answers with a session id." },
  "ACP-SESSION-101": { tier: "MUST", citation: "docs/protocol/v1/initialization.mdx:245; schema.json#/$defs/SessionCapabilities", statement: "Every agent supports session/new, session/prompt, session/cancel and session/update." },
  "ACP-SESSION-102": { tier: "MUST", citation: "docs/protocol/v1/session-setup.mdx:8", statement: "The client completes initialization before creating a session." },
  "ACP-SHUTDOWN-001": { tier: "none", citation: "docs/protocol/v1/transports.mdx:40", statement: "(No keyword; lifecycle diagram.) The client ends a stdio connection by closing the agent's stdin; the agent should then exit promptly." },
  "ACP-TRANSPORT-001": { tier: "MUST NOT", citation: "docs/protocol/v1/transports.mdx:26", statement: "The agent writes nothing to its stdout except valid ACP messages." },
  "ACP-TRANSPORT-101": { tier: "MUST NOT", citation: "docs/protocol/v1/transports.mdx:27", statement: "The client writes nothing to the agent's stdin except valid ACP messages." },
  "ACP-TRANSPORT-203": { tier: "MUST NOT", citation: "docs/protocol/v1/transports.mdx:24", statement: "stdio messages are delimited by \\n and a serialized message never contains a raw newline." },
};

/** v1 and v2 entries (their ids never collide: v2's are numbered from 301). */
const ENTRIES: Readonly<Record<string, Requirement>> = { ...V1_ENTRIES, ...V2_ENTRIES, ...MCP_ENTRIES };

/** The catalogue entry for `id`, or undefined. Own properties only. */
export function requirement(id: string): Requirement | undefined {
  return Object.prototype.hasOwnProperty.call(ENTRIES, id) ? ENTRIES[id] : undefined;
}

/** Every id listed. */
export const REQUIREMENT_IDS: readonly string[] = Object.keys(ENTRIES);

/** Commit of the ACP docs the catalogue cites. */
const DOCS_COMMIT = "b7f0005493b98de32fabee3e9540e2b64da68535";

/** A link to the first cited spec line (`docs/protocol/v1/x.mdx:12`, `docs/protocol/v2/…`), or undefined for schema citations. */
export function citationUrl(citation: string): string | undefined {
  const m = /^(docs\/protocol\/v[12]\/[\w-]+\.mdx):(\d+)(?:;|$)/.exec(citation);
  return m ? `https://github.com/agentclientprotocol/agent-client-protocol/blob/${DOCS_COMMIT}/${m[1]}#L${m[2]}` : undefined;
}
