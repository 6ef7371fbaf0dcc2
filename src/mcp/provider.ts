/**
 * The provider side of MCP-over-ACP (a client, or a proxy): MCP servers
 * registered on a connection, declared as `{ type: "acp", name, serverId }`
 * in `session/new` / `load` / `resume` / `fork`, and served from the
 * agent's `mcp/message` requests.
 *
 * ```ts
 * const mcp = createMcpProvider();
 * const conn = connectClient({ ...handlers, mcpMessage: mcp.mcpMessage }, transport);
 * await conn.agent.initialize({ protocolVersion: 1, clientCapabilities: {} });
 * const tools = mcp.register(conn, { name: "tools", server: () => myMcpServer() });
 * const { sessionId } = await conn.agent.newSession(await mcp.declare(conn, { cwd, mcpServers: [tools.declaration] }));
 * ```
 *
 * Decisions where the schema is silent:
 * - `mcp/message` names no session, so the provider serves a server once
 *   {@link McpProvider.declare} put it in a session of that connection; a
 *   registered but undeclared (or closed) server answers `-33001`.
 * - An inner message (its `params`) over `maxMessageBytes` (default 1 MiB,
 *   the official SDK's HTTP bridge bound) answers `-33000`, as do requests
 *   beyond `maxActiveRequests` (default 64, the SDK's) per server.
 * - Servers are MCP 2026-07-28 servers of `@modelcontextprotocol/server`,
 *   built by a factory, served through its `serveStdio(factory, { transport })`
 *   over an ACP-backed transport; closing the connection closes them.
 */
import type { McpServerFactory } from "@modelcontextprotocol/server";
import { hasCapability } from "../connection/gate.ts";
import { RpcError } from "../errors.ts";
import type { MessageMcpRequest, MessageMcpResponse } from "../unstable/index.ts";
import { bindingError, isAcpServer, isObject, MCP_MESSAGE, McpBindingError, type AcpServerDeclaration, type McpOutcome } from "./binding.ts";
import { startBridge, type McpBridge, type McpBridgeOptions } from "./bridge.ts";
import { messageBytes } from "./size.ts";
import { ServerExchanges, type ExchangeOptions, type InnerRequest } from "./server-transport.ts";

/** What the provider reads of a client connection (`connectClient` of `acp-router/unstable`). */
export interface ProviderConnection {
  /** The agent peer: also the handler context's `ctx.peer`, which is how an `mcp/message` finds its connection. */
  readonly agent: object;
  readonly agentCapabilities: unknown;
  readonly closed: Promise<unknown>;
}

/** What the provider's `mcpMessage` reads of the client handler's context (`ClientContext` has it). */
export interface ProviderContext {
  readonly peer: object;
  readonly signal: AbortSignal;
}

/** An `mcp/message` request's params as the table decodes them. */
interface MessageParams {
  readonly serverId: string;
  readonly requestId: string;
  readonly method: string;
  readonly params?: Record<string, unknown> | null;
}

/** Bounds of {@link createMcpProvider}. */
export interface McpProviderOptions {
  /** Largest inner message (its `params` as JSON, in UTF-8 bytes) served; larger answers `-33000`. Default 1 MiB. */
  readonly maxMessageBytes?: number;
  /** Most inner requests active per server; more answer `-33000`. Default 64 (the official SDK's). */
  readonly maxActiveRequests?: number;
  /** Options of the loopback HTTP bridge {@link McpProvider.declare} starts for an agent without `mcpCapabilities.acp`. */
  readonly bridge?: McpBridgeOptions;
}

/** One MCP server registered on one connection. */
export interface McpRegistration {
  readonly name: string;
  /** Unique on its connection for the connection's lifetime (never reused, even after `close`). */
  readonly serverId: string;
  /** The `mcpServers` entry to put in a session's params (pass the params through {@link McpProvider.declare}). */
  readonly declaration: AcpServerDeclaration;
  /** Stops serving: active requests fail with `-33001`, later ones too. */
  close(): Promise<void>;
}

/** A client's (or proxy's) MCP servers over ACP: see {@link createMcpProvider}. */
export interface McpProvider {
  /** The client handler's `mcpMessage`: answers the agent's `mcp/message` requests. */
  readonly mcpMessage: (params: MessageMcpRequest, ctx: ProviderContext) => Promise<MessageMcpResponse>;
  /**
   * Registers an MCP server on `conn`. `server` builds the MCP SDK server
   * (`McpServer` or `Server`) once, on the first request. Throws when
   * `serverId` was already used on this connection.
   */
  register(conn: ProviderConnection, options: { readonly name: string; readonly server: McpServerFactory; readonly serverId?: string }): McpRegistration;
  /**
   * Returns `params` (of `session/new`, `load`, `resume` or `fork`) ready to
   * send: its `acp` entries registered on `conn` are now served. When the
   * agent did not advertise `mcpCapabilities.acp`, they are rewritten into
   * `http` entries served by a loopback bridge (127.0.0.1, bearer token per
   * server) started for the connection; that needs `mcpCapabilities.http`,
   * else it throws. Entries of other types pass unchanged.
   */
  declare<P extends { readonly mcpServers?: readonly unknown[] }>(conn: ProviderConnection, params: P): Promise<P>;
  /** Hands one inner request to a server of `conn` (what `mcp/message` and the bridge do); for proxies that route by hand. */
  exchange(conn: ProviderConnection, serverId: string, request: InnerRequest, options: ExchangeOptions): Promise<McpOutcome>;
}

interface Served {
  readonly exchanges: ServerExchanges;
  /** Settles once the MCP server is connected to `exchanges` (the MCP SDK is loaded on first use). */
  readonly ready: Promise<{ close(): Promise<void> }>;
  declared: boolean;
  readonly close: () => Promise<void>;
}

interface PerConnection {
  readonly servers: Map<string, Served>;
  readonly used: Set<string>;
  bridge: Promise<McpBridge> | undefined;
}

/** Creates a provider; one per application is enough (it keeps each connection's servers apart). */
export function createMcpProvider(options: McpProviderOptions = {}): McpProvider {
  const maxBytes = options.maxMessageBytes ?? 1024 * 1024;
  const maxActive = options.maxActiveRequests ?? 64;
  if (!Number.isInteger(maxActive) || maxActive < 1) throw new TypeError(`createMcpProvider(options?): options.maxActiveRequests must be a positive integer; got ${String(maxActive)}.`);
  // Keyed by the agent peer (conn.agent === ctx.peer): dropped with the connection.
  const connections = new WeakMap<object, PerConnection>();

  const stateOf = (conn: ProviderConnection): PerConnection => {
    let state = connections.get(conn.agent);
    if (state === undefined) {
      const created: PerConnection = { servers: new Map(), used: new Set(), bridge: undefined };
      connections.set(conn.agent, (state = created));
      void conn.closed.then(async () => {
        await Promise.allSettled([...created.servers.values()].map((s) => s.close()));
        created.servers.clear();
        if (created.bridge !== undefined) await (await created.bridge).close();
      });
    }
    return state;
  };

  // `peer`: the connection's agent peer (conn.agent, which handlers see as ctx.peer).
  const exchange = (peer: object, serverId: string, request: InnerRequest, opts: ExchangeOptions): Promise<McpOutcome> => {
    const served = connections.get(peer)?.servers.get(serverId);
    if (served === undefined) return Promise.reject(bindingError(McpBindingError.ServerUnavailable, "MCP server registration unavailable", { serverId }));
    if (!served.declared) return Promise.reject(bindingError(McpBindingError.ServerUnavailable, `MCP server ${JSON.stringify(serverId)} was not declared in a session of this connection`, { serverId }));
    if (request.params !== undefined && messageBytes(request.params, maxBytes) > maxBytes) {
      return Promise.reject(bindingError(McpBindingError.ResourceLimitExceeded, `MCP message larger than maxMessageBytes (${maxBytes})`, { serverId, maxMessageBytes: maxBytes }));
    }
    if (served.exchanges.size >= maxActive) return Promise.reject(bindingError(McpBindingError.ResourceLimitExceeded, "MCP-over-ACP active request limit exceeded", { serverId, maxActiveRequests: maxActive }));
    return served.ready.then(() => served.exchanges.exchange(request, opts));
  };

  const mcpMessage = async (params: MessageParams, ctx: ProviderContext): Promise<MessageMcpResponse> => {
    const { serverId, requestId, method } = params;
    const inner = isObject(params.params) ? params.params : undefined;
    const peer = ctx.peer as { mcpMessage(p: object): Promise<void> };
    let done = false;
    const notify = (m: string, p: Record<string, unknown> | undefined) => {
      // Only for an active request: nothing after the answer.
      if (!done) peer.mcpMessage({ serverId, requestId, method: m, ...(p === undefined ? {} : { params: p }) }).catch(() => {});
    };
    try {
      return (await exchange(ctx.peer, serverId, { requestId, method, params: inner }, { notify, signal: ctx.signal })) as MessageMcpResponse;
    } catch (error) {
      if (ctx.signal.aborted) throw RpcError.requestCancelled();
      throw error instanceof RpcError ? error : bindingError(McpBindingError.BackendFailed, "MCP server handler failed", { details: error instanceof Error ? error.message : String(error) });
    } finally {
      done = true;
    }
  };

  const register: McpProvider["register"] = (conn, opts) => {
    if (typeof opts?.name !== "string" || typeof opts.server !== "function") throw new TypeError(`McpProvider.register(conn, { name, server, serverId? }): pass a name and a factory returning an MCP SDK server; got ${typeof opts?.server}.`);
    const state = stateOf(conn);
    const serverId = opts.serverId ?? `${opts.name}:${globalThis.crypto.randomUUID()}`;
    if (state.used.has(serverId)) throw new Error(`MCP server ID ${JSON.stringify(serverId)} was already used on this connection (serverIds are never reused)`);
    state.used.add(serverId);
    const exchanges = new ServerExchanges();
    // The MCP SDK's server entry is loaded here, not at import: an agent using only the caller needs only the client package.
    const ready = import("@modelcontextprotocol/server/stdio").then(({ serveStdio }) => serveStdio(opts.server, { transport: exchanges, legacy: "reject" }));
    ready.catch(() => {}); // reported by the first exchange that awaits it
    const served: Served = {
      exchanges,
      ready,
      declared: false,
      close: async () => {
        if (state.servers.get(serverId) === served) state.servers.delete(serverId);
        await exchanges.close();
        await (await ready.catch(() => undefined))?.close();
      },
    };
    state.servers.set(serverId, served);
    const declaration: AcpServerDeclaration = { type: "acp", name: opts.name, serverId };
    return { name: opts.name, serverId, declaration, close: served.close };
  };

  const declare: McpProvider["declare"] = async (conn, params) => {
    const state = stateOf(conn);
    const servers = params.mcpServers ?? [];
    const acp = hasPath(conn.agentCapabilities, "acp");
    const out: unknown[] = [];
    for (const entry of servers) {
      const served = isAcpServer(entry) ? state.servers.get(entry.serverId) : undefined;
      if (served === undefined || !isAcpServer(entry)) {
        out.push(entry);
        continue;
      }
      served.declared = true;
      if (acp) out.push(entry);
      else {
        if (!hasPath(conn.agentCapabilities, "http")) throw new Error(`McpProvider.declare: the agent advertised neither mcpCapabilities.acp nor mcpCapabilities.http, so MCP server ${JSON.stringify(entry.name)} cannot be offered to it`);
        state.bridge ??= startBridge((serverId, request, opts) => exchange(conn.agent, serverId, request, opts), options.bridge);
        out.push((await state.bridge).declare(entry));
      }
    }
    return { ...params, mcpServers: out };
  };

  return { mcpMessage, register, declare, exchange: (conn, serverId, request, opts) => exchange(conn.agent, serverId, request, opts) };
}

/** Whether the agent advertised `mcpCapabilities.<key>` (read as the one gate reads capabilities). */
function hasPath(agentCapabilities: unknown, key: "acp" | "http"): boolean {
  return hasCapability(agentCapabilities, ["mcpCapabilities", key]);
}
