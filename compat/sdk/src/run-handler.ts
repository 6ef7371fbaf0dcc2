/**
 * Runs one registered SDK handler for the core: parses params with the
 * handler's parser, builds the SDK's handler context, and maps what comes
 * back onto what the core answers, as the SDK would have answered it.
 */
import { RequestError } from "./request-error.ts";

/** A handler as `onRequest` / `onNotification` registered it. */
export interface Registered {
  readonly parse: ((params: unknown) => unknown) | undefined;
  readonly handler: (context: Record<string, unknown>) => unknown;
}

/** What the SDK's handler context is built from besides method and params. */
export interface CallInfo {
  /** The core's context: its `signal` is read only when the handler reads the SDK context's. */
  readonly ctx: { readonly signal: AbortSignal };
  readonly requestId: string | number | undefined;
  /** `client` in an agent's handlers, `agent` in a client's. */
  readonly peerKey: "client" | "agent";
  /** Builds the peer context, on the handler's first read of it. */
  readonly peer: () => object;
}

/**
 * The SDK's handler context (`{ method, params, signal, requestId, client | agent }`) as an
 * object whose `signal` and peer context are built when first read: a handler that never reads
 * them (most of a held prompt's life) costs no AbortController and no context object.
 */
class CallContext {
  readonly method: string;
  readonly params: unknown;
  declare readonly requestId?: string | number;
  readonly #info: CallInfo;
  #peer: object | undefined;
  constructor(method: string, params: unknown, info: CallInfo, request: boolean) {
    this.method = method;
    this.params = params;
    if (request) Object.defineProperty(this, "requestId", { value: info.requestId, enumerable: true });
    this.#info = info;
  }
  get signal(): AbortSignal {
    return this.#info.ctx.signal;
  }
  protected peer(): object {
    return (this.#peer ??= this.#info.peer());
  }
}
/** An agent handler's context: `client` calls the client. */
class AgentCallContext extends CallContext {
  get client(): object {
    return this.peer();
  }
}
/** A client handler's context: `agent` calls the agent. */
class ClientCallContext extends CallContext {
  get agent(): object {
    return this.peer();
  }
}

/**
 * Runs `registered` (undefined: nothing handles `wire`, which answers
 * `-32601` for a request and is ignored for a notification, as in the SDK).
 * A request whose handler returns nothing answers `{}` (the SDK's `void`
 * results); an extension's stays `null`.
 */
export async function runHandler(registered: Registered | undefined, kind: "request" | "notification", wire: string, params: unknown, info: CallInfo): Promise<unknown> {
  if (registered === undefined) {
    if (kind === "request") throw RequestError.methodNotFound(wire);
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = registered.parse === undefined ? params : registered.parse(params);
  } catch (error) {
    throw asInvalidParams(error);
  }
  const Context = info.peerKey === "client" ? AgentCallContext : ClientCallContext;
  const context = new Context(wire, parsed, info, kind === "request");
  try {
    const result = await registered.handler(context as unknown as Record<string, unknown>);
    if (kind === "notification") return undefined;
    return result === undefined ? (wire.startsWith("_") ? null : {}) : result;
  } catch (error) {
    // A handler that gives up because its call was cancelled: the core answers the row's
    // cancelled result (or -32800) from the error it sees, so it must see this one unchanged.
    if (info.ctx.signal.aborted && !(error instanceof RequestError)) throw error;
    throw asAnswer(error);
  }
}

/** A parser's failure as `-32602`: a zod error's tree in `data`, as the SDK sends it. */
function asInvalidParams(error: unknown): RequestError {
  if (error instanceof RequestError) return error;
  const format = (error as { format?: unknown } | null)?.format;
  const data = typeof format === "function" ? (format as () => unknown).call(error) : { details: messageOf(error) };
  return RequestError.invalidParams(data);
}

/**
 * What a handler threw, as the SDK answers it: a `RequestError` as it is, a
 * zod error `-32602`, anything else `-32603` with its message in
 * `data.details` (the SDK's behaviour; the spec leaves `data` to the sender).
 */
function asAnswer(error: unknown): unknown {
  if (error instanceof RequestError) return error;
  if ((error as { name?: unknown } | null)?.name === "ZodError") return asInvalidParams(error);
  return RequestError.internalError({ details: messageOf(error) });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
