/**
 * MCP-over-ACP as `inspect` and `report` see it: decodes the inner MCP
 * traffic that `mcp/message` carries (the inner method and request id, and
 * an answer's inner result or error) and checks the binding's rules
 * (docs/conformance-catalogue-unstable.json):
 *
 * - `mcp-outcome` (ACP-MCP-403): a successful answer carries exactly one of
 *   `result` / `error`, the error an object with an integer `code` and a
 *   string `message`;
 * - `mcp-inactive-notification` (ACP-MCP-405): a notification names an
 *   inner request that is active (its `mcp/message` request not answered);
 * - `mcp-undeclared-server` (ACP-MCP-406): a request names a `serverId` the
 *   client declared as a `type: "acp"` server in a session of this
 *   connection (`session/new`, `load`, `resume`, `fork`).
 *
 * The monitor calls {@link McpTracker.observe} once per message; it returns
 * the inner description shown by the trace and the report.
 */
import type { Requirement } from "./requirements-v2.ts";
import type { Found } from "./checks.ts";
import type { Sender } from "./rules.ts";

/** The catalogue entries of the rules above, copied as requirements.ts copies the others. */
export const MCP_ENTRIES: Readonly<Record<string, Requirement>> = {
  "ACP-MCP-403": { tier: "MUST", citation: "schema.json#/$defs/MessageMcpResponse", statement: "A successful mcp/message answer carries exactly one inner outcome: result (even JSON null) or a non-null MCP error object." },
  "ACP-MCP-405": { tier: "MUST", citation: "schema.json#/$defs/MessageMcpNotification", statement: "The provider sends mcp/message notifications only for an active inner request (one whose mcp/message request is not yet answered)." },
  "ACP-MCP-406": { tier: "MUST", citation: "schema.json#/$defs/MessageMcpRequest/properties/serverId; schema.json#/$defs/McpServerAcp", statement: "An mcp/message request names a serverId the client declared as a type acp server on this connection." },
};

const WIRE = "mcp/message";
const OPENING: ReadonlySet<string> = new Set(["session/new", "session/load", "session/resume", "session/fork"]);

export interface McpTracker {
  /**
   * One classified message: `answered` is the method an answer answers
   * (undefined otherwise). Returns the inner description
   * (`mcp tools/call #"r1" → server tools`), or undefined when it is no MCP traffic.
   */
  observe(from: Sender, kind: string, body: Record<string, unknown>, answered: string | undefined, report: Found): string | undefined;
}

interface Inner {
  readonly serverId: string;
  readonly requestId: string;
  readonly method: string;
}

/** Creates the tracker of one connection. */
export function createMcpTracker(): McpTracker {
  /** serverId → name, as the client declared them. */
  const declared = new Map<string, string>();
  /** The agent's outer request id (JSON) → its inner request. */
  const outer = new Map<string, Inner>();
  /** Active inner requests: `serverId` NUL `requestId`. */
  const active = new Set<string>();
  const key = (serverId: unknown, requestId: unknown) => `${String(serverId)}\u0000${String(requestId)}`;

  return {
    observe(from, kind, body, answered, report) {
      const method = body.method;
      const params = isObject(body.params) ? body.params : undefined;
      if (kind === "request" && from === "client" && typeof method === "string" && OPENING.has(method)) {
        for (const s of Array.isArray(params?.mcpServers) ? params.mcpServers : []) {
          if (isObject(s) && s.type === "acp" && typeof s.serverId === "string") declared.set(s.serverId, typeof s.name === "string" ? s.name : "");
        }
        return undefined;
      }
      if (method === WIRE && params !== undefined) {
        const inner: Inner = { serverId: String(params.serverId), requestId: String(params.requestId), method: String(params.method) };
        const text = `mcp ${inner.method} #${JSON.stringify(params.requestId)} → server ${declared.get(inner.serverId) || inner.serverId}`;
        if (kind === "request" && from === "agent") {
          if (!declared.has(inner.serverId)) report("mcp-undeclared-server", `agent sent mcp/message #${JSON.stringify(body.id)} to serverId ${JSON.stringify(params.serverId)}, which the client declared in no session`, "agent");
          outer.set(JSON.stringify(body.id), inner);
          active.add(key(inner.serverId, inner.requestId));
        } else if (kind === "notification" && from === "client" && !active.has(key(inner.serverId, inner.requestId))) {
          report("mcp-inactive-notification", `client sent mcp/message ${inner.method} for inner request ${JSON.stringify(params.requestId)} of serverId ${JSON.stringify(params.serverId)}, which is not active`, "client");
        }
        return text;
      }
      if (answered !== WIRE || from !== "client") return undefined;
      const id = JSON.stringify(body.id);
      const inner = outer.get(id);
      if (inner !== undefined) {
        outer.delete(id);
        active.delete(key(inner.serverId, inner.requestId));
      }
      const label = inner === undefined ? "mcp" : `mcp ${inner.method} #${JSON.stringify(inner.requestId)}`;
      if (!Object.prototype.hasOwnProperty.call(body, "result")) {
        const e = isObject(body.error) ? body.error : {};
        return `${label}: binding error ${String(e.code)}`;
      }
      const result = body.result;
      const hasResult = isObject(result) && Object.prototype.hasOwnProperty.call(result, "result");
      const hasError = isObject(result) && Object.prototype.hasOwnProperty.call(result, "error");
      if (hasResult === hasError) {
        report("mcp-outcome", `client answered mcp/message #${id} with ${hasResult ? "both result and error" : "neither result nor error"}`, "client");
        return `${label}: no single outcome`;
      }
      if (hasError) {
        const e = (result as Record<string, unknown>).error;
        if (!isObject(e) || !Number.isInteger(e.code) || typeof e.message !== "string") {
          report("mcp-outcome", `client answered mcp/message #${id} with an inner error that lacks an integer code or a string message`, "client");
          return `${label}: invalid error`;
        }
        return `${label}: error ${String(e.code)} ${e.message}`;
      }
      return `${label}: result`;
    },
  };
}

/** A session-opening request declaring a `type: "acp"` MCP server: only the unstable table's schema has that type, so the monitor widens to it. */
export function declaresAcpServer(method: string, params: unknown): boolean {
  if (!OPENING.has(method) || !isObject(params) || !Array.isArray(params.mcpServers)) return false;
  return params.mcpServers.some((s) => isObject(s) && s.type === "acp");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
