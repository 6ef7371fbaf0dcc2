/**
 * The caller side of MCP-over-ACP (an agent): an MCP SDK `Client` whose
 * requests are `mcp/message` calls to a server the client declared.
 *
 * ```ts
 * const mcp = createMcpCaller({ clientInfo: { name: "my-agent", version: "1.0.0" } });
 * serveStdio(mcp.agent({
 *   initialize: () => ({ protocolVersion: 1, agentCapabilities: { mcpCapabilities: { acp: true } } }),
 *   newSession: () => ({ sessionId: "s1" }),
 *   async prompt({ sessionId }, ctx) {
 *     const [server] = mcp.servers(ctx);
 *     const client = await mcp.client(ctx, server.serverId);
 *     const result = await client.callTool({ name: "echo", arguments: { text: "hi" } }, { signal: ctx.signal });
 *     …
 *   },
 * }));
 * ```
 *
 * `mcp.agent(handler)` wraps the session-opening handlers (`newSession`,
 * `loadSession`, `resumeSession`, `forkSession`) to learn which `acp`
 * servers each session declared, `closeSession` to forget them, and adds
 * the `mcpMessage` notification handler that routes the provider's
 * notifications (progress) to the request they belong to.
 *
 * `mcp.client(ctx, serverId)` is allowed only when the agent advertised
 * `mcpCapabilities.acp` (checked by the connection's one gate, with its
 * wording: `agentCapabilities.mcpCapabilities.acp was not advertised by the
 * agent; not sent`) and the server was declared for `ctx`'s session — or, in
 * the handler of the `session/new` (etc.) that declares it, by that request.
 * Both refusals are `-32601` errors thrown before anything is sent.
 * `mcp/message` names no session on the wire, so the declaration is learnt
 * here, from the session's own params, rather than from the message.
 */
import type { Client } from "@modelcontextprotocol/client";
import { gate } from "../connection/gate.ts";
import { RpcError } from "../errors.ts";
import type { Row } from "../row.ts";
import { agentProtocol } from "../unstable/index.ts";
import { bindingError, isAcpServer, isObject, MCP_MESSAGE, MCP_PROTOCOL_VERSION, McpBindingError, outcomeOf, type AcpServerDeclaration } from "./binding.ts";
import { startBridge, type HttpServerDeclaration, type McpBridgeOptions } from "./bridge.ts";
import { AcpClientTransport, type NotificationRoutes, type SendMcpMessage } from "./client-transport.ts";
import { sessionIdOf } from "../jsonrpc/session-id.ts";

/** What the caller reads of an agent handler's context. */
export interface CallerContext {
  readonly peer: object;
  readonly sessionId: string | undefined;
  readonly requestId: string | number | undefined;
  readonly agentCapabilities: unknown;
  readonly clientCapabilities: unknown;
}

/** Options of {@link createMcpCaller}. */
export interface McpCallerOptions {
  /** The MCP client's name and version (sent in each request's `_meta`). Default `{ name: "acp-router", version: "0" }`. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
}

/** An agent's MCP clients over ACP: see {@link createMcpCaller}. */
export interface McpCaller {
  /** Wraps an agent handler so the caller learns each session's declared `acp` servers and routes `mcp/message` notifications. */
  agent<H extends object>(handler: H): H;
  /** The `acp` servers declared for `ctx`'s session (or by the session-opening request being handled). */
  servers(ctx: CallerContext): readonly AcpServerDeclaration[];
  /** An MCP SDK client (MCP 2026-07-28, connected) for a server declared for `ctx`'s session; refused as described above. */
  client(ctx: CallerContext, serverId: string): Promise<Client>;
  /**
   * Re-serves a declared server as a loopback MCP HTTP endpoint (for an MCP
   * backend that only takes URLs): each HTTP request becomes an
   * `mcp/message` call on `ctx`'s connection. Refused as `client` is.
   * `close` stops the bridge.
   */
  http(ctx: CallerContext, serverId: string, options?: McpBridgeOptions): Promise<McpHttpEndpoint>;
}

/** A declared server re-served over loopback HTTP by {@link McpCaller.http}. */
export interface McpHttpEndpoint {
  /** The `http` MCP server entry to hand to an MCP client (URL and `Authorization` header). */
  readonly declaration: HttpServerDeclaration;
  /** Stops the bridge: requests in flight are cancelled. */
  close(): Promise<void>;
}

interface PerConnection {
  /** sessionId → its declared acp servers. */
  readonly sessions: Map<string, Map<string, AcpServerDeclaration>>;
  /** A session-opening request being handled → the servers it declares. */
  readonly opening: Map<string | number, Map<string, AcpServerDeclaration>>;
  readonly routes: Map<string, (method: string, params: Record<string, unknown> | undefined) => void>;
  readonly clients: Map<string, Promise<Client>>;
  counter: number;
}

const OPENING = ["newSession", "loadSession", "resumeSession", "forkSession"] as const;

/** Creates a caller; one per application is enough (it keeps each connection's sessions apart). */
export function createMcpCaller(options: McpCallerOptions = {}): McpCaller {
  const clientInfo = options.clientInfo ?? { name: "acp-router", version: "0" };
  const prefix = globalThis.crypto.randomUUID();
  // Keyed by the client peer (ctx.peer): dropped with the connection.
  const connections = new WeakMap<object, PerConnection>();
  const row = agentProtocol.lookup.client.request(MCP_MESSAGE) as Row<never, never>;

  const stateOf = (peer: object): PerConnection => {
    let state = connections.get(peer);
    if (state === undefined) connections.set(peer, (state = { sessions: new Map(), opening: new Map(), routes: new Map(), clients: new Map(), counter: 0 }));
    return state;
  };

  const declaredIn = (ctx: CallerContext): Map<string, AcpServerDeclaration> | undefined => {
    const state = connections.get(ctx.peer);
    if (state === undefined) return undefined;
    if (ctx.sessionId !== undefined) {
      const known = state.sessions.get(ctx.sessionId);
      if (known !== undefined) return known;
    }
    return ctx.requestId === undefined ? undefined : state.opening.get(ctx.requestId);
  };

  const wrapOpening = (method: (params: unknown, ctx: CallerContext) => unknown) => async (params: unknown, ctx: CallerContext) => {
    const state = stateOf(ctx.peer);
    const servers = new Map<string, AcpServerDeclaration>();
    const list = isObject(params) && Array.isArray(params.mcpServers) ? params.mcpServers : [];
    for (const entry of list) if (isAcpServer(entry)) servers.set(entry.serverId, entry);
    const key = ctx.requestId;
    if (key !== undefined) state.opening.set(key, servers);
    try {
      const result = await method(params, ctx);
      const sessionId = sessionIdOf(result) ?? sessionIdOf(params);
      if (sessionId !== undefined) state.sessions.set(sessionId, servers);
      return result;
    } finally {
      if (key !== undefined) state.opening.delete(key);
    }
  };

  return {
    agent<H extends object>(handler: H): H {
      const h = handler as Record<string, unknown>;
      // Own and inherited methods (a class instance's too), bound to the handler.
      const wrapped: Record<string, unknown> = {};
      for (let o: object | null = handler; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
        for (const key of Object.getOwnPropertyNames(o)) {
          if (key === "constructor" || Object.prototype.hasOwnProperty.call(wrapped, key)) continue;
          const value = h[key];
          wrapped[key] = typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(handler) : value;
        }
      }
      for (const name of OPENING) {
        const method = h[name];
        if (typeof method === "function") wrapped[name] = wrapOpening(method.bind(handler) as (p: unknown, c: CallerContext) => unknown);
      }
      const close = h.closeSession;
      if (typeof close === "function") {
        wrapped.closeSession = async (params: { sessionId: string }, ctx: CallerContext) => {
          try {
            return await close.call(handler, params, ctx);
          } finally {
            connections.get(ctx.peer)?.sessions.delete(params.sessionId);
          }
        };
      }
      const own = h.mcpMessage;
      // Synchronous: session-less notifications share one lane, and a handler that returned a
      // promise would hold the next progress notification behind it, after the answer it precedes.
      wrapped.mcpMessage = (params: { requestId: string; method: string; params?: Record<string, unknown> | null }, ctx: CallerContext): unknown => {
        // Notifications for unknown or finished requests are dropped (the binding: only active requests have them).
        connections.get(ctx.peer)?.routes.get(params.requestId)?.(params.method, isObject(params.params) ? params.params : undefined);
        return typeof own === "function" ? own.call(handler, params, ctx) : undefined;
      };
      return wrapped as H;
    },

    servers(ctx) {
      return [...(declaredIn(ctx)?.values() ?? [])];
    },

    async client(ctx, serverId) {
      check(ctx, serverId);
      const state = stateOf(ctx.peer);
      let client = state.clients.get(serverId);
      if (client === undefined) {
        const peer = ctx.peer as { mcpMessage: SendMcpMessage };
        const routes = routesOf(state);
        // The MCP SDK's client is loaded on first use: a client application using only the provider needs only the server package.
        client = import("@modelcontextprotocol/client").then(async ({ Client: McpClient }) => {
          const created = new McpClient(clientInfo, { versionNegotiation: { mode: { pin: MCP_PROTOCOL_VERSION } } });
          await created.connect(new AcpClientTransport((p, o) => peer.mcpMessage(p, o), serverId, routes));
          return created;
        });
        state.clients.set(serverId, client);
        client.catch(() => state.clients.delete(serverId));
      }
      return client;
    },

    async http(ctx, serverId, bridgeOptions) {
      check(ctx, serverId);
      const state = stateOf(ctx.peer);
      const routes = routesOf(state);
      const peer = ctx.peer as { mcpMessage: SendMcpMessage };
      const server = declaredIn(ctx)?.get(serverId) as AcpServerDeclaration;
      const bridge = await startBridge(async (id, request, opts) => {
        const requestId = routes.nextId();
        routes.set(requestId, opts.notify);
        try {
          const answer = await peer.mcpMessage({ serverId: id, requestId, method: request.method, ...(request.params === undefined ? {} : { params: request.params }) }, opts.signal === undefined ? {} : { signal: opts.signal, stopWaitingOnCancel: true });
          const outcome = outcomeOf(answer);
          if (outcome === undefined) throw bindingError(McpBindingError.BackendFailed, `Invalid ${MCP_MESSAGE} response carrier`);
          return outcome;
        } finally {
          routes.delete(requestId);
        }
      }, bridgeOptions);
      return { declaration: bridge.declare(server), close: () => bridge.close() };
    },
  };

  function check(ctx: CallerContext, serverId: string): void {
    const refusal = gate(agentProtocol, { agentCapabilities: ctx.agentCapabilities, clientCapabilities: ctx.clientCapabilities }, row, "client");
    if (refusal !== undefined) throw RpcError.methodNotFound(MCP_MESSAGE, `${refusal.message}; not sent`);
    if (declaredIn(ctx)?.has(serverId) !== true) {
      const where = ctx.sessionId !== undefined ? `session ${JSON.stringify(ctx.sessionId)}` : "this request";
      throw RpcError.methodNotFound(MCP_MESSAGE, `MCP server ${JSON.stringify(serverId)} was not declared for ${where}; not sent`);
    }
  }

  function routesOf(state: PerConnection): NotificationRoutes {
    return {
      set: (id, deliver) => state.routes.set(id, deliver),
      delete: (id) => state.routes.delete(id),
      nextId: () => `${prefix}:${++state.counter}`,
    };
  }
}
