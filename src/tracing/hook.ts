/**
 * Trace context in ACP messages: the connection option `tracing` and the W3C
 * values it carries. ACP reserves three `_meta` keys for W3C trace context
 * (`traceparent`, `tracestate`, `baggage`; the spec's `_meta` propagation
 * RFD): a connection given a {@link Tracing} hook adds them to the `_meta` of
 * the requests and notifications it sends, hands the incoming ones to
 * handlers (`ctx.traceContext`), and lets the hook wrap each handler call
 * (a span, a context to run in). Without the option nothing of this runs:
 * no `_meta` is added and no message is read for it.
 *
 * The hooks ship apart from the core, which has no dependency:
 * `acp-router/otel` (`otelTracing()`, on `@opentelemetry/api`, an optional
 * peer dependency: a span per request and per prompt turn) and
 * `acp-router/tracing` (`propagateTracing()`, Node's AsyncLocalStorage: the
 * incoming context passed on unchanged, no spans). This module is the
 * interface and the W3C text formats both use.
 */

/** The W3C trace context an ACP message carries in `_meta`. */
export interface TraceContext {
  /** `version-traceid-parentid-flags`, lowercase hex (W3C Trace Context). */
  readonly traceparent: string;
  /** Vendor-specific entries, as received (W3C Trace Context). */
  readonly tracestate?: string;
  /** W3C Baggage, as received. */
  readonly baggage?: string;
}

/** One call the hook sees: its method, kind, the side handling or sending it, its session and request id. */
export interface TracedCall {
  readonly method: string;
  readonly kind: "request" | "notification";
  /** The side of the connection the hook belongs to. */
  readonly side: "agent" | "client";
  readonly sessionId: string | undefined;
  readonly requestId: string | number | undefined;
}

/** How a traced call ended: a handler's value or the error it threw; an outbound request's result or error. */
export type TraceOutcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

/** What the hook returns for an outbound message. */
export interface OutboundTrace {
  /** The context to put in the message's `_meta`; undefined adds nothing. */
  readonly context: TraceContext | undefined;
  /** For a request: called once with its outcome when the answer (or a local failure) settles it. */
  end?(outcome: TraceOutcome): void;
}

/**
 * The `tracing` connection option. Both methods run on the message path, so
 * they should be cheap; a hook that throws is a bug in the hook (the error
 * propagates as a handler error would).
 */
export interface Tracing {
  /**
   * An inbound request or notification about to reach its handler, with the
   * context its `_meta` carried (undefined when none or not W3C). Must call
   * `handler` once and return what it returns (a value or a promise); may run
   * it inside a context (so calls the handler makes carry it) and observe its
   * outcome.
   */
  inbound(call: TracedCall, context: TraceContext | undefined, handler: () => unknown): unknown;
  /** An outbound request or notification about to be sent: the context to carry, and for a request a callback for its outcome. */
  outbound(call: TracedCall): OutboundTrace | undefined;
  /**
   * Environment variables that pass the current context to a child process
   * (`TRACEPARENT`, `TRACESTATE`, `BAGGAGE`): `spawnAgent` adds the ones the
   * caller's `env` does not set. Optional.
   */
  environment?(): Readonly<Record<string, string>>;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The parts of a valid `traceparent` (version 00 or a later one, trace and parent ids not all zeros), or undefined. */
export function parseTraceparent(value: unknown): { readonly traceId: string; readonly spanId: string; readonly flags: number } | undefined {
  if (typeof value !== "string") return undefined;
  const m = TRACEPARENT.exec(value);
  if (m === null || m[1] === "ff" || /^0+$/.test(m[2]!) || /^0+$/.test(m[3]!)) return undefined;
  return { traceId: m[2]!, spanId: m[3]!, flags: Number.parseInt(m[4]!, 16) };
}

/** Formats a version-00 `traceparent`. */
export function formatTraceparent(traceId: string, spanId: string, flags: number): string {
  return `00-${traceId}-${spanId}-${(flags & 0xff).toString(16).padStart(2, "0")}`;
}

/** The trace context of a message's params (`params._meta`), or undefined when it carries no valid `traceparent`. */
export function traceContextOf(params: unknown): TraceContext | undefined {
  const meta = typeof params === "object" && params !== null ? (params as { _meta?: unknown })._meta : undefined;
  if (typeof meta !== "object" || meta === null) return undefined;
  const m = meta as { traceparent?: unknown; tracestate?: unknown; baggage?: unknown };
  if (parseTraceparent(m.traceparent) === undefined) return undefined;
  return {
    traceparent: m.traceparent as string,
    ...(typeof m.tracestate === "string" ? { tracestate: m.tracestate } : {}),
    ...(typeof m.baggage === "string" ? { baggage: m.baggage } : {}),
  };
}

/**
 * `params` with `context` in its `_meta` (a copy: the caller's object is not
 * changed). The hook's `traceparent` and `tracestate` replace those already
 * there — with tracing on, the connection is the participant that sends the
 * message (W3C: each hop puts its own parent id), which is what a proxy
 * forwarding a message with its predecessor's `_meta` needs; `baggage`
 * already there is kept (baggage travels unchanged); other `_meta` keys
 * are kept.
 */
export function withTraceContext(params: unknown, context: TraceContext): unknown {
  if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) return params;
  const p = (params ?? {}) as Record<string, unknown>;
  const meta = typeof p._meta === "object" && p._meta !== null && !Array.isArray(p._meta) ? (p._meta as Record<string, unknown>) : {};
  const { tracestate: _state, ...kept } = meta;
  return { ...p, _meta: { ...kept, ...context, ...(typeof meta.baggage === "string" ? { baggage: meta.baggage } : {}) } };
}

/** The context as the environment variables `TRACEPARENT`, `TRACESTATE`, `BAGGAGE` (the names OpenTelemetry's environment carriers use). */
export function traceEnvironment(context: TraceContext | undefined): Record<string, string> {
  if (context === undefined) return {};
  return { TRACEPARENT: context.traceparent, ...(context.tracestate !== undefined ? { TRACESTATE: context.tracestate } : {}), ...(context.baggage !== undefined ? { BAGGAGE: context.baggage } : {}) };
}

/** The context a parent process passed in `TRACEPARENT` / `TRACESTATE` / `BAGGAGE`, or undefined. */
export function traceContextFromEnvironment(env: Readonly<Record<string, string | undefined>>): TraceContext | undefined {
  return traceContextOf({ _meta: { traceparent: env.TRACEPARENT, tracestate: env.TRACESTATE, baggage: env.BAGGAGE } });
}
