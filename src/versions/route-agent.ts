/**
 * The agent-side version router (DESIGN §10): one transport, several protocol
 * versions. It reads lines until a valid `initialize`, negotiates (see
 * `negotiate.ts`), then hands the transport — the rewritten `initialize`
 * first, every later byte unchanged — to the connection of the selected
 * version, and never re-routes.
 *
 *   import { protocol as v1 } from "acp-router";
 *   import { protocol as v2 } from "acp-router/v2";
 *   const routed = await routeAgent(transport, {
 *     v1: { protocol: v1, handler: v1Handler },
 *     v2: { protocol: v2, handler: v2Handler },
 *   }, { maxMessageBytes: 1 << 20 });     // one options object: the router's and the connection's
 *   routed?.version; // 1 or 2
 *
 * This module imports no method table: each version's table is the
 * `protocol` value the caller imports from that version's entry.
 */
import { argumentError, checkHandler, checkOptions, checkProtocol, checkTransport } from "../arguments.ts";
import { createAgentConnection, type AgentConnection } from "../bind.ts";
import type { ConnectionOptions } from "../connection/options.ts";
import { wireError, type ErrorObject } from "../errors.ts";
import { classify } from "../jsonrpc/classify.ts";
import type { RequestId } from "../context.ts";
import { encodeLine, errorMessage } from "../jsonrpc/messages.ts";
import { ParseFailure } from "../jsonrpc/parse.ts";
import { oversizedAnswer, unusableAnswer, type UnusableAnswer } from "../jsonrpc/unusable.ts";
import type { Protocol, ProtocolTypes } from "../protocol.ts";
import { messageReader, readerLimits } from "../transport/reader.ts";
import type { Transport, TransportReceiver } from "../transport/transport.ts";
import { negotiate, type RoutedVersion } from "./negotiate.ts";

/** One version the agent serves: that version's `protocol` value and the handler written for its table. */
export interface AgentRoute<T extends ProtocolTypes> {
  /** The table: `protocol` from `acp-router` for `v1` (or `acp-router/unstable`), from `acp-router/v2` (or `acp-router/v2/unstable`) for `v2`. Its `version` must be the key's. */
  readonly protocol: Protocol<T>;
  /** The agent handler of that table. */
  readonly handler: NoInfer<T["agentHandler"]>;
}

/** The versions the agent serves; at least one. */
export interface AgentRoutes<T1 extends ProtocolTypes = ProtocolTypes, T2 extends ProtocolTypes = ProtocolTypes> {
  /** ACP v1: `{ protocol, handler }` with `protocol` from `acp-router` (or `acp-router/unstable`). */
  readonly v1?: AgentRoute<T1> | undefined;
  /** ACP v2: `{ protocol, handler }` with `protocol` from `acp-router/v2` (or `acp-router/v2/unstable`). */
  readonly v2?: AgentRoute<T2> | undefined;
}

/** The routed connection and its version. */
export type Routed<T1 extends ProtocolTypes = ProtocolTypes, T2 extends ProtocolTypes = ProtocolTypes> = { readonly version: 1; readonly connection: AgentConnection<T1> } | { readonly version: 2; readonly connection: AgentConnection<T2> };

/**
 * Options of {@link routeAgent}: the connection's own options, used before
 * routing too, so a line is answered the same before and after routing —
 * `maxMessageBytes` and `maxDepth` bound what the router reads, `batches`
 * decides how it answers a batch, and `onDiagnostic` hears what it answered
 * or ignored (`data: { phase: "before_initialize" }`). Plus the router's own
 * `v1ShapeToV1`.
 */
export interface RouteAgentOptions extends ConnectionOptions {
  /**
   * Routes an `initialize` in the v1 shape (`clientCapabilities` or
   * `clientInfo`, and neither `info` nor `capabilities`) to v1, as sent,
   * whatever version it names: a v1 client asking for a newer version still
   * gets an answer it can read. Default false, as the SDK's
   * `agentProtocolRouter`, which routes by the number alone.
   */
  readonly v1ShapeToV1?: boolean;
}

/** What the low-level router needs of its caller: the versions served, how to open one, and the bounds. @internal */
export interface RouteTransportOptions {
  readonly onDiagnostic?: ConnectionOptions["onDiagnostic"];
  readonly maxMessageBytes?: number;
  readonly maxDepth?: number;
  /** How a batch read before routing is answered; see {@link routeAgent}. Default `reject`. */
  readonly batches?: "reject" | "accept";
  /** Whether a request for `method` may not be batched (a connection answers it `-32600` inside a batch, before anything else). */
  readonly unbatched?: (method: string) => boolean;
  readonly v1ShapeToV1?: boolean;
}

const ROUTE_AGENT = "routeAgent(transport, { v1?: { protocol, handler }, v2?: { protocol, handler } }, options?)";

/**
 * Routes `transport` to the version its client's `initialize` negotiates,
 * opening that version's agent connection from its route's `protocol` and
 * `handler` with `options`. Resolves once routed, or to `undefined` when the
 * client leaves first (the transport is then closed). Before routing, every
 * line is framed and answered exactly as a plain connection of the selected
 * version answers it before `initialize` (the same reader, the same
 * `maxMessageBytes` and `maxDepth` from `options`, the same answers
 * from `jsonrpc/unusable.ts`): invalid JSON, a line too deep or too long `-32700`; a bad
 * id, a bad envelope or another request `-32600`; notifications and
 * responses are ignored. Only the router answers an `initialize` with an
 * unusable `protocolVersion` (`-32602`, `data.errors` at `/protocolVersion`)
 * and one below every configured version (`-32022` with
 * `{requested, supported}`). None of these ends the connection, so the
 * client may try `initialize` again. A batch is answered as `options.batches`
 * says (each element answered as the connection answers it before
 * `initialize` when `accept`); when it is not set, the connections' default
 * is used if every configured table has the same one (v2 alone: `accept`),
 * else one `-32600` (as v1 answers it) — the one answer that can differ from
 * a v2 connection's, by design, since no table is chosen yet.
 *
 * Throws a `TypeError` at the call for a transport, route or options that is
 * not one, and for a route whose protocol's `version` is not its key.
 */
export function routeAgent<T1 extends ProtocolTypes = never, T2 extends ProtocolTypes = never>(transport: Transport, routes: AgentRoutes<T1, T2>, options: RouteAgentOptions = {}): Promise<Routed<T1, T2> | undefined> {
  checkTransport(ROUTE_AGENT, "transport", transport);
  if (typeof routes !== "object" || routes === null || Array.isArray(routes)) throw argumentError(ROUTE_AGENT, "routes", "an object with v1 and/or v2", routes, 'e.g. { v2: { protocol, handler } } with `protocol` from "acp-router/v2".');
  checkOptions(ROUTE_AGENT, "options", options);
  const served = new Map<RoutedVersion, AgentRoute<ProtocolTypes>>();
  for (const version of [1, 2] as const) {
    const route = (routes as Record<string, unknown>)[`v${version}`];
    if (route === undefined) continue;
    checkRoute(ROUTE_AGENT, `routes.v${version}`, version, route);
    checkHandler(ROUTE_AGENT, `routes.v${version}.handler`, "agent", (route as AgentRoute<ProtocolTypes>).handler);
    served.set(version, route as AgentRoute<ProtocolTypes>);
  }
  const unknown = Object.keys(routes).filter((key) => key !== "v1" && key !== "v2" && (routes as Record<string, unknown>)[key] !== undefined);
  if (unknown.length > 0) throw argumentError(ROUTE_AGENT, `routes.${unknown[0] as string}`, "absent: only v1 and v2 are routed", (routes as Record<string, unknown>)[unknown[0] as string]);
  if (served.size === 0) throw argumentError(ROUTE_AGENT, "routes", "an object with v1, v2 or both", routes, 'e.g. { v1: { protocol, handler } } with `protocol` from "acp-router".');
  const defaults = new Set([...served.values()].map((route) => batchDefault(route.protocol)));
  const batches = options.batches ?? (defaults.size === 1 ? ([...defaults][0] as "reject" | "accept") : "reject");
  const open = (version: RoutedVersion, routed: Transport): AgentConnection => {
    const { protocol, handler } = served.get(version) as AgentRoute<ProtocolTypes>;
    return createAgentConnection(protocol, handler, routed, options);
  };
  const unbatched = (method: string) => [...served.values()].some((route) => route.protocol.inboundRow("agent", "request", method)?.unbatched === true);
  return routeTransport(transport, [...served.keys()], open, { ...options, batches, unbatched }) as unknown as Promise<Routed<T1, T2> | undefined>;
}

/**
 * Throws unless `route` is `{ protocol, handler }` whose protocol's version is `version`.
 * @internal
 */
export function checkRoute(signature: string, parameter: string, version: RoutedVersion, route: unknown): void {
  const entry = version === 1 ? 'from "acp-router" (or "acp-router/unstable")' : 'from "acp-router/v2" (or "acp-router/v2/unstable")';
  if (typeof route !== "object" || route === null || Array.isArray(route) || !("protocol" in route)) {
    const factory = typeof route === "function" ? " (a connect function is no longer taken: the connection is opened from the protocol)" : "";
    throw argumentError(signature, parameter, "{ protocol, handler }", route, `Pass the version's \`protocol\` value ${entry} with the handler written for it${factory}.`);
  }
  const protocol = (route as { protocol: unknown }).protocol;
  checkProtocol(signature, `${parameter}.protocol`, protocol, `Pass the \`protocol\` value ${entry}.`);
  if (protocol.version !== version) throw argumentError(signature, `${parameter}.protocol`, `a protocol of version ${version}`, protocol, `Pass the \`protocol\` value ${entry}, or put this one under v${protocol.version}.`);
}

/** The batch handling a connection of `protocol` defaults to (as the connection decides it: v2 tables keep rows out of batches). */
function batchDefault(protocol: Protocol): "reject" | "accept" {
  return protocol.rows.agent.some((row) => row.unbatched === true) ? "accept" : "reject";
}

/**
 * The router over any opener: reads `transport` until an `initialize`
 * negotiates one of `versions`, then hands it on through `open`. What
 * {@link routeAgent} runs once it has checked its arguments; tests call it
 * with openers that only read.
 * @internal
 */
export function routeTransport<C>(transport: Transport, versions: readonly RoutedVersion[], open: (version: RoutedVersion, transport: Transport) => C, options: RouteTransportOptions = {}): Promise<{ readonly version: RoutedVersion; readonly connection: C } | undefined> {
  // The connection's own limits, resolved as it resolves them (the agent side reads strictly: no junk recovered).
  const limits = readerLimits({ maxMessageBytes: options.maxMessageBytes, maxDepth: options.maxDepth });
  // Decoded here, not by the reader: text the reader releases on routing must not lose a character split across chunks.
  const decoder = new TextDecoder("utf-8", { fatal: false });
  const report = (kind: "parse_error" | "oversized_line" | "batch" | "unknown_message", message: string) => options.onDiagnostic?.({ kind, message, data: { phase: "before_initialize" } });
  const answer = ({ id, error }: { readonly id: RequestId | null; readonly error: ErrorObject }) => transport.write(encodeLine(errorMessage(id, error)));

  return new Promise((resolve) => {
    let inner: TransportReceiver | undefined;
    let handOff: string | undefined;
    /** The client's end, when it came after routing but before the connection started reading. */
    let ended: { error: Error | undefined } | undefined;

    const forward: Transport = {
      start(receiver) {
        inner = receiver;
        const first = handOff ?? "";
        handOff = undefined;
        if (first !== "") receiver.data(first);
        if (ended) receiver.end(ended.error);
      },
      write: (text) => transport.write(text),
      close: () => transport.close(),
      pause: () => transport.pause?.(),
      resume: () => transport.resume?.(),
    };
    // Whole messages pass as whole messages to a transport that sends them (`Transport.writeMessage`).
    const writeMessage = transport.writeMessage;
    if (writeMessage !== undefined) forward.writeMessage = (text) => writeMessage.call(transport, text);

    /** Hands the rewritten `initialize` and everything after it to the selected version's connection. */
    const route = (version: RoutedVersion, initialize: Record<string, unknown>, rest: string) => {
      handOff = encodeLine(initialize as never) + rest;
      resolve({ version, connection: open(version, forward) });
    };

    /** A batch, accepted: each element answered as a connection answers it before `initialize`, in one array; nothing is routed from a batch. */
    const answerBatch = (items: readonly unknown[]) => {
      const answers: string[] = [];
      for (const item of items) {
        if (classify(item) === "request" && options.unbatched?.(String((item as { method: unknown }).method)) === true) {
          answers.push(JSON.stringify(errorMessage((item as { id: RequestId }).id, wireError.unbatched(String((item as { method: unknown }).method)))));
          continue;
        }
        // An array inside a batch is an element that is not a message (its kind is "unknown"), not a batch.
        const outcome = Array.isArray(item) ? ({ tag: "reject", ...(unusableAnswer(item, classify(item)) as UnusableAnswer) } as const) : negotiate(item, versions, options.v1ShapeToV1 === true);
        if (outcome.tag === "ignore") continue;
        // An initialize inside a batch is not routed: answered as a connection answers an unbatched row.
        const [id, error] = outcome.tag === "route" ? [(item as { id: string | number }).id, wireError.unbatched("initialize")] : [outcome.id, outcome.error];
        answers.push(JSON.stringify(errorMessage(id, error)));
      }
      report("batch", `batch of ${items.length} answered before initialize`);
      if (answers.length > 0) transport.write(`[${answers.join(",")}]\n`);
    };

    // The one message reader, fed by hand: after routing, what it has not read is handed on as text.
    const reader = messageReader(
      {
        message(value) {
          if (value instanceof ParseFailure) {
            report("parse_error", `unparsable line before initialize: ${value.reason}`);
            return answer(unusableAnswer(value, undefined) as UnusableAnswer);
          }
          if (Array.isArray(value) && value.length > 0 && options.batches === "accept") return answerBatch(value);
          const outcome = negotiate(value, versions, options.v1ShapeToV1 === true);
          if (outcome.tag === "route") return route(outcome.version, outcome.initialize, reader.release());
          if (outcome.tag === "ignore") return report("unknown_message", "message before initialize ignored");
          report(Array.isArray(value) ? "batch" : "unknown_message", `answered ${outcome.error.code} before initialize: ${outcome.error.message}`);
          answer(outcome);
        },
        oversized(length) {
          report("oversized_line", `skipped a line of at least ${length} characters before initialize (maxMessageBytes ${limits.maxMessageBytes})`);
          answer(oversizedAnswer(limits.maxMessageBytes));
        },
      },
      limits,
    );

    transport.start({
      data(chunk) {
        const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
        if (inner) return inner.data(text);
        if (handOff !== undefined) {
          handOff += text;
          return;
        }
        reader.push(text);
      },
      end(error) {
        if (inner) return inner.end(error);
        const tail = decoder.decode();
        if (handOff !== undefined) handOff += tail;
        else {
          if (tail !== "") reader.push(tail);
          reader.end();
        }
        // The last line may have routed just now, and the connection may have started reading.
        const started = inner as TransportReceiver | undefined;
        if (started) started.end(error);
        else if (handOff !== undefined) ended = { error };
        else {
          transport.close();
          resolve(undefined);
        }
      },
    });
  });
}
