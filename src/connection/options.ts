/** Connection options, their defaults, and diagnostics. */
import type { ExtensionHandler } from "../extensions/define.ts";
import type { Tracing } from "../tracing/hook.ts";
import type { Leniency } from "../validation/check.ts";
import type { WatchdogOptions } from "./watchdog-options.ts";

/** Something the connection noticed but did not answer on the wire. Never written to stdout. */
export interface Diagnostic {
  readonly kind:
    | "parse_error"
    | "oversized_line"
    | "batch"
    | "unknown_message"
    | "unknown_response"
    | "unknown_notification"
    | "invalid_notification"
    | "gated_notification"
    | "unknown_session"
    | "repaired"
    | "handler_error"
    | "invalid_result"
    | "backpressure"
    | "closed"
    /** A capability was advertised at `initialize` but the handler lacks one of the methods it gates. */
    | "missing_handler"
    /** The watchdog found the peer silent with calls in flight, and what was decided (`data`: the event and `decision`). */
    | "watchdog";
  readonly message: string;
  readonly data?: unknown;
  /** `handler_error` only: the value the handler threw or rejected with, stack included (`data` is its one-line description). */
  readonly error?: unknown;
}

/** Options of `connectAgent` and `connectClient`. Every one is optional; defaults are stated per option. */
export interface ConnectionOptions {
  /** `repair` (default) fixes the schema's lenient locations, as the reference SDKs do; `strict` rejects them. */
  readonly leniency?: Leniency;
  /**
   * `reject`: one `-32600`, `id: null`, no handler runs. `accept`: JSON-RPC 2.0 §6, each
   * `unbatched` row's request answered `-32600` with its id. Default: `accept` for tables with
   * `unbatched` rows (ACP v2, whose transports follow the JSON-RPC 2.0 batch rules), `reject`
   * otherwise (ACP v1, as the reference SDK).
   */
  readonly batches?: "reject" | "accept";
  /** Send handler error messages to the peer in `-32603` answers. Default false: internals stay private. */
  readonly exposeErrors?: boolean;
  /**
   * Write every handler error (a handler that throws or rejects with anything
   * but an `RpcError`) to stderr with its stack, `acp-router: handler of
   * "session/prompt" threw: Error: …`. Never stdout, which carries the
   * protocol on stdio. Default false: handler errors reach only `onDiagnostic`
   * (as `handler_error`, with the thrown value in `error`).
   */
  readonly logErrors?: boolean;
  /** Agent side: `auth` rows answer `-32000` until `authenticate` succeeds. Default false. */
  readonly authRequired?: boolean;
  /**
   * A request other than `initialize` that comes before `initialize` completed is answered `-32600`
   * and no handler runs (DESIGN §4.6). Default true. `false` serves it as the official SDK's apps do, which have no such gate; the capability gate still applies (before
   * `initialize` nothing is advertised, so a capability's rows stay refused).
   */
  readonly initializeFirst?: boolean;
  /**
   * Which methods outside the table reach the handler's `extMethod` / `extNotification`.
   * `underscore` (default): only `_`-prefixed ones, ACP's extension methods; any other unknown
   * request is answered `-32601` and any other unknown notification ignored. `any`: every method
   * outside the table, as the official SDK's apps accept a handler for any method name.
   */
  readonly customMethods?: "underscore" | "any";
  /** Longest inbound line; longer lines are answered `-32700` and skipped. Default 32 MiB. */
  readonly maxMessageBytes?: number;
  /** Deepest JSON nesting accepted; deeper lines are answered `-32700`. Default 128. */
  readonly maxDepth?: number;
  /** Inbound requests running at once; beyond it requests are answered `-32603` at once, handlers not started. Default 8192. */
  readonly maxInFlight?: number;
  /** Outbound requests awaiting answers; beyond it calls reject locally. Default 16384. */
  readonly maxPending?: number;
  /**
   * Notifications waiting behind slow handlers (all sessions together); beyond it
   * the connection stops reading until half of them were delivered (transports
   * with `pause`/`resume`). Nothing is dropped. Default 10000.
   */
  readonly maxQueuedNotifications?: number;
  /**
   * Default timeout, in milliseconds, of every outbound request that passes no
   * `timeoutMs` of its own: on expiry `$/cancel_request` is sent and the call
   * rejects with `RequestTimeoutError`. Requests whose row has an `onCancel`
   * result (`session/prompt`, `session/request_permission`) are exempt: they
   * last as long as the turn or the human takes. Default: none (calls wait as
   * long as the peer takes), so pick one for peers you do not trust to answer.
   */
  readonly requestTimeoutMs?: number;
  /**
   * Extension methods this side handles without codegen: `ext.handle(fn)` of
   * each `defineExtension` (see `src/extensions/define.ts`). They are gated and
   * validated like table rows; `_` methods not listed still reach
   * `extMethod`/`extNotification`. Default: none.
   */
  readonly extensions?: readonly ExtensionHandler[];
  /**
   * Client side: a line that does not start with a message but holds a
   * JSON-RPC object after other output (a terminal escape such as
   * `\u001b[1 q`, a shell profile's greeting) is served from that object on,
   * with a `parse_error` diagnostic naming the junk. Default: the transport's
   * `recoverPrefixedLines` (true for `spawnAgent`), else false (the line is a
   * parse error, as JSON-RPC says). Ignored on the agent side, which stays strict.
   */
  readonly recoverPrefixedLines?: boolean;
  /**
   * Trace context (W3C `traceparent`, `tracestate`, `baggage` in `_meta`, the
   * keys ACP reserves for it): a hook that picks the context each sent
   * request and notification carries, reads the one each received message
   * carries (`ctx.traceContext`) and wraps each handler call.
   * `otelTracing()` from `acp-router/otel` opens OpenTelemetry spans;
   * `propagateTracing()` from `acp-router/tracing` passes contexts on without
   * spans. Default: none — no `_meta` is added and nothing is read for it
   * (src/tracing/hook.ts).
   */
  readonly tracing?: Tracing;
  /**
   * Gives up on calls the peer leaves in silence: while a request of ours is
   * in flight, the peer must send some message at least every `silenceMs`;
   * `onUnresponsive` is told and chooses to wait, reject the silent calls
   * (the default), kill the peer or restart it (src/connection/watchdog.ts,
   * docs/supervision.md). Default: the transport's `watchdog` (`spawnAgent`
   * sets it from its own option), else none: calls wait as long as the peer takes.
   */
  readonly watchdog?: WatchdogOptions;
  /** Receives every diagnostic. Default: ignore them. */
  readonly onDiagnostic?: (diagnostic: Diagnostic) => void;
}

export const DEFAULT_MAX_IN_FLIGHT = 8192;
export const DEFAULT_MAX_PENDING = 16384;
export const DEFAULT_MAX_QUEUED_NOTIFICATIONS = 10000;
