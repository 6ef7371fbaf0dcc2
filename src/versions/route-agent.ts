/**
 * The agent-side version router (DESIGN §10): one transport, several protocol
 * versions. It reads lines until a valid `initialize`, negotiates (see
 * `negotiate.ts`), then hands the transport — the rewritten `initialize`
 * first, every later byte unchanged — to the connection of the selected
 * version, and never re-routes.
 *
 *   const routed = await routeAgent(transport, {
 *     v1: (t) => connectAgent(v1Handler, t),     // from "acp-router"
 *     v2: (t) => connectAgentV2(v2Handler, t),   // from "acp-router/v2"
 *   });
 *   routed?.version; // 1 or 2
 *
 * This module imports no method table: each version's table is loaded by the
 * entry the caller imports its `connect*` from.
 */
import { wireError, type ErrorObject } from "../errors.ts";
import { encodeLine, errorMessage } from "../jsonrpc/messages.ts";
import { DEFAULT_MAX_DEPTH, parseLine } from "../jsonrpc/parse.ts";
import { createFramer, DEFAULT_MAX_MESSAGE_BYTES } from "../transport/framer.ts";
import type { Transport, TransportReceiver } from "../transport/transport.ts";
import { negotiate, type ProtocolVersion } from "./negotiate.ts";

/** The connection factory of each version the agent serves; at least one. */
export interface AgentRoutes<C1, C2> {
  /** Opens the ACP v1 connection on the routed transport: `acp-router`'s `connectAgent(handler, transport)`. */
  readonly v1?: (transport: Transport) => C1;
  /** Opens the ACP v2 connection on the routed transport: `acp-router/v2`'s `connectAgent(handler, transport)`. */
  readonly v2?: (transport: Transport) => C2;
}

/** The routed connection and its version. */
export type Routed<C1, C2> = { readonly version: 1; readonly connection: C1 } | { readonly version: 2; readonly connection: C2 };

/** Options of {@link routeAgent}. */
export interface RouteAgentOptions {
  /** Told about every message answered or ignored before routing (never written to stdout). */
  readonly onDiagnostic?: (d: { readonly kind: "before_initialize"; readonly message: string }) => void;
  /**
   * Longest line read before routing. Default {@link DEFAULT_MAX_MESSAGE_BYTES}
   * (32 MiB), the connection's own default: a longer line is answered
   * `-32700` and skipped, the next line is served (PITFALLS #14).
   */
  readonly maxMessageBytes?: number;
  /**
   * Deepest JSON nesting read before routing. Default `DEFAULT_MAX_DEPTH`
   * (128), the connection's own default: a deeper line is answered `-32700`.
   * Set both limits to the connection's, so a client sees one answer to the
   * same line before and after routing.
   */
  readonly maxDepth?: number;
  /**
   * Routes an `initialize` in the v1 shape (`clientCapabilities` or
   * `clientInfo`, and neither `info` nor `capabilities`) to v1, as sent,
   * whatever version it names: a v1 client asking for a newer version still
   * gets an answer it can read. Default false, as the SDK's
   * `agentProtocolRouter`, which routes by the number alone.
   */
  readonly v1ShapeToV1?: boolean;
}

/**
 * Routes `transport` to the version its client's `initialize` negotiates.
 * Resolves once routed, or to `undefined` when the client leaves first (the
 * transport is then closed). Before routing, every line is framed and
 * answered exactly as a plain connection of the selected version answers it
 * before `initialize` (the same framer, limits and error constructors):
 * invalid JSON, a line too deep or too long `-32700`; a batch, a bad id, a
 * bad envelope or another request `-32600`; notifications and responses are
 * ignored. Only the router answers an `initialize` with an unusable
 * `protocolVersion` (`-32602`, `data.errors` at `/protocolVersion`) and one
 * below every configured version (`-32022` with `{requested, supported}`).
 * None of these ends the connection, so the client may try `initialize`
 * again. One difference remains by design: before a version is chosen there
 * is no table, so a batch gets one `-32600` (as v1 answers it), where a v2
 * connection, which accepts batches, answers each element.
 */
export function routeAgent<C1 = never, C2 = never>(transport: Transport, routes: AgentRoutes<C1, C2>, options: RouteAgentOptions = {}): Promise<Routed<C1, C2> | undefined> {
  const versions: ProtocolVersion[] = [];
  if (routes.v1) versions.push(1);
  if (routes.v2) versions.push(2);
  if (versions.length === 0) throw new TypeError("routeAgent: configure v1, v2 or both");
  const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  // Decoded here, not by the framer: text the framer releases on routing must not lose a character split across chunks.
  const decoder = new TextDecoder("utf-8", { fatal: false });
  const report = (message: string) => options.onDiagnostic?.({ kind: "before_initialize", message });
  const answer = (id: string | number | null, error: ErrorObject) => transport.write(encodeLine(errorMessage(id, error)));

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

    /** Hands the rewritten `initialize` and everything after it to the selected version's connection. */
    const route = (version: ProtocolVersion, initialize: Record<string, unknown>, rest: string) => {
      handOff = encodeLine(initialize as never) + rest;
      const connection = version === 1 ? (routes.v1 as (t: Transport) => C1)(forward) : (routes.v2 as (t: Transport) => C2)(forward);
      resolve({ version, connection } as Routed<C1, C2>);
    };

    const framer = createFramer(
      {
        line(line) {
          const parsed = parseLine(line, maxDepth);
          if (!parsed.ok) {
            report(`unparsable line before initialize: ${parsed.reason}`);
            return answer(null, wireError.parse(parsed.reason));
          }
          const outcome = negotiate(parsed.value, versions, options.v1ShapeToV1 === true);
          if (outcome.tag === "route") return route(outcome.version, outcome.initialize, framer.release());
          if (outcome.tag === "ignore") return report("message before initialize ignored");
          report(`answered ${outcome.error.code} before initialize: ${outcome.error.message}`);
          answer(outcome.id, outcome.error);
        },
        oversized(length) {
          report(`skipped a line of at least ${length} characters before initialize (maxMessageBytes ${max})`);
          answer(null, wireError.lineTooLong(max));
        },
      },
      max,
    );

    transport.start({
      data(chunk) {
        const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
        if (inner) return inner.data(text);
        if (handOff !== undefined) {
          handOff += text;
          return;
        }
        framer.push(text);
      },
      end(error) {
        if (inner) return inner.end(error);
        const tail = decoder.decode();
        if (handOff !== undefined) handOff += tail;
        else {
          if (tail !== "") framer.push(tail);
          framer.end();
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
