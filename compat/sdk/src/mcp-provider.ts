/**
 * `McpOverAcpProvider`: serves MCP servers, given as request handlers, to the
 * agent over `mcp/message` — one provider per app, servers registered per
 * connection, each with its own limit of active requests; a request's
 * cancellation or its server's disposal aborts the handler's signal, and the
 * connection's end disposes its servers. A handler's inner `_meta` is checked
 * before it runs; what it returns is checked to be exactly one outcome.
 */
import { MCP_MESSAGE } from "acp-router/mcp";
import { isMcpError, isObject } from "./mcp-values.ts";
import { connectionClosed, connectionOfContext, contextSender, type HasConnectionContext } from "./contexts.ts";
import { RequestError } from "./request-error.ts";
import { bindingFailure, generateId, MCP_META_CLIENT_CAPABILITIES, MCP_META_CLIENT_INFO, MCP_META_PROTOCOL_VERSION, MCP_PROTOCOL_VERSION, McpBindingErrorCode, McpProtocolError, parseMcpOutcome } from "./mcp-binding.ts";
import type { McpMessageParams, McpMessageRequestContext, McpOperationContext, McpOutcome, McpProvidedOutcome, McpRequestHandler, McpServerAcpDeclaration, McpServerOptions } from "./mcp-binding.ts";

/** One registered server on one connection. */
interface Served {
  readonly name: string;
  readonly handler: McpRequestHandler;
  readonly maxActive: number;
  /** Aborted by `dispose`: active requests are cancelled. */
  readonly disposal: AbortController;
  /** requestId → its handler's settlement. */
  readonly active: Map<string, Promise<unknown>>;
}

interface ProviderConnection {
  readonly servers: Map<string, Served>;
  /** Every server id ever registered here: ids are never reused on a connection. */
  readonly used: Set<string>;
}

/** A registered server: its declaration for `mcpServers`, and `dispose`. */
export class McpServerRegistration {
  readonly name: string;
  readonly serverId: string;
  readonly #release: () => Promise<void>;
  /** @internal Made by {@link McpOverAcpProvider.registerServer}. */
  constructor(name: string, serverId: string, release: () => Promise<void>) {
    this.name = name;
    this.serverId = serverId;
    this.#release = release;
  }
  /** The `mcpServers` entry to put in `session/new` (and load, resume, fork). */
  get declaration(): McpServerAcpDeclaration {
    return { type: "acp", name: this.name, serverId: this.serverId };
  }
  /** Stops serving: later requests answer `-33001`; active ones are cancelled, and this settles once their handlers did. */
  dispose(): Promise<void> {
    return this.#release();
  }
  /** `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }
}

/** Serves MCP servers to the agent over `mcp/message`: one provider per app, servers registered per connection. */
export class McpOverAcpProvider {
  readonly #connections = new WeakMap<object, ProviderConnection>();

  /** Registers a server on the connection behind `context`; it serves at once, so declare it afterwards. */
  registerServer(context: HasConnectionContext, options: McpServerOptions): McpServerRegistration {
    if (typeof options?.name !== "string" || typeof options.handler !== "function") throw new TypeError("registerServer(context, { name, handler, serverId?, maxActiveRequests? }): name must be a string and handler a function.");
    const maxActive = options.maxActiveRequests ?? 64;
    if (!Number.isInteger(maxActive) || maxActive < 1) throw new TypeError(`registerServer: maxActiveRequests must be a positive integer; got ${String(maxActive)}.`);
    const key = connectionOfContext(context);
    let state = this.#connections.get(key);
    if (state === undefined) {
      const created: ProviderConnection = { servers: new Map(), used: new Set() };
      this.#connections.set(key, (state = created));
      // The connection's end disposes its servers: their handlers see their signals abort.
      void connectionClosed(key).then(() => {
        for (const served of created.servers.values()) served.disposal.abort(new Error("the ACP connection closed"));
        created.servers.clear();
      });
    }
    const serverId = options.serverId ?? generateId(options.name);
    if (state.used.has(serverId)) throw new Error(`MCP server ID ${serverId} was already registered on this connection`);
    state.used.add(serverId);
    const served: Served = { name: options.name, handler: options.handler, maxActive, disposal: new AbortController(), active: new Map() };
    state.servers.set(serverId, served);
    const servers = state.servers;
    return new McpServerRegistration(options.name, serverId, async () => {
      if (servers.get(serverId) === served) servers.delete(serverId);
      served.disposal.abort(new Error(`MCP server ${serverId} registration was disposed`));
      await Promise.allSettled([...served.active.values()]);
    });
  }

  /** The client's `mcp/message` request handler: resolves with the inner outcome; binding failures reject with their outer code. */
  readonly handleRequest = async (context: McpMessageRequestContext): Promise<McpProvidedOutcome> => {
    const { serverId, requestId, method } = context.params;
    const key = connectionOfContext(context.agent);
    const served = this.#connections.get(key)?.servers.get(serverId);
    if (served === undefined) throw bindingFailure(McpBindingErrorCode.serverUnavailable, "MCP server registration unavailable", { serverId });
    if (served.active.has(requestId)) throw RequestError.invalidParams({ serverId, requestId }, "duplicate active MCP request ID");
    if (served.active.size >= served.maxActive) throw bindingFailure(McpBindingErrorCode.resourceLimitExceeded, "MCP-over-ACP active request limit exceeded", { serverId });
    const controller = new AbortController();
    const cancel = (source: AbortSignal) => () => controller.abort(source.reason);
    const onCancel = cancel(context.signal);
    const onDispose = cancel(served.disposal.signal);
    if (context.signal.aborted) onCancel();
    context.signal.addEventListener("abort", onCancel, { once: true });
    served.disposal.signal.addEventListener("abort", onDispose, { once: true });
    let done = false;
    const agent = contextSender(context.agent);
    const notify = async (name: string, params?: Record<string, unknown> | null) => {
      if (done) return;
      await agent.notify(MCP_MESSAGE, { serverId, requestId, method: name, ...(params === undefined ? {} : { params }) });
    };
    const settled = serve(served.handler, context.params, method, controller.signal, notify);
    served.active.set(
      requestId,
      settled.catch(() => {}),
    );
    try {
      return (await settled) as McpProvidedOutcome;
    } catch (error) {
      throw outerError(error, controller.signal);
    } finally {
      done = true; // nothing after the answer
      context.signal.removeEventListener("abort", onCancel);
      served.disposal.signal.removeEventListener("abort", onDispose);
      served.active.delete(requestId);
    }
  };
}

/** A handler's failure that the binding itself found (an invalid outcome): `-33002` with this message. */
class InvalidOutcome extends Error {}

/** Runs one inner request through `handler`: the inner `_meta` checked first, an {@link McpProtocolError} as an inner error. */
async function serve(handler: McpRequestHandler, envelope: McpMessageParams, method: string, signal: AbortSignal, notify: McpOperationContext["notify"]): Promise<McpOutcome> {
  await Promise.resolve(); // recorded as active before the handler runs
  const params = isObject(envelope.params) ? envelope.params : undefined;
  const meta = isObject(params?._meta) ? params._meta : undefined;
  const protocolVersion = meta?.[MCP_META_PROTOCOL_VERSION];
  const clientCapabilities = meta?.[MCP_META_CLIENT_CAPABILITIES];
  if (typeof protocolVersion !== "string") return innerInvalid(`missing ${MCP_META_PROTOCOL_VERSION} in params._meta`);
  if (protocolVersion !== MCP_PROTOCOL_VERSION) return { error: { code: -32022, message: "Unsupported protocol version", data: { supported: [MCP_PROTOCOL_VERSION], requested: protocolVersion } } };
  if (!isObject(clientCapabilities)) return innerInvalid(`missing ${MCP_META_CLIENT_CAPABILITIES} in params._meta`);
  if (signal.aborted) throw signal.reason; // cancelled before it started: never run
  let outcome: unknown;
  try {
    outcome = await handler({
      serverId: envelope.serverId,
      requestId: envelope.requestId,
      method,
      params,
      protocolVersion,
      clientCapabilities,
      clientInfo: meta?.[MCP_META_CLIENT_INFO],
      envelopeMeta: isObject(envelope._meta) ? envelope._meta : undefined,
      signal,
      notify,
    });
  } catch (error) {
    if (!(error instanceof McpProtocolError)) throw error;
    outcome = { error: error.toMcpError() };
  }
  return checkedOutcome(outcome);
}

/** What a handler returned, if it is exactly one of a defined `result` or a valid `error`. */
function checkedOutcome(outcome: unknown): McpOutcome {
  if (isObject(outcome)) {
    const hasResult = Object.prototype.hasOwnProperty.call(outcome, "result");
    const hasError = Object.prototype.hasOwnProperty.call(outcome, "error");
    const valid = hasResult ? !hasError && outcome.result !== undefined : hasError && isMcpError(outcome.error);
    const parsed = valid ? parseMcpOutcome(outcome) : undefined;
    if (parsed !== undefined) return parsed;
  }
  throw new InvalidOutcome("MCP server handler produced an invalid outcome: expected exactly one of a defined `result` or an `error` with an integer `code` and string `message`");
}

function innerInvalid(message: string): McpOutcome {
  return { error: { code: -32602, message: `Invalid params: ${message}` } };
}

/** A handler's failure as the outer answer: `-32800` once cancelled, else `-33002` (a handler's own ACP code goes in `data`, never out as the binding's). */
function outerError(error: unknown, signal: AbortSignal): RequestError {
  const code = (error as { code?: unknown } | null)?.code;
  if (signal.aborted || (error instanceof RequestError && code === McpBindingErrorCode.requestCancelled)) return RequestError.requestCancelled();
  if (error instanceof InvalidOutcome) return bindingFailure(McpBindingErrorCode.backendFailed, error.message);
  const details = error instanceof Error ? error.message : String(error);
  return bindingFailure(McpBindingErrorCode.backendFailed, "MCP server handler failed", error instanceof RequestError ? { details, code } : { details });
}
