/**
 * What one SDK connection is made of beside the core's connection: the object `connect` returns
 * (`AppConnection`), the per-connection hooks a side fills in (`SideHooks`: session routing, the
 * v2 initialization lifecycle, pacing, how it was closed), and the sender SDK code calls the core
 * through (`sdkSender`: the SDK's error for a closed connection, notifications paced by the
 * stream).
 */
import { ConnectionClosedError } from "acp-router";
import type { Sender } from "./sender.ts";
import type { V2Initialization } from "./v2-initialization.ts";

/** What `connect` returns: the connection's own context on the peer, its lifetime and `close`. */
export interface AppConnection<Peer> {
  readonly signal: AbortSignal;
  readonly closed: Promise<void>;
  close(error?: unknown): void;
  /** Set under the name of the peer: `client` on an agent's connection, `agent` on a client's. */
  readonly peer: Peer;
}

/** Hooks a side adds to its handler object (the client's session helpers). */
export interface SideHooks {
  /** Runs before the app's own `session/update` handler (the client routes updates to its active sessions). */
  beforeNotification?(wire: string, params: unknown, sender: Sender): void;
  /** Runs before the first handler of the connection (a routed connection's connect handlers). */
  beforeFirstCall?(sender: Sender): void;
  /** Resolves once what was sent so far has been taken by the stream (a message stream's writes): a notification resolves after it, as the SDK's do. */
  pace?(): Promise<void>;
  /** The v2 initialization lifecycle of the connection (v2 apps only). */
  initialization?: V2Initialization;
  /** The error the connection was closed with by `close(error)`, once it was. */
  closedWith?: { readonly error: unknown };
  /** Aborted when the connection closed, with the SDK's error as its reason (set when the connection is wrapped). */
  signal?: AbortSignal;
  /** Closes the connection (set when the connection is wrapped). */
  close?(error?: unknown): void;
}

/**
 * What SDK code gets for a call the closed connection will not answer: the error it was closed
 * with (`close(error)`), or an error saying "ACP connection closed", the SDK's words (a
 * `ConnectionClosedError` of the core, so acp-router code that checks for one still does).
 */
export function closedErrorOf(hooks: SideHooks, cause?: ConnectionClosedError): unknown {
  if (hooks.closedWith !== undefined) return hooks.closedWith.error;
  const error = new ConnectionClosedError(cause?.reason ?? "closed", { cause });
  error.message = "ACP connection closed";
  return error;
}

/** What connecting returns when its connect handlers may be deferred: `startConnectHandlers` runs them (once). */
export interface DeferrableConnection<Peer> extends AppConnection<Peer> {
  /** Runs the app's connect handlers, once; a connection made without `deferConnectHandlers` has run them already. @internal */
  startConnectHandlers(): void;
}

/**
 * `sender` as SDK code sees it: a call the connection closed on rejects with the SDK's error
 * ({@link closedErrorOf}), and a notification resolves only once the stream took it (`pace`).
 */
export function sdkSender(sender: Sender, hooks: SideHooks): Sender {
  const closed = (error: unknown): never => {
    throw error instanceof ConnectionClosedError ? closedErrorOf(hooks, error) : error;
  };
  const pace = hooks.pace;
  return {
    request: (wire, params, options) => sender.request(wire, params, options).catch(closed),
    notify:
      pace === undefined
        ? (wire, params) => sender.notify(wire, params)
        : async (wire, params) => {
            await sender.notify(wire, params);
            await pace();
          },
  };
}
