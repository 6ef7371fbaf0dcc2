/**
 * What keeps a proxy's messages in order and its cancels on their hop: the
 * arrival order of each side's messages, the envelope a forwarded message
 * travels in, and the signal a forwarded request is cancelled by.
 */
import type { ProxySuccessorRequest } from "./generated/types.ts";
import type { ProxySender } from "./hooks.ts";

/** Messages from one side, handled in arrival order. */
export interface Ordered {
  /** Runs `step` after the steps queued before it settled. */
  inOrder<T>(step: () => T | Promise<T>): Promise<T>;
  /** Starts `call` after the steps queued before it settled, without holding the next ones until it settles; resolves with its outcome. */
  start<T>(call: () => T | Promise<T>): Promise<T>;
  /** `request` whose answers resolve only after the steps queued before the answer came. */
  answersAfter(request: ProxySender["request"]): ProxySender["request"];
}

export function arrivalOrder(): Ordered {
  let tail: Promise<unknown> = Promise.resolve();
  const inOrder = <T>(step: () => T | Promise<T>): Promise<T> => {
    const done = tail.then(step);
    tail = done.catch(() => {});
    return done;
  };
  return {
    inOrder,
    start<T>(call: () => T | Promise<T>): Promise<T> {
      let outcome: T | Promise<T> | undefined;
      return inOrder(() => void (outcome = call())).then(() => outcome as T | Promise<T>);
    },
    answersAfter: (request) => async (method, params, options) => {
      const answer = await request(method, params, options);
      await tail;
      return answer;
    },
  };
}

/** The envelope for `method`: `params` absent when there are none. */
export function successorParams(method: string, params: unknown): ProxySuccessorRequest {
  return params === undefined || params === null ? { method } : { method, params: params as NonNullable<ProxySuccessorRequest["params"]> };
}

/** A signal that aborts only for this hop's own `$/cancel_request` (or the connection closing), not for session/cancel. */
export function hopSignal(signal: AbortSignal): AbortSignal {
  const hop = new AbortController();
  const follow = () => {
    const cause = (signal.reason as { cause?: unknown } | undefined)?.cause;
    if (cause === "cancel_request" || cause === "connection_closed") hop.abort(signal.reason);
  };
  if (signal.aborted) follow();
  else signal.addEventListener("abort", follow, { once: true });
  return hop.signal;
}
