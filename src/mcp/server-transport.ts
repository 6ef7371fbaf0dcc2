/**
 * An MCP server `Transport` (the MCP SDK's seam) whose channel is a set of
 * exchanges: each inner MCP request handed in by {@link ServerExchanges.exchange}
 * is delivered to the server as one JSON-RPC request, and the server's
 * answer settles that exchange. Notifications the server relates to an
 * active request are passed to that exchange's `notify`; any other
 * notification is dropped (the binding sends notifications only for active
 * requests). The provider and the loopback HTTP bridge both feed it.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from "@modelcontextprotocol/server";
import { ErrorCode } from "../error-code.ts";
import { RpcError } from "../errors.ts";
import { bindingError, isMcpError, isObject, McpBindingError, type McpOutcome } from "./binding.ts";

/** One inner request as the binding carries it. */
export interface InnerRequest {
  readonly requestId: string;
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
}

/** Where an exchange's notifications go and what cancels it. */
export interface ExchangeOptions {
  /** Receives each notification the server relates to this request, while it is active. */
  readonly notify: (method: string, params: Record<string, unknown> | undefined) => void;
  /** Aborting cancels the request: the server gets `notifications/cancelled`, the exchange rejects `-32800`. */
  readonly signal?: AbortSignal | undefined;
}

interface Exchange {
  readonly resolve: (outcome: McpOutcome) => void;
  readonly reject: (error: unknown) => void;
  readonly notify: ExchangeOptions["notify"];
}

/** The transport the MCP server is connected to, plus the exchanges feeding it. */
export class ServerExchanges implements Transport {
  /** Set by the MCP server when it connects: receives each inner request (and `notifications/cancelled`) this transport delivers. */
  onmessage?: Transport["onmessage"];
  /** Set by the MCP server when it connects: called once when this transport closes. */
  onclose?: Transport["onclose"];
  /** Set by the MCP server when it connects: called with the error when handing it a message throws. */
  onerror?: Transport["onerror"];
  private readonly active = new Map<string, Exchange>();
  private isClosed = false;

  /** Called by the MCP server when it connects; there is nothing to open (exchanges are handed in by {@link ServerExchanges.exchange}). */
  async start(): Promise<void> {}

  /** Number of inner requests in flight. */
  get size(): number {
    return this.active.size;
  }

  /** Whether `requestId` is an active inner request. */
  has(requestId: string): boolean {
    return this.active.has(requestId);
  }

  /**
   * Hands one inner request to the server; settles with its outcome. Rejects
   * with `-32800` when `signal` aborts (the server gets
   * `notifications/cancelled`), and with `-33001` when the server closed.
   */
  exchange(request: InnerRequest, options: ExchangeOptions): Promise<McpOutcome> {
    if (this.isClosed) return Promise.reject(bindingError(McpBindingError.ServerUnavailable, "MCP server registration unavailable: it was closed"));
    if (this.active.has(request.requestId)) return Promise.reject(bindingError(McpBindingError.InvalidParams, "duplicate active MCP request ID", { requestId: request.requestId }));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(RpcError.requestCancelled());
    return new Promise<McpOutcome>((resolve, reject) => {
      const onAbort = () => {
        if (!this.active.delete(request.requestId)) return;
        reject(RpcError.requestCancelled());
        this.deliver({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: request.requestId, reason: "cancelled by the caller" } });
      };
      const done = () => signal?.removeEventListener("abort", onAbort);
      this.active.set(request.requestId, {
        resolve: (outcome) => (done(), resolve(outcome)),
        reject: (error) => (done(), reject(error)),
        notify: options.notify,
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      const message = { jsonrpc: "2.0" as const, id: request.requestId, method: request.method, ...(request.params === undefined ? {} : { params: request.params }) };
      this.deliver(message);
    });
  }

  /** From the server: an answer settles its exchange; a related notification reaches its exchange; the rest is dropped. */
  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const body = message as Record<string, unknown>;
    const id = body.id;
    if (typeof body.method === "string") {
      if (id !== undefined) {
        // MCP 2026-07-28 has no server-to-client requests; answer one so the server does not wait.
        this.deliver({ jsonrpc: "2.0", id: id as string, error: { code: ErrorCode.MethodNotFound, message: "Method not found: the MCP-over-ACP binding carries no server-to-client requests" } });
        return;
      }
      const related = options?.relatedRequestId;
      const exchange = related === undefined ? undefined : this.active.get(String(related));
      exchange?.notify(body.method, isObject(body.params) ? body.params : undefined);
      return;
    }
    if (typeof id !== "string" && typeof id !== "number") return;
    const exchange = this.active.get(String(id));
    if (exchange === undefined) return; // cancelled meanwhile: the late answer is dropped
    this.active.delete(String(id));
    if (Object.prototype.hasOwnProperty.call(body, "result")) exchange.resolve({ result: body.result });
    else if (isMcpError(body.error)) exchange.resolve({ error: body.error });
    else exchange.reject(bindingError(McpBindingError.BackendFailed, "MCP server returned an invalid JSON-RPC response"));
  }

  /** Closes: every active exchange rejects with `-33001`, later ones too. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    const error = bindingError(McpBindingError.ServerUnavailable, "MCP server registration unavailable: it was closed");
    for (const exchange of this.active.values()) exchange.reject(error);
    this.active.clear();
    this.onclose?.();
  }

  private deliver(message: Record<string, unknown>): void {
    try {
      this.onmessage?.(message as JSONRPCMessage);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
