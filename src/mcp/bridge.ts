/**
 * The loopback HTTP bridge: re-serves `acp` MCP servers as MCP 2026-07-28
 * Streamable HTTP endpoints for an agent that did not advertise
 * `mcpCapabilities.acp` (the provider starts one per connection and rewrites
 * the declarations), or for anything else that forwards to a provider (a
 * conductor forwards with `mcp/message` calls).
 *
 * Each POST carries one JSON-RPC request and becomes one forwarded inner
 * request under a fresh `requestId`; closing the HTTP response cancels it.
 * The answer is `application/json`, or `text/event-stream` once the server
 * sent a notification for it (progress) before its answer.
 *
 * Bounds, each a clear answer rather than a dropped connection:
 * - bound to `127.0.0.1` on a free port; each server has its own path and
 *   bearer token (`Authorization` header of the declaration, never the URL):
 *   `401` without it;
 * - a body over `maxRequestBodyBytes` (default 1 MiB, the official SDK's):
 *   `413` with a `-33000` JSON-RPC error;
 * - more than `maxActiveRequests` (default 64) at once: `429` with `-33000`;
 * - batches, GET streams and DELETE are not part of the stateless binding:
 *   `400` / `405`.
 */
import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { RpcError } from "../errors.ts";
import { isObject, McpBindingError, type AcpServerDeclaration, type McpOutcome } from "./binding.ts";
import type { ExchangeOptions, InnerRequest } from "./server-transport.ts";

/** Where the bridge sends each inner request. */
export type BridgeForward = (serverId: string, request: InnerRequest, options: ExchangeOptions) => Promise<McpOutcome>;

/** Bounds of {@link startBridge}. */
export interface McpBridgeOptions {
  /** Largest request body accepted, in bytes. Default 1 MiB. */
  readonly maxRequestBodyBytes?: number;
  /** Most requests forwarded at once; more answer `429`. Default 64. */
  readonly maxActiveRequests?: number;
}

/** The `http` entry that replaces an `acp` one. */
export interface HttpServerDeclaration {
  readonly type: "http";
  readonly name: string;
  readonly url: string;
  readonly headers: { readonly name: string; readonly value: string }[];
  readonly _meta?: Record<string, unknown> | null;
}

/** A running loopback bridge: see {@link startBridge}. */
export interface McpBridge {
  /** The base URL (`http://127.0.0.1:<port>`). */
  readonly url: string;
  /** The `http` declaration serving `server` through this bridge. */
  declare(server: AcpServerDeclaration): HttpServerDeclaration;
  /** Stops listening and cancels every forwarded request. */
  close(): Promise<void>;
}

/** Starts a bridge on 127.0.0.1 (a free port) that forwards to `forward`. */
export async function startBridge(forward: BridgeForward, options: McpBridgeOptions = {}): Promise<McpBridge> {
  const maxBody = options.maxRequestBodyBytes ?? 1024 * 1024;
  const maxActive = options.maxActiveRequests ?? 64;
  const routes = new Map<string, { serverId: string; token: string }>();
  const inFlight = new Set<AbortController>();
  let next = 0;
  let requestCount = 0;

  const http = createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.end();
    });
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const route = routes.get((req.url ?? "").split("?")[0] ?? "");
    if (route === undefined) return void res.writeHead(404).end();
    if (!sameText(req.headers.authorization, `Bearer ${route.token}`)) return void res.writeHead(401, { "www-authenticate": "Bearer" }).end();
    if (req.method !== "POST") return void res.writeHead(405, { allow: "POST" }).end();
    if (inFlight.size >= maxActive) return reply(res, 429, errorBody(null, McpBindingError.ResourceLimitExceeded, "MCP-over-ACP active request limit exceeded"));
    const body = await readBody(req, maxBody);
    if (body === undefined) return reply(res, 413, errorBody(null, McpBindingError.ResourceLimitExceeded, `request body larger than maxRequestBodyBytes (${maxBody})`));
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      return reply(res, 400, errorBody(null, -32700, "Parse error"));
    }
    if (Array.isArray(message)) return reply(res, 400, errorBody(null, -32600, "Invalid request: batches are not supported"));
    if (!isObject(message) || typeof message.method !== "string") return void res.writeHead(202).end(); // a response or anything else: nothing to forward
    const id = message.id;
    if (id === undefined) return void res.writeHead(202).end(); // notifications: cancellation is closing the request's stream
    if (typeof id !== "string" && typeof id !== "number") return reply(res, 400, errorBody(null, -32600, "Invalid request: id must be a string or a number"));
    const controller = new AbortController();
    inFlight.add(controller);
    res.once("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    let streaming = false;
    const notify = (method: string, params: Record<string, unknown> | undefined) => {
      if (res.writableEnded) return;
      if (!streaming) {
        streaming = true;
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      }
      res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) })}\n\n`);
    };
    const params = isObject(message.params) ? message.params : undefined;
    let answer: object;
    try {
      const outcome = await forward(route.serverId, { requestId: `http-${++requestCount}`, method: message.method, params }, { notify, signal: controller.signal });
      answer = "error" in outcome ? { jsonrpc: "2.0", id, error: outcome.error } : { jsonrpc: "2.0", id, result: outcome.result };
    } catch (error) {
      const e = error instanceof RpcError ? error : new RpcError(McpBindingError.BackendFailed, "MCP-over-ACP forwarding failed");
      answer = errorBody(id, e.code, e.message, e.data);
    } finally {
      inFlight.delete(controller);
    }
    if (res.writableEnded || controller.signal.aborted) return;
    if (streaming) res.end(`data: ${JSON.stringify(answer)}\n\n`);
    else reply(res, 200, answer);
  };

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(0, "127.0.0.1", () => resolve());
  });
  http.unref?.();
  const port = (http.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  let closed: Promise<void> | undefined;
  return {
    url,
    declare(server) {
      const path = `/mcp/${++next}`;
      const token = globalThis.crypto.randomUUID();
      routes.set(path, { serverId: server.serverId, token });
      return { type: "http", name: server.name, url: `${url}${path}`, headers: [{ name: "Authorization", value: `Bearer ${token}` }], ...(server._meta === undefined ? {} : { _meta: server._meta }) };
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        for (const controller of inFlight) controller.abort();
        routes.clear();
        http.close(() => resolve());
        http.closeAllConnections();
      });
      return closed;
    },
  };
}

/** Compares a header with the expected token in constant time. */
function sameText(got: string | undefined, expected: string): boolean {
  if (got === undefined) return false;
  const a = Buffer.from(got);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function errorBody(id: string | number | null, code: number, message: string, data?: unknown): object {
  return { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } };
}

function reply(res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text);
}

/** The body as text, or undefined once it passes `max` bytes (reading stops there). */
function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > max) {
    req.resume();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.removeAllListeners("data");
        req.resume();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    req.once("end", () => resolve(size > max ? undefined : Buffer.concat(chunks).toString("utf8")));
    req.once("error", reject);
  });
}
