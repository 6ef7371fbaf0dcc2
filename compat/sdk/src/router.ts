/**
 * The SDK's `agentProtocolRouter()`: one stdio agent that serves ACP v1 and
 * v2, routed by the client's `initialize`, on acp-router's version router
 * (`routeTransport`, what `routeAgent` runs): it reads until `initialize`,
 * answers everything before it as a connection would, negotiates, and hands
 * the rest to the chosen version. An app (`agent()`) gets a core connection
 * with its handlers; any other connector (`{ connect(stream) }`, the SDK's
 * `AgentConnector`) gets an SDK message stream of the routed messages.
 */
import { createAgentConnection } from "../../../src/bind.ts";
import type { Protocol } from "../../../src/protocol.ts";
import type { Transport } from "../../../src/transport/transport.ts";
import { agentProtocol as v2Protocol } from "../../../src/v2/generated/agent.ts";
import { routeTransport } from "../../../src/versions/route-agent.ts";
import { isUnopenedByteStream, streamTransport, type Stream } from "./message-stream.ts";
import { RoutedLifecycle, routeMessages } from "./routing/message-router.ts";
import type { AgentApp } from "./sides.ts";
import type { AgentConnectOptions, AgentConnector } from "./by-method.ts";
import type { AnyMessage } from "./wire-types.ts";

export type { AgentConnector };

/** What `connect` returns: settles when the routed connection (or the unrouted stream) closed; `startConnectHandlers` starts deferred connect handlers. */
export interface RoutedConnection {
  readonly closed: Promise<void>;
  close?(error?: unknown): void;
  startConnectHandlers?(): void;
}

const isApp = (target: AgentConnector): target is AgentApp => typeof (target as { routed?: unknown }).routed === "function";

/** An agent that serves v1, v2, or both on one stream. */
export class AgentProtocolRouter {
  #v1: AgentConnector | undefined;
  #v2: AgentConnector | undefined;
  /** Serves ACP v1 clients with `agent` (an app of a v1 entry, or a connector). */
  withV1(agent: AgentConnector): this {
    this.#v1 = agent;
    return this;
  }
  /** Serves ACP v2 clients with `agent` (an app of a v2 entry, or a connector). */
  withV2(agent: AgentConnector): this {
    this.#v2 = agent;
    return this;
  }
  /**
   * Reads `initialize` from `stream`, then serves the rest with the connector of the negotiated
   * version. An `ndJsonStream` over bytes is routed by acp-router's version router on the bytes
   * (the stdio path: no message objects are made); a stream of message objects, or a connection
   * whose connect handlers are deferred (`deferConnectHandlers`: a server starts them once it
   * answered `initialize`), is routed message by message as SDK 2.4.0 routes (routing/).
   */
  connect(stream: Stream, options: AgentConnectOptions = {}): RoutedConnection {
    if (options.deferConnectHandlers === true || !isUnopenedByteStream(stream)) return this.#routeMessages(stream, options);
    const targets = new Map<1 | 2, AgentConnector>();
    if (this.#v1) targets.set(1, this.#v1);
    if (this.#v2) targets.set(2, this.#v2);
    const first = this.#v1 ?? this.#v2;
    if (first === undefined) throw new TypeError("agentProtocolRouter().connect(stream): add an agent first, with withV1(agent) or withV2(agent).");
    const { transport, maxMessageBytes } = streamTransport(stream);
    const coreOptions = isApp(first) ? first.options(maxMessageBytes) : maxMessageBytes === undefined ? {} : { maxMessageBytes };
    // As routeAgent decides them: v2 alone accepts batches, and v2's lifecycle rows stay out of them.
    const v2Alone = targets.size === 1 && targets.has(2);
    const v2 = targets.get(2);
    const v2Table: Protocol = v2 !== undefined && isApp(v2) ? v2.protocol : v2Protocol;
    const open = (version: 1 | 2, routed: Transport): { closed: Promise<unknown>; close(): void } => {
      const target = targets.get(version) as AgentConnector;
      if (!isApp(target)) return connectorOver(target, routed);
      const { handler, bind } = target.routed();
      const connection = createAgentConnection(target.protocol, handler as never, routed, coreOptions);
      bind(connection);
      return connection;
    };
    const routing = routeTransport(transport, [...targets.keys()], open, {
      ...coreOptions,
      batches: v2Alone ? "accept" : "reject",
      unbatched: (method) => v2 !== undefined && v2Table.inboundRow("agent", "request", method)?.unbatched === true,
    });
    const closed = routing.then(async (routed) => {
      if (routed !== undefined) await routed.connection.closed;
    });
    return {
      closed,
      close: () => {
        void routing.then((routed) => routed?.connection.close());
        transport.close();
      },
    };
  }

  /** Routes a stream of message objects (routing/message-router.ts); a routing failure aborts the output and ends the lifecycle. */
  #routeMessages(stream: Stream, options: AgentConnectOptions): RoutedConnection {
    const lifecycle = new RoutedLifecycle(options.deferConnectHandlers !== true);
    const targets = { ...(this.#v1 === undefined ? {} : { v1: this.#v1 }), ...(this.#v2 === undefined ? {} : { v2: this.#v2 }) };
    void routeMessages(stream, targets, lifecycle).catch(async (error: unknown) => {
      try {
        if (!stream.writable.locked) {
          const writer = stream.writable.getWriter();
          try {
            await writer.abort(error);
          } finally {
            writer.releaseLock();
          }
        }
      } catch {
        // Routing failed already; an output that cannot be aborted must not keep the lifecycle open.
      } finally {
        lifecycle.finish();
      }
    });
    return lifecycle;
  }
}

/** Hands the routed messages to a connector as an SDK stream: one object per line each way. */
function connectorOver(target: AgentConnector, routed: Transport): { closed: Promise<unknown>; close(): void } {
  let pending = "";
  const readable = new ReadableStream<AnyMessage>({
    start(controller) {
      routed.start({
        data(chunk) {
          pending += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
          for (let i = pending.indexOf("\n"); i >= 0; i = pending.indexOf("\n")) {
            const line = pending.slice(0, i).trim();
            pending = pending.slice(i + 1);
            if (line === "") continue;
            try {
              controller.enqueue(JSON.parse(line) as AnyMessage);
            } catch {
              // Lines after routing are the connector's to judge; one that is not JSON cannot be handed on as a message.
            }
          }
        },
        end: () => controller.close(),
      });
    },
  });
  const writable = new WritableStream<AnyMessage>({
    write: (message) => routed.write(`${JSON.stringify(message)}\n`),
    close: () => routed.close(),
  });
  const result = target.connect({ readable, writable }) as { closed?: Promise<unknown> } | undefined;
  return { closed: result?.closed ?? new Promise(() => {}), close: () => routed.close() };
}

/** A router with no agent yet. */
export function agentProtocolRouter(): AgentProtocolRouter {
  return new AgentProtocolRouter();
}
