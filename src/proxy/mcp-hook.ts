/**
 * MCP over ACP for an agent without `mcpCapabilities.acp`, as a hook of the
 * conductor (the RFD: the conductor advertises the capability and bridges).
 * When the agent's initialize answer lacks it, the answer passed back says
 * `true` and a loopback bridge starts (`acp-router/mcp`'s `startBridge`:
 * 127.0.0.1, a bearer token, bounded body and concurrency). Each `type:
 * "acp"` server in a request that opens a session becomes the bridge's
 * `type: "http"` entry; the bridge's calls go back up the chain from the
 * agent's side as MCP-over-ACP requests, and the provider's notifications for
 * them reach the bridge instead of the agent. Closing an HTTP request cancels
 * its call; the bridge closes with the conductor.
 */
import { RpcError, type ErrorObject } from "../errors.ts";
import { isAcpServer, outcomeOf, type McpOutcome } from "../mcp/binding.ts";
import { startBridge, type McpBridge } from "../mcp/bridge.ts";
import type { ExchangeOptions, InnerRequest } from "../mcp/server-transport.ts";
import type { ChainRows } from "./chain-rows.ts";

/** What the conductor asks a hook at the agent's hop. */
export interface AgentHook {
  /** The agent's answer to its initialize, on its way back: the answer to pass on. */
  initializeAnswer(result: unknown): unknown;
  /** A request on its way to the agent (`params` reads its params, parsing them: only for a method the hook wants): undefined when it goes as it is, else its params once ready (the hop holds what follows till then). */
  request(method: string, params: () => unknown): Promise<unknown> | undefined;
  /** A notification on its way to the agent (`params` as for {@link AgentHook.request}): true when the hook took it. */
  notification(method: string, params: () => unknown): boolean;
  /** Ends what the hook started. */
  close(): Promise<void>;
}

/** Sends a request up the chain from the agent's side (in the envelope when a proxy is there); `answer` gets its answer. Returns a cancel, or the error that kept it from being sent. */
export type UpstreamCall = (method: string, params: unknown, answer: (body: Record<string, unknown>) => void) => { cancel(): void } | ErrorObject;

/** The MCP bridge hook, or undefined when the table has no MCP-over-ACP row. */
export function mcpBridgeHook(rows: ChainRows, upstream: UpstreamCall, diagnostic: (message: string) => void): AgentHook | undefined {
  const mcp = rows.mcp;
  if (mcp === undefined) return undefined;
  /** Undefined until the agent answered initialize without the capability; then the bridge (started once). */
  let bridge: Promise<McpBridge> | undefined;
  /** The bridge's calls in flight, by inner request id: where its provider's notifications go. */
  const calls = new Map<string, ExchangeOptions["notify"]>();
  let count = 0;

  /** The bridge's call: an MCP-over-ACP request up the chain; its provider's notifications come back to `notify`. */
  function forward(serverId: string, request: InnerRequest, options: ExchangeOptions): Promise<McpOutcome> {
    const requestId = `conductor-${++count}`;
    const inner = { serverId, requestId, method: request.method, ...(request.params === undefined ? {} : { params: request.params }) };
    return new Promise((resolve, reject) => {
      const done = () => {
        calls.delete(requestId);
        options.signal?.removeEventListener("abort", cancel);
      };
      calls.set(requestId, options.notify);
      const sent = upstream(mcp?.wire as string, inner, (answer) => {
        done();
        const outcome = "error" in answer ? undefined : outcomeOf(answer.result);
        if (outcome !== undefined) return resolve(outcome);
        // An outer error (a binding failure upstream) stays one: the bridge answers the agent with it.
        const error = answer.error as Partial<ErrorObject> | undefined;
        reject(error !== undefined && typeof error.code === "number" ? new RpcError(error.code, String(error.message), error.data) : RpcError.internal(`${mcp?.wire} was answered without result or error`));
      });
      if (!("cancel" in sent)) {
        done();
        return reject(RpcError.fromObject(sent));
      }
      const cancel = () => sent.cancel();
      options.signal?.addEventListener("abort", cancel, { once: true });
    });
  }

  return {
    initializeAnswer(result) {
      const r = result as Record<string, unknown> | null;
      const caps = (typeof r === "object" && r !== null ? r[rows.agentCapabilities] : undefined) as Record<string, unknown> | undefined;
      if (typeof r !== "object" || r === null || at(caps, mcp.capability) === true) return result;
      bridge ??= startBridge(forward);
      return { ...r, [rows.agentCapabilities]: withTrue(caps ?? {}, mcp.capability) };
    },
    request(method, read) {
      if (bridge === undefined || !rows.opensSession.has(method)) return undefined;
      const params = read();
      const servers = (params as { mcpServers?: unknown } | null)?.mcpServers;
      if (!Array.isArray(servers) || !servers.some(isAcpServer)) return undefined;
      return bridge.then(
        (b) => ({ ...(params as object), mcpServers: servers.map((s: unknown) => (isAcpServer(s) ? b.declare(s) : s)) }),
        (error: unknown) => {
          diagnostic(`the MCP bridge did not start (${error instanceof Error ? error.message : String(error)}); acp servers go to the agent unchanged`);
          return params;
        },
      );
    },
    notification(method, read) {
      if (method !== mcp.wire) return false;
      const p = read() as { requestId?: unknown; method?: unknown; params?: unknown } | null;
      const notify = typeof p?.requestId === "string" ? calls.get(p.requestId) : undefined;
      if (notify === undefined || typeof p?.method !== "string") return false;
      notify(p.method, (p.params ?? undefined) as Record<string, unknown> | undefined);
      return true;
    },
    close: async () => {
      await bridge?.then((b) => b.close()).catch(() => {});
    },
  };
}

/** The value at `path` below `value`. */
function at(value: unknown, path: readonly string[]): unknown {
  let v = value;
  for (const key of path) v = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[key] : undefined;
  return v;
}

/** `value` with `true` at `path`, each object on the way copied. */
function withTrue(value: Record<string, unknown>, path: readonly string[]): Record<string, unknown> {
  const [key, ...rest] = path;
  if (key === undefined) return value;
  const inner = value[key];
  return { ...value, [key]: rest.length === 0 ? true : withTrue(typeof inner === "object" && inner !== null ? (inner as Record<string, unknown>) : {}, rest) };
}
