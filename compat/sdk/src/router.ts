/**
 * The SDK's `agentProtocolRouter()`: one agent that serves ACP v1 and v2,
 * routed by the client's `initialize`. Apps (`agent()`) on an unread
 * `ndJsonStream` (a stdio agent) are routed on the bytes by acp-router's
 * version router (`routeAgent`): it reads until `initialize`, answers
 * everything before it as a connection would, negotiates, and opens the
 * chosen app's core connection. Any other stream or connector (`{ connect(stream) }`,
 * the SDK's `AgentConnector`), or a connection whose connect handlers are
 * deferred, is routed message by message as SDK 2.4.0 routes (routing/).
 */
import { routeAgent } from "acp-router/versions";
import { isUnopenedByteStream, streamTransport, type Stream } from "./message-stream.ts";
import { RoutedLifecycle, routeMessages } from "./routing/message-router.ts";
import type { AgentApp } from "./sides.ts";
import type { AgentConnectOptions, AgentConnector } from "./by-method.ts";

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
    const v1 = this.#v1;
    const v2 = this.#v2;
    // Apps alone on an unread byte stream take acp-router's byte router; anything else is routed message by message.
    const apps = [v1, v2].filter((target) => target !== undefined);
    if (options.deferConnectHandlers === true || !isUnopenedByteStream(stream) || apps.length === 0 || !apps.every(isApp)) return this.#routeMessages(stream, options);
    const { transport, maxMessageBytes } = streamTransport(stream);
    const coreOptions = (apps[0] as AgentApp).options(maxMessageBytes);
    const bind = new Map<1 | 2, (conn: { closed: Promise<unknown>; close(reason?: string): void }) => void>();
    const route = (version: 1 | 2, app: AgentApp | undefined) => {
      if (app === undefined) return undefined;
      const { handler, bind: attach } = app.routed();
      bind.set(version, attach);
      return { protocol: app.protocol, handler: handler as never };
    };
    const routing = routeAgent(transport, { v1: route(1, v1 as AgentApp | undefined), v2: route(2, v2 as AgentApp | undefined) }, coreOptions);
    const bound = routing.then((routed) => {
      if (routed !== undefined) bind.get(routed.version)?.(routed.connection);
      return routed;
    });
    const closed = bound.then(async (routed) => {
      if (routed !== undefined) await routed.connection.closed;
    });
    return {
      closed,
      close: () => {
        void bound.then((routed) => routed?.connection.close());
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

/** A router with no agent yet. */
export function agentProtocolRouter(): AgentProtocolRouter {
  return new AgentProtocolRouter();
}
