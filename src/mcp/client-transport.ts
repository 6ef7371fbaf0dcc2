/**
 * An MCP client `Transport` (the MCP SDK's seam) whose requests are ACP
 * `mcp/message` calls to one declared server. Each inner request gets a
 * fresh `requestId` (unique on the connection); its answer's inner outcome
 * becomes the JSON-RPC response the MCP client reads, and the provider's
 * `mcp/message` notifications for it are delivered as JSON-RPC
 * notifications (progress). Cancelling an inner request (the MCP client
 * aborts the per-request signal, as it does over Streamable HTTP) cancels
 * the outer call with `$/cancel_request`. Outer ACP errors (a refusal, a
 * binding failure) reach the MCP client as JSON-RPC errors with the outer
 * code, so `-33001` reads as `-33001`.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from "@modelcontextprotocol/client";
import { isObject, MCP_MESSAGE, McpBindingError, outcomeOf } from "./binding.ts";

/** Sends one `mcp/message` request (the agent's `ctx.peer.mcpMessage`). */
export type SendMcpMessage = (params: { serverId: string; requestId: string; method: string; params?: Record<string, unknown> }, options: { signal?: AbortSignal; stopWaitingOnCancel?: boolean }) => Promise<unknown>;

/** The caller's routes for notifications: requestId → where its notifications go. */
export interface NotificationRoutes {
  set(requestId: string, deliver: (method: string, params: Record<string, unknown> | undefined) => void): void;
  delete(requestId: string): void;
  /** A new requestId, unique on the connection. */
  nextId(): string;
}

export class AcpClientTransport implements Transport {
  onmessage?: Transport["onmessage"];
  onclose?: Transport["onclose"];
  onerror?: Transport["onerror"];
  /** Each request has its own outer call, so the MCP client cancels by aborting `requestSignal` (no `notifications/cancelled`). */
  readonly hasPerRequestStream = true;
  private readonly send_: SendMcpMessage;
  private readonly serverId: string;
  private readonly routes: NotificationRoutes;
  private closed = false;

  constructor(send: SendMcpMessage, serverId: string, routes: NotificationRoutes) {
    this.send_ = send;
    this.serverId = serverId;
    this.routes = routes;
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.closed) throw new Error("MCP-over-ACP transport is closed");
    const body = message as Record<string, unknown>;
    const id = body.id;
    // Only requests travel: MCP 2026-07-28 client notifications have no carrier (cancellation is the outer `$/cancel_request`).
    if (typeof body.method !== "string" || (typeof id !== "string" && typeof id !== "number")) return;
    const requestId = this.routes.nextId();
    this.routes.set(requestId, (method, params) => this.deliver({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) }));
    const signal = options?.requestSignal;
    const params = isObject(body.params) ? body.params : undefined;
    this.send_({ serverId: this.serverId, requestId, method: body.method, ...(params === undefined ? {} : { params }) }, signal === undefined ? {} : { signal, stopWaitingOnCancel: true }).then(
      (answer) => {
        this.routes.delete(requestId);
        const outcome = outcomeOf(answer);
        if (outcome === undefined) this.deliver({ jsonrpc: "2.0", id, error: { code: McpBindingError.BackendFailed, message: `Invalid ${MCP_MESSAGE} response carrier` } });
        else if ("error" in outcome) this.deliver({ jsonrpc: "2.0", id, error: outcome.error });
        else this.deliver({ jsonrpc: "2.0", id, result: outcome.result });
      },
      (error: unknown) => {
        this.routes.delete(requestId);
        if (signal?.aborted) return; // the MCP client already settled the request it cancelled
        const e = error as { code?: unknown; message?: unknown; data?: unknown };
        const code = Number.isInteger(e?.code) ? (e.code as number) : McpBindingError.BackendFailed;
        const text = typeof e?.message === "string" ? e.message : String(error);
        this.deliver({ jsonrpc: "2.0", id, error: e?.data === undefined ? { code, message: text } : { code, message: text, data: e.data } });
      },
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  private deliver(message: Record<string, unknown>): void {
    if (this.closed) return;
    try {
      this.onmessage?.(message as JSONRPCMessage);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
