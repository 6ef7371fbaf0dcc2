/**
 * The trace format of the Rust SDK's conductor (`agent-client-protocol-conductor
 * --trace FILE`, read by its `agent-client-protocol-trace-viewer`): one JSON
 * object per line, each a request, a response or a notification between two
 * named components of a chain. Written by `inspect --trace FILE`; read back by
 * `inspect report` and `inspect replay` (recording.ts recognises it).
 *
 * The fields, as the Rust source defines them (crate
 * agent-client-protocol-conductor, src/trace.rs: `TraceEvent`, tagged by
 * `type` in snake case; struct fields keep their Rust names):
 *
 * - request: `ts`, `protocol` (`"acp"` | `"mcp"`), `from`, `to`, `id`,
 *   `method`, `session` (left out when unknown, never null), `params`;
 * - response: `ts`, `from`, `to`, `id`, `is_error`, `payload` (the result,
 *   or the error object);
 * - notification: `ts`, `protocol`, `from`, `to`, `method`, `session`, `params`.
 *
 * `ts` is seconds (a float) since the trace began. Components carry the
 * conductor's debug names: `Client`, `Proxy(0)`, `Proxy(1)`, …, `Agent`. An
 * `mcp/message` is written as the MCP message it carries (its inner method
 * and params, protocol `mcp`, the outer id), as the conductor does.
 *
 * What this writer adds or leaves, decided here: inspect sits between one
 * client and one agent, so its components are `Client` and `Agent`; a line
 * that is not JSON, or a message that is neither request, notification nor
 * response, has no place in the format and is left out (the `--record`
 * recording keeps it); each item of a JSON-RPC batch is its own event;
 * `session` is set when the params name a `sessionId` (the conductor leaves
 * it out today); every response is written, also one whose request was not
 * seen. Credentials are redacted ({@link redactCredentials}): the Rust
 * writer copies params verbatim, and a trace is meant to be shared.
 */
import { objectLines } from "./ndjson.ts";
import type { Sender } from "./rules.ts";
import { sessionIdOf } from "../../src/jsonrpc/session-id.ts";

/** A component name of the format for inspect's two sides. */
export const COMPONENT: Readonly<Record<Sender, string>> = { client: "Client", agent: "Agent" };

/** The replacement of a redacted value. */
export const REDACTED = "[redacted]";

/** Keys whose string values are credentials wherever they appear. */
const SECRET_KEY = /^(authorization|proxy-authorization|api[-_]?key|x-api-key|access[-_]?token|refresh[-_]?token|token|secret|client[-_]?secret|password|cookie|set-cookie)$/i;

/**
 * A copy of `value` with credentials replaced by {@link REDACTED}: the
 * `value` of every `{name, value}` item of an `env` or `headers` array (MCP
 * server declarations, `terminal/create`: environment variables and HTTP
 * headers are where ACP carries keys and tokens), and the string value of
 * any key named like a credential (`authorization`, `apiKey`, `token`,
 * `password`, …). Everything else is kept as it is.
 */
export function redactCredentials(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactCredentials);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if ((key === "env" || key === "headers") && Array.isArray(v)) out[key] = v.map(redactPair);
    else if (typeof v === "string" && SECRET_KEY.test(key)) out[key] = REDACTED;
    else out[key] = redactCredentials(v);
  }
  return out;
}

function redactPair(item: unknown): unknown {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return redactCredentials(item);
  const copy = redactCredentials(item) as Record<string, unknown>;
  if ("value" in copy) copy.value = REDACTED;
  return copy;
}

/** The message of one line as the writer needs it; undefined for anything but a request, notification or response object. */
type Message = Record<string, unknown>;

/**
 * The trace lines (each ending with a newline) for one line `line` written by
 * `from` at `t` ms since the trace began; empty when the line is not JSON or
 * holds no request, notification or response. `names`: the components of the
 * hop (a conductor's `Proxy(0)` → `Proxy(1)`), by default `Client` and `Agent`
 * as the sides of {@link COMPONENT}.
 */
export function rustTraceLines(from: Sender, line: string, t: number, names?: { readonly from: string; readonly to: string }): string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return "";
  }
  const items = Array.isArray(value) ? value : [value];
  let out = "";
  for (const item of items) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) continue;
    const event = toEvent(names?.from ?? COMPONENT[from], names?.to ?? COMPONENT[from === "client" ? "agent" : "client"], item as Message, t / 1000);
    if (event !== undefined) out += `${JSON.stringify(event)}\n`;
  }
  return out;
}

function toEvent(source: string, target: string, m: Message, ts: number): Record<string, unknown> | undefined {
  if (typeof m.method === "string") {
    let method = m.method;
    let params: unknown = m.params ?? null;
    let protocol = "acp";
    const inner = params as { method?: unknown; params?: unknown } | null;
    if (method === "mcp/message" && typeof inner === "object" && inner !== null && typeof inner.method === "string") {
      protocol = "mcp";
      method = inner.method;
      params = inner.params ?? null;
    }
    const sessionId = sessionIdOf(m.params);
    const base = { ts, protocol, from: source, to: target };
    const session = sessionId !== undefined ? { session: sessionId } : {};
    if ("id" in m) return { type: "request", ...base, id: m.id ?? null, method, ...session, params: redactCredentials(params) };
    return { type: "notification", ...base, method, ...session, params: redactCredentials(params) };
  }
  if ("result" in m || "error" in m) {
    const isError = "error" in m && !("result" in m);
    return { type: "response", ts, from: source, to: target, id: m.id ?? null, is_error: isError, payload: redactCredentials(isError ? m.error : m.result) };
  }
  return undefined;
}

/** One event read back from a trace in this format. */
export interface RustTraceEvent {
  readonly type: "request" | "response" | "notification";
  /** Milliseconds since the trace began. */
  readonly t: number;
  readonly protocol: "acp" | "mcp";
  readonly from: string;
  readonly to: string;
  /** The JSON-RPC message the event stands for, rebuilt (`jsonrpc`, `id`, `method`, `params`, or `result` / `error`). */
  readonly msg: Record<string, unknown>;
}

/** True when the first non-blank line of `text` is an event of this format (a `type` of request, response or notification and a numeric `ts`). */
export function isRustTrace(text: string): boolean {
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const e = JSON.parse(line) as Record<string, unknown>;
      return typeof e === "object" && e !== null && typeof e.ts === "number" && (e.type === "request" || e.type === "response" || e.type === "notification");
    } catch {
      return false;
    }
  }
  return false;
}

/**
 * Reads a trace of this format: one event per line that is one (blank lines,
 * lines that are not JSON and events of another type are skipped, as the
 * Rust viewer skips them), in file order.
 */
export function readRustTrace(text: string): RustTraceEvent[] {
  const out: RustTraceEvent[] = [];
  // A response has no protocol of its own: it takes its request's (the request's receiver and id name it).
  const mcpRequests = new Set<string>();
  const callKey = (answerer: string, id: unknown) => `${answerer}\u0000${JSON.stringify(id ?? null)}`;
  for (const e of objectLines(text)) {
    const t = typeof e.ts === "number" ? e.ts * 1000 : 0;
    const from = typeof e.from === "string" ? e.from : "?";
    const to = typeof e.to === "string" ? e.to : "?";
    let protocol: "acp" | "mcp" = e.protocol === "mcp" ? "mcp" : "acp";
    if (e.type === "request" && protocol === "mcp") mcpRequests.add(callKey(to, e.id));
    if (e.type === "response" && mcpRequests.delete(callKey(from, e.id))) protocol = "mcp";
    const params = e.params === null || e.params === undefined ? {} : { params: e.params };
    if (e.type === "request" && typeof e.method === "string") out.push({ type: "request", t, protocol, from, to, msg: { jsonrpc: "2.0", id: e.id ?? null, method: e.method, ...params } });
    else if (e.type === "notification" && typeof e.method === "string") out.push({ type: "notification", t, protocol, from, to, msg: { jsonrpc: "2.0", method: e.method, ...params } });
    else if (e.type === "response") out.push({ type: "response", t, protocol, from, to, msg: { jsonrpc: "2.0", id: e.id ?? null, ...(e.is_error === true ? { error: e.payload } : { result: e.payload ?? null }) } });
  }
  return out;
}

/**
 * Where a component sits in a chain: the client first, proxies by index,
 * the agent last (`Client`, `Proxy(0)`, `Agent`, and the doc comments'
 * `client`, `proxy:0`, `agent` spellings). Unknown names sit between the
 * client and the first proxy.
 */
export function componentRank(name: string): number {
  if (/^client$/i.test(name)) return 0;
  if (/^agent$/i.test(name)) return Number.POSITIVE_INFINITY;
  const proxy = /^proxy\D*(\d+)\)?$/i.exec(name);
  if (proxy) return Number(proxy[1]) + 1;
  return 0.5;
}

/** The sender of an event as inspect's rules see its hop: the side nearer the client is the hop's client. */
export function hopSender(from: string, to: string): Sender {
  return componentRank(from) <= componentRank(to) ? "client" : "agent";
}

/** A hop's name, its two components nearest the client first: `Client ↔ Proxy(0)`. */
export function hopName(from: string, to: string): string {
  return hopSender(from, to) === "client" ? `${from} ↔ ${to}` : `${to} ↔ ${from}`;
}
