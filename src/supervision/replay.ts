/**
 * Marks a `session/load` replay for the app's handler: while a restarted
 * agent replays a session's history, each notification of that session
 * reaches the handler with `ctx.replay === true` (`isReplay(ctx)`), so an
 * editor does not show the conversation twice. The handler is wrapped, not
 * changed: every method passes through as it is, and the notification
 * methods of the protocol's client rows (`sessionUpdate` in v1) pass a
 * marked context for a session being replayed. The context is a view of the
 * real one (its signal, peer and senders unchanged). No `node:` imports.
 */
import type { Protocol } from "../protocol.ts";

/** The handler as the connection sees it: `handler`, with the client notifications of replayed sessions marked. */
export function markingReplay<H extends object>(protocol: Protocol, handler: H, replaying: ReadonlySet<string>): H {
  const notifications = new Set(protocol.rows.client.filter((r) => r.kind === "notification" && r.callback !== undefined).map((r) => r.callback as string));
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(handler, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof key !== "string" || !notifications.has(key) || typeof value !== "function") return value;
      let wrapper = wrapped.get(key);
      if (wrapper === undefined || (wrapper as { readonly original?: unknown }).original !== value) {
        const method = value as (params: unknown, ctx: unknown) => unknown;
        wrapper = Object.assign((params: unknown, ctx: unknown) => method.call(target, params, replayed(params, replaying) ? markedContext(ctx) : ctx), { original: value });
        wrapped.set(key, wrapper);
      }
      return wrapper;
    },
  });
}

/** True when `params` names a session whose history is being replayed. */
function replayed(params: unknown, replaying: ReadonlySet<string>): boolean {
  if (replaying.size === 0) return false;
  const sessionId = (params as { readonly sessionId?: unknown } | null | undefined)?.sessionId;
  return typeof sessionId === "string" && replaying.has(sessionId);
}

/** `ctx` with `replay: true`; everything else read from `ctx` itself. */
function markedContext(ctx: unknown): unknown {
  if (typeof ctx !== "object" || ctx === null) return ctx;
  return new Proxy(ctx, {
    get: (target, key) => (key === "replay" ? true : Reflect.get(target, key, target)),
    has: (target, key) => key === "replay" || Reflect.has(target, key),
  });
}
