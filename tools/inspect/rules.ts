/**
 * The rules `acp-router inspect` checks, each bound to the closest
 * requirement of docs/conformance-catalogue.json, or of
 * docs/conformance-catalogue-v2.json on a v2 connection (no id is invented:
 * a rule whose breach can come from several requirements picks one per case
 * and protocol version, see `requirementFor*` here and in the checkers). The
 * tier is the catalogue's.
 */

/** Who wrote a message: the editor side (`client`) or the agent. */
export type Sender = "client" | "agent";

/** The other side. */
export function peerOf(side: Sender): Sender {
  return side === "client" ? "agent" : "client";
}

/** One rule: a short name, what it checks, and its default requirement id. */
export interface RuleInfo {
  readonly title: string;
  readonly requirement: string;
}

/** Every rule, by name. Keys are the `rule` of a violation. */
export const RULES = {
  "non-json": { title: "a line on the protocol stream is not JSON", requirement: "ACP-TRANSPORT-001" },
  envelope: { title: "the JSON-RPC envelope is malformed (jsonrpc, params, result/error)", requirement: "ACP-JSONRPC-101" },
  "request-id": { title: "a request id is not a string or an integer", requirement: "ACP-JSONRPC-102" },
  "duplicate-request-id": { title: "a request id is reused while the first request is still pending", requirement: "ACP-JSONRPC-001" },
  "rejection-id": { title: "an error answer breaks the rejection-id rule (echo a usable id, else null)", requirement: "ACP-INFO-INVALIDREQ-001" },
  "error-object": { title: "an error object lacks an integer code or a string message", requirement: "ACP-ERROR-101" },
  "unknown-response-id": { title: "an answer names no request the peer sent", requirement: "ACP-JSONRPC-001" },
  "id-altered": { title: "an answer carries another id than its request's (an int64 id beyond 2^53 rounded)", requirement: "ACP-JSONRPC-001" },
  "answered-twice": { title: "a request is answered more than once", requirement: "ACP-JSONRPC-001" },
  "cancel-answered-twice": { title: "a request cancelled with $/cancel_request is answered more than once", requirement: "ACP-CANCEL-105" },
  "cancel-unanswered": { title: "a request cancelled with $/cancel_request is never answered", requirement: "ACP-CANCEL-105" },
  "unknown-method": { title: "a method that is neither in the table nor an _ extension", requirement: "ACP-EXT-102" },
  "method-not-found-code": { title: "an unknown method is answered with something other than -32601", requirement: "ACP-JSONRPC-004" },
  "required-method": { title: "a method every agent supports is answered -32601", requirement: "ACP-SESSION-101" },
  schema: { title: "params or result do not match the schema", requirement: "ACP-JSONRPC-101" },
  "init-order": { title: "a request before initialize was answered", requirement: "ACP-INIT-101" },
  "capability-gate": { title: "a method gated by a capability the handling side did not advertise", requirement: "ACP-AGENTCAP-103" },
  "auth-order": { title: "authentication out of order", requirement: "ACP-AUTH-104" },
  "unknown-session": { title: "session/update for a session no answer introduced", requirement: "ACP-SESSION-001" },
  "update-after-turn": { title: "turn content sent after the turn ended (v1: its answer; v2: its idle state_update)", requirement: "ACP-PROMPT-001" },
  "user-message-echo": { title: "a v2 turn ended without the user_message update carrying the prompt answer's messageId", requirement: "ACP-PROMPT-303" },
  "cancelled-prompt-stop-reason": { title: "a prompt cancelled by session/cancel is answered with a stop reason other than cancelled", requirement: "ACP-CANCEL-001" },
  "cancelled-prompt-error": { title: "a prompt cancelled by session/cancel is answered with an error", requirement: "ACP-CANCEL-102" },
  "permission-after-cancel": { title: "a permission request left unanswered, or not answered cancelled, after session/cancel", requirement: "ACP-PERM-101" },
  // MCP-over-ACP (tools/inspect/mcp.ts).
  "mcp-outcome": { title: "an mcp/message answer without exactly one inner result or error", requirement: "ACP-MCP-403" },
  "mcp-inactive-notification": { title: "an mcp/message notification for an inner request that is not active", requirement: "ACP-MCP-405" },
  "mcp-undeclared-server": { title: "an mcp/message request to a serverId the client never declared", requirement: "ACP-MCP-406" },
} as const satisfies Record<string, RuleInfo>;

export type RuleName = keyof typeof RULES;

/** One breach of a rule, as the monitor reports it. */
export interface Violation {
  readonly rule: RuleName;
  /** Conformance-catalogue id (docs/conformance-catalogue.json). */
  readonly requirement: string;
  /** Who broke the rule. */
  readonly by: Sender;
  /** One line saying what happened, naming the method, id and location. */
  readonly message: string;
  /** Milliseconds since the start of observation. */
  readonly t: number;
  /** Index of the message (0-based, both directions counted) the violation was found on; -1 at end of stream. */
  readonly index: number;
}

/** Capability-gate requirement per gated method (the caller's MUST NOT); v2 gates every session method by `capabilities.session`. */
export function requirementForGate(method: string, version: number): string {
  if (version === 2) return method.startsWith("session/") || method.endsWith("/cancel") ? "ACP-SESSION-301" : "ACP-INIT-306";
  switch (method) {
    case "session/load":
      return "ACP-AGENTCAP-103";
    case "session/resume":
      return "ACP-AGENTCAP-105";
    case "session/close":
      return "ACP-AGENTCAP-107";
    case "session/list":
      return "ACP-AGENTCAP-111";
    case "session/delete":
      return "ACP-AGENTCAP-113";
    case "logout":
      return "ACP-AGENTCAP-114";
    case "fs/read_text_file":
    case "fs/write_text_file":
      return "ACP-CLIENTCAP-001";
    case "elicitation/create":
    case "elicitation/complete":
      return "ACP-CLIENTCAP-003";
    default:
      return method.startsWith("terminal/") ? "ACP-CLIENTCAP-002" : "ACP-AGENTCAP-103";
  }
}

/** Requirement for a schema failure: the method's own requirement where the catalogue has one, else the JSON-RPC envelope rule. */
export function requirementForSchema(method: string, part: "params" | "result", version: number): string {
  if (version === 2 && method === "session/prompt" && part === "result") return "ACP-PROMPT-301";
  if (part === "result") {
    switch (method) {
      case "initialize":
        return "ACP-INIT-001";
      case "session/new":
        return "ACP-SESSION-001";
      case "session/prompt":
        return "ACP-PROMPT-001";
      case "session/list":
        return "ACP-LIST-103";
    }
  } else {
    switch (method) {
      case "session/load":
        return "ACP-LOAD-101";
      case "session/resume":
        return "ACP-RESUME-101";
      case "session/close":
        return "ACP-CLOSE-101";
    }
  }
  return "ACP-JSONRPC-101";
}

/** Requirement for a client request sent before initialize was answered. */
export function requirementForInitOrder(method: string, version: number): string {
  if (version === 2) return "ACP-INIT-301";
  switch (method) {
    case "session/new":
      return "ACP-SESSION-102";
    case "session/list":
      return "ACP-LIST-101";
    case "session/delete":
      return "ACP-DELETE-101";
    default:
      return "ACP-INIT-101";
  }
}
