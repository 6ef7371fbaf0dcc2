/**
 * `acp-router/tracing`: the `tracing` connection option without
 * OpenTelemetry — trace context passed on, no spans. A handler's calls carry
 * the context its message carried (unchanged: W3C's rule for a hop that
 * records no span of its own); calls made outside any handler carry
 * `current()` when given. Node only (AsyncLocalStorage follows the handler's
 * awaits). For spans, use `otelTracing()` from `acp-router/otel`.
 *
 * ```ts
 * import { propagateTracing } from "acp-router/tracing";
 * serveStdio(agent, { tracing: propagateTracing() });
 * ```
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { traceContextFromEnvironment, traceEnvironment, type TraceContext, type Tracing } from "./hook.ts";

/** Options of {@link propagateTracing}. */
export interface PropagateTracingOptions {
  /** The context of calls made outside any handler. Default: the `TRACEPARENT` / `TRACESTATE` / `BAGGAGE` this process was started with, if any. */
  readonly current?: () => TraceContext | undefined;
}

/** The `tracing` hook that passes contexts on (see the module comment). */
export function propagateTracing(options: PropagateTracingOptions = {}): Tracing {
  const store = new AsyncLocalStorage<TraceContext | undefined>();
  const started = traceContextFromEnvironment(process.env);
  const current = options.current ?? (() => started);
  const active = () => store.getStore() ?? current();
  return {
    inbound: (_call, carried, handler) => (carried === undefined ? handler() : store.run(carried, handler)),
    outbound: () => ({ context: active() }),
    environment: () => traceEnvironment(active()),
  };
}
