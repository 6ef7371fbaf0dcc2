/**
 * `acp-router/otel`: the `tracing` connection option on OpenTelemetry.
 * `@opentelemetry/api` is an optional peer dependency, imported by this
 * entry only (the core has none); the user's SDK (a tracer provider, its
 * context manager, exporters) does the rest, as with any instrumentation.
 *
 * ```ts
 * import { otelTracing } from "acp-router/otel";
 * serveStdio(agent, { tracing: otelTracing() });
 * ```
 *
 * - A span per received request (kind server) and notification (kind
 *   consumer), child of the context its `_meta` carried (else of the
 *   `TRACEPARENT` the process was started with, else of the active context);
 *   the handler runs in it, so what it sends carries it.
 * - A span per sent request (kind client), child of the active context,
 *   ended with its answer; a sent notification carries the active context.
 * - The W3C values in `_meta` are written and read here (`traceparent`,
 *   `tracestate`; `baggage` passed on as received): ACP reserves those keys,
 *   whatever propagators the application registered for its other traffic.
 * - Span names are the ACP method; attributes: `rpc.system` `"jsonrpc"`,
 *   `rpc.method`, `rpc.jsonrpc.request_id`, `acp.side`, `acp.session.id`,
 *   and on the outcome `acp.stop_reason` (a prompt turn: `session/prompt`),
 *   `rpc.jsonrpc.error_code` and the error status.
 */
import { context as contextApi, createContextKey, createTraceState, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Context, type Span, type Tracer } from "@opentelemetry/api";
import { formatTraceparent, parseTraceparent, traceContextFromEnvironment, traceEnvironment, type TraceContext, type TracedCall, type TraceOutcome, type Tracing } from "./hook.ts";

/** Options of {@link otelTracing}. */
export interface OtelTracingOptions {
  /** The tracer spans come from. Default: `trace.getTracer("acp-router")` of the registered provider. */
  readonly tracer?: Tracer;
  /**
   * The context of a received message that carries none in `_meta`: the
   * `TRACEPARENT` / `TRACESTATE` / `BAGGAGE` this process was started with
   * (`spawnAgent` of a traced parent sets them). Default: read from
   * `process.env` once, when `globalThis.process` exists.
   */
  readonly parent?: TraceContext | undefined;
}

/** The baggage string a received message carried, kept in the context so what its handler sends carries it on. */
const BAGGAGE = createContextKey("acp-router baggage");

/** The `tracing` hook on OpenTelemetry (see the module comment). */
export function otelTracing(options: OtelTracingOptions = {}): Tracing {
  const tracer = options.tracer ?? trace.getTracer("acp-router");
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const parent = "parent" in options ? options.parent : env === undefined ? undefined : traceContextFromEnvironment(env);
  const parentContext = parent === undefined ? undefined : contextFrom(parent);

  const attributes = (call: TracedCall) => ({
    "rpc.system": "jsonrpc",
    "rpc.method": call.method,
    "acp.side": call.side,
    ...(call.requestId !== undefined ? { "rpc.jsonrpc.request_id": String(call.requestId) } : {}),
    ...(call.sessionId !== undefined ? { "acp.session.id": call.sessionId } : {}),
  });

  return {
    inbound(call, carried, handler) {
      const base = carried !== undefined ? contextFrom(carried) : (parentContext ?? contextApi.active());
      const span = tracer.startSpan(call.method, { kind: call.kind === "request" ? SpanKind.SERVER : SpanKind.CONSUMER, attributes: attributes(call) }, base);
      const ctx = trace.setSpan(base, span);
      let result: unknown;
      try {
        result = contextApi.with(ctx, handler);
      } catch (error) {
        finish(span, { ok: false, error });
        throw error;
      }
      if (isThenable(result)) {
        return result.then(
          (value) => {
            finish(span, { ok: true, value });
            return value;
          },
          (error: unknown) => {
            finish(span, { ok: false, error });
            throw error;
          },
        );
      }
      finish(span, { ok: true, value: result });
      return result;
    },
    outbound(call) {
      const active = contextApi.active();
      if (call.kind === "notification") return { context: contextOf(active) };
      const span = tracer.startSpan(call.method, { kind: SpanKind.CLIENT, attributes: attributes(call) }, active);
      return { context: contextOf(trace.setSpan(active, span)), end: (outcome) => finish(span, outcome) };
    },
    environment() {
      return traceEnvironment(contextOf(contextApi.active()));
    },
  };
}

/** An OpenTelemetry context whose remote parent is `carried`. */
function contextFrom(carried: TraceContext): Context {
  const tp = parseTraceparent(carried.traceparent);
  if (tp === undefined) return contextApi.active();
  const ctx = trace.setSpanContext(ROOT_CONTEXT, {
    traceId: tp.traceId,
    spanId: tp.spanId,
    traceFlags: tp.flags & TraceFlags.SAMPLED,
    isRemote: true,
    ...(carried.tracestate !== undefined ? { traceState: createTraceState(carried.tracestate) } : {}),
  });
  return carried.baggage === undefined ? ctx : ctx.setValue(BAGGAGE, carried.baggage);
}

/** The W3C context of an OpenTelemetry context's span, or undefined when it has no valid one. */
function contextOf(ctx: Context): TraceContext | undefined {
  const sc = trace.getSpanContext(ctx);
  if (sc === undefined || !trace.isSpanContextValid(sc)) return undefined;
  const baggage = ctx.getValue(BAGGAGE);
  const state = sc.traceState?.serialize();
  return {
    traceparent: formatTraceparent(sc.traceId, sc.spanId, sc.traceFlags),
    ...(state ? { tracestate: state } : {}),
    ...(typeof baggage === "string" ? { baggage } : {}),
  };
}

/** Ends a span with what the call came to: a prompt's stop reason, an error's code. */
function finish(span: Span, outcome: TraceOutcome): void {
  if (outcome.ok) {
    const stop = (outcome.value as { stopReason?: unknown } | null | undefined)?.stopReason;
    if (typeof stop === "string") span.setAttribute("acp.stop_reason", stop);
  } else {
    const code = (outcome.error as { code?: unknown } | null | undefined)?.code;
    if (typeof code === "number") span.setAttribute("rpc.jsonrpc.error_code", code);
    span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error instanceof Error ? outcome.error.message : String(outcome.error) });
  }
  span.end();
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}
