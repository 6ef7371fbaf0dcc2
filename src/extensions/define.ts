/**
 * Extension methods without codegen: `defineExtension` describes one `_`
 * wire method with validators for its params (and result), once, for both
 * sides. The handling side registers `ext.handle(fn)` in the connection's
 * `extensions` option; the calling side passes the same definition to
 * `conn.request(ext, params)` / `conn.notify(ext, params)`.
 */
import { argumentError } from "../arguments.ts";
import type { HandlerContext } from "../context.ts";
import { isExtensionWire } from "../row.ts";
import { assertCheck, type Check, type InputOf, type OutputOf } from "./validate.ts";

/** Routing fields shared by extension requests and notifications. */
interface ExtensionBase {
  /** The wire method, exactly as sent (`_` included, never added or stripped). */
  readonly wire: `_${string}`;
  /**
   * Path into the HANDLING side's advertised capabilities that gates the
   * method (extension capabilities usually live under `_meta`:
   * `["_meta", "example.com/echo"]`); undefined when ungated. Fails closed,
   * both ways: the handler answers `-32601` (requests) or drops
   * (notifications) unless it advertised the path, and the caller refuses
   * to send unless the peer advertised it.
   */
  readonly capability: readonly string[] | undefined;
}

/** What one handler registration carries; made by `ext.handle(fn)`, passed in `extensions`. */
export interface ExtensionHandler {
  readonly extension: ExtensionRequest<unknown, unknown> | ExtensionNotification<unknown>;
  /** The handler, taking validated params. */
  readonly handler: (params: never, ctx: HandlerContext<never>) => unknown;
}

/**
 * A runtime-defined extension request. `P`: params the handler receives;
 * `R`: result the caller receives; `PIn`/`RIn`: what the caller sends and the
 * handler returns (they differ only for schemas with transforms or defaults).
 */
export interface ExtensionRequest<P, R, PIn = P, RIn = R> extends ExtensionBase {
  readonly kind: "request";
  readonly params: Check<P, PIn>;
  readonly result: Check<R, RIn>;
  /** Needs a completed `authenticate` when the agent requires authentication (`authRequired`). */
  readonly auth: boolean;
  /** Type-level only (never set): the four types, for `conn.request`. */
  readonly types?: { readonly params: P; readonly paramsInput: PIn; readonly result: R; readonly resultInput: RIn };
  /**
   * Registers `handler` for this method (pass the returned value in the
   * connection's `extensions` option). `Peer` types `ctx.peer`: `ClientPeer`
   * on an agent, `AgentPeer` on a client; default `unknown`.
   */
  handle<Peer = unknown>(handler: (params: P, ctx: HandlerContext<Peer>) => RIn | Promise<RIn>): ExtensionHandler;
}

/** A runtime-defined extension notification. `P`: params the handler receives; `PIn`: what the sender passes. */
export interface ExtensionNotification<P, PIn = P> extends ExtensionBase {
  readonly kind: "notification";
  readonly params: Check<P, PIn>;
  readonly types?: { readonly params: P; readonly paramsInput: PIn };
  /** Registers `handler` for this notification; see `ExtensionRequest.handle`. */
  handle<Peer = unknown>(handler: (params: P, ctx: HandlerContext<Peer>) => void | Promise<void>): ExtensionHandler;
}

/** Params as the caller passes them to `conn.request(ext, …)` / `conn.notify(ext, …)`. */
export type ParamsInput<E extends { readonly types?: { readonly paramsInput: unknown } }> = NonNullable<E["types"]>["paramsInput"];

/** The validated result `conn.request(ext, …)` resolves with. */
export type ResultOutput<E extends { readonly types?: { readonly result: unknown } }> = NonNullable<E["types"]>["result"];

/** What `defineExtension` takes for a request. */
export interface ExtensionRequestSpec<PC extends Check, RC extends Check> {
  readonly wire: `_${string}`;
  readonly params: PC;
  /** Validates the answer on the calling side: an invalid result rejects the call. */
  readonly result: RC;
  readonly capability?: readonly string[] | undefined;
  /** Default false: extension methods are reachable before `authenticate`, like most table rows. */
  readonly auth?: boolean | undefined;
}

/** What `defineExtension` takes for a notification: no `result`. */
export interface ExtensionNotificationSpec<PC extends Check> {
  readonly wire: `_${string}`;
  readonly params: PC;
  readonly result?: undefined;
  readonly capability?: readonly string[] | undefined;
}

/**
 * Defines an extension method: a request when `result` is given, else a
 * notification. Validators are Standard Schemas (zod, valibot, arktype) or
 * type guards, and the handler and caller types are inferred from them.
 * Params failing validation are answered `-32602` "Invalid params" with
 * `data.errors: [{ path, message }]`, as for table rows.
 *
 * ```ts
 * const echo = defineExtension({ wire: "_example.com/echo", params: z.object({ text: z.string() }), result: z.object({ text: z.string() }) });
 * const progress = defineExtension({ wire: "_example.com/progress", params: z.object({ sessionId: z.string(), percent: z.number() }) });
 *
 * // Agent: handle them.
 * connectAgent(agent, transport, { extensions: [echo.handle(({ text }) => ({ text })), progress.handle((p) => void show(p.percent))] });
 * // Client: call them, typed and validated.
 * const { text } = await conn.request(echo, { text: "hi" });
 * await conn.notify(progress, { sessionId, percent: 50 });
 * ```
 */
export function defineExtension<PC extends Check, RC extends Check>(spec: ExtensionRequestSpec<PC, RC>): ExtensionRequest<OutputOf<PC>, OutputOf<RC>, InputOf<PC>, InputOf<RC>>;
export function defineExtension<PC extends Check>(spec: ExtensionNotificationSpec<PC>): ExtensionNotification<OutputOf<PC>, InputOf<PC>>;
export function defineExtension(spec: ExtensionRequestSpec<Check, Check> | ExtensionNotificationSpec<Check>): ExtensionRequest<unknown, unknown> | ExtensionNotification<unknown> {
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) {
    throw argumentError("defineExtension(spec)", "spec", "an object { wire, params, result?, capability? }", spec, 'e.g. defineExtension({ wire: "_example.com/echo", params: schema, result: schema }).');
  }
  if (typeof spec.wire !== "string" || !isExtensionWire(spec.wire)) {
    throw new TypeError(`extension wire ${JSON.stringify(spec.wire)} must start with "_" (it is sent exactly as given)`);
  }
  assertCheck(spec.params, `params of "${spec.wire}"`);
  const capability = spec.capability === undefined ? undefined : [...spec.capability];
  if (spec.result === undefined) {
    const notification: ExtensionNotification<unknown> = {
      kind: "notification",
      wire: spec.wire,
      params: spec.params,
      capability,
      handle: (handler) => ({ extension: notification, handler }),
    };
    return Object.freeze(notification);
  }
  assertCheck(spec.result, `result of "${spec.wire}"`);
  const request: ExtensionRequest<unknown, unknown> = {
    kind: "request",
    wire: spec.wire,
    params: spec.params,
    result: spec.result,
    capability,
    auth: (spec as ExtensionRequestSpec<Check, Check>).auth === true,
    handle: (handler) => ({ extension: request, handler }),
  };
  return Object.freeze(request);
}
